import Foundation
import ReadingPreferences

/// Layer documents in the export format a server answers at `GET /v1/export` (Specs/Server.md
/// §5.6), which a device's first sync also writes when it takes the synced documents
/// (Specs/Sync.md §5.9):
///
/// ```json
/// {"documents": [{"configurable": "epub", "layer": "shared", "version": "…",
///                 "preferences": {"fontSize": 1.2}},
///                {"configurable": "epub", "layer": "profile", "id": "night", "version": "…",
///                 "preferences": {"theme": "dark"}}]}
/// ```
///
/// ```swift
/// let export = try PreferencesExport(contentsOf: report.firstJoin!.export!)
/// try await store.restore(export)
/// ```
public struct PreferencesExport: Sendable, Hashable {
    /// The documents, each with where it lives.
    public var documents: [ExportedDocument]

    /// Creates an export.
    ///
    /// - Parameter documents: The documents.
    public init(documents: [ExportedDocument]) {
        self.documents = documents
    }

    /// The export as JSON; documents that are not layers are left out.
    public var jsonValue: JSONValue {
        let items = documents.compactMap { item -> JSONValue? in
            guard case .layer(let configurable, let layer) = item.location else { return nil }
            var members: [JSONObject.Member] = [
                .init(key: "configurable", value: .string(configurable)),
                .init(key: "layer", value: .string(layer.code)),
            ]
            if let id = layer.identifier { members.append(.init(key: "id", value: .string(id))) }
            members.append(.init(key: "version", value: .string(item.document.version.rawValue)))
            members.append(.init(key: "preferences", value: .object(item.document.preferences.jsonObject)))
            return .object(JSONObject(members: members))
        }
        return .object(JSONObject(members: [.init(key: "documents", value: .array(items))]))
    }

    /// Reads an export from its JSON.
    ///
    /// - Parameter json: The JSON, as ``jsonValue`` gives it.
    /// - Throws: ``StorageError`` with ``StorageError/Code/corruptDocument``, naming the first
    ///   member that is not as the format says.
    public init(json: JSONValue) throws(StorageError) {
        guard let items = json.objectValue?["documents"]?.arrayValue else {
            throw Self.malformed("it has no \"documents\" array")
        }
        var documents: [ExportedDocument] = []
        documents.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard let object = item.objectValue, let configurable = object["configurable"]?.stringValue,
                let code = object["layer"]?.stringValue, let kind = StoreLayer.Kind(rawValue: code),
                let layer = StoreLayer(kind: kind, identifier: object["id"]?.stringValue),
                let preferences = object["preferences"]?.objectValue
            else {
                throw Self.malformed(
                    "documents[\(index)] needs \"configurable\", a known \"layer\" (with its \"id\") and "
                        + "\"preferences\"")
            }
            let version = StorageVersion(object["version"]?.stringValue ?? "")
            documents.append(
                ExportedDocument(
                    location: .layer(configurable: configurable, layer),
                    document: StoredDocument(preferences: Preferences(preferences), version: version)))
        }
        self.documents = documents
    }

    /// Reads an export file.
    ///
    /// - Parameter url: The file.
    /// - Throws: ``StorageError``: ``StorageError/Code/io`` when it cannot be read,
    ///   ``StorageError/Code/corruptDocument`` when it is not an export.
    public init(contentsOf url: URL) throws(StorageError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw StorageError(.io, location: nil, message: "cannot read \(url.path): \(error)")
        }
        let json: JSONValue
        do {
            json = try JSONValue(json: data)
        } catch {
            throw Self.malformed("\(url.path) is not JSON: \(error)")
        }
        try self.init(json: json)
    }

    /// Writes the export to a new file; an existing file is never replaced.
    ///
    /// - Parameter url: The file.
    /// - Throws: ``StorageError`` with ``StorageError/Code/io`` when it cannot be written.
    public func write(to url: URL) throws(StorageError) {
        let data = jsonValue.jsonData(options: JSONEncodingOptions(prettyPrinted: true))
        do {
            try data.write(to: url, options: [.withoutOverwriting])
        } catch {
            throw StorageError(.io, location: nil, message: "cannot write \(url.path): \(error)")
        }
    }

    private static func malformed(_ message: String) -> StorageError {
        StorageError(.corruptDocument, location: nil, message: "not an export: \(message)")
    }
}
