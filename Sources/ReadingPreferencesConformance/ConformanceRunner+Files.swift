import Foundation
import ReadingPreferences

extension ConformanceRunner {
    /// Reads every case under the given files and folders.
    ///
    /// Folders are searched recursively for `*.json` files (names starting with `.` are skipped),
    /// sorted by path so the output is stable. A file's label is its path relative to the folder
    /// that was given, or the path as given for a file.
    ///
    /// - Parameter paths: Files and folders.
    /// - Returns: One entry per case, in order.
    public func loadCases(at paths: [String]) -> [ConformanceEntry] {
        var entries: [ConformanceEntry] = []
        for path in paths {
            for file in Self.vectorFiles(at: path) {
                entries += loadCases(file: file.path, label: file.label)
            }
        }
        return entries
    }

    /// Reads the cases of one vector file.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - label: The label of its cases (default: the path).
    /// - Returns: One entry per case, or one failed entry when the file cannot be read or parsed.
    public func loadCases(file path: String, label: String? = nil) -> [ConformanceEntry] {
        let label = label ?? path
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason =
                FileManager.default.fileExists(atPath: path)
                ? "cannot read the file" : "no such file or folder"
            return [
                ConformanceEntry(label: label, content: .failure(JSONMemberError(path: "", message: reason)))
            ]
        }
        return Self.cases(in: data, label: label)
    }

    /// Reads the cases of a vector document.
    ///
    /// - Parameters:
    ///   - data: The document: one case object or an array of cases.
    ///   - label: The label of the document's cases, such as its file name.
    /// - Returns: One entry per case, or one failed entry when the document is not valid JSON or
    ///   is neither an object nor an array.
    public static func cases(in data: Data, label: String) -> [ConformanceEntry] {
        let document: JSONValue
        do throws(JSONDecodingError) {
            // Deeper than a document may nest: a sync vector carries a replica file whose values
            // may nest 511 levels, four levels down in the file (Specs/Sync.md §2).
            document = try JSONValue(json: data, options: JSONParsingOptions(maxDepth: 1024))
        } catch {
            return [
                ConformanceEntry(
                    label: label,
                    content: .failure(JSONMemberError(path: "", message: "invalid JSON: \(error)")))
            ]
        }
        // Replica states are read from their own bytes (a repeated key merges); only documents
        // with sync cases are scanned for them.
        let sources = data.range(of: Data("\"replicas\"".utf8)) == nil ? [] : Self.replicaSources(in: data)
        func replicas(_ index: Int) -> [Data]? { index < sources.count ? sources[index] : nil }
        switch document {
        case .object:
            return [
                ConformanceEntry(
                    label: label, content: Self.parse(document, label: label, replicas: replicas(0)))
            ]
        case .array(let elements):
            return elements.enumerated().map { index, element in
                let caseLabel = "\(label)[\(index)]"
                return ConformanceEntry(
                    label: caseLabel,
                    content: Self.parse(element, label: caseLabel, replicas: replicas(index)))
            }
        default:
            let message =
                "expected a case object or an array of cases, got \(JSONMemberReader.describe(document))"
            return [
                ConformanceEntry(label: label, content: .failure(JSONMemberError(path: "", message: message)))
            ]
        }
    }

    private static func parse(_ json: JSONValue, label: String, replicas: [Data]?)
        -> Result<ConformanceCase, JSONMemberError>
    {
        do throws(JSONMemberError) {
            return .success(try ConformanceCase(json: json, label: label, replicaSources: replicas))
        } catch {
            return .failure(error)
        }
    }

    /// The vector files of a path: the file itself, or a folder's `*.json` files, sorted.
    static func vectorFiles(at path: String) -> [(path: String, label: String)] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            // A missing file is reported when it is read.
            return [(path, path)]
        }
        let folder = URL(fileURLWithPath: path)
        let relativePaths = (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []
        return relativePaths.filter { relative in
            let components = relative.split(separator: "/")
            guard relative.hasSuffix(".json"), !components.contains(where: { $0.hasPrefix(".") }) else {
                return false
            }
            var isDirectory: ObjCBool = false
            let full = folder.appendingPathComponent(relative).path
            return FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }
        .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        .map { (folder.appendingPathComponent($0).path, $0) }
    }
}
