import Foundation

/// The shared mirror folder, as sync sees it: replica files to read, and this replica's own file
/// to write (SPEC 10).
///
/// On Apple platforms every read and write goes through file coordination, so iCloud Drive (or
/// any file provider) never hands over a file it is still writing, and a cloud placeholder
/// (`.<name>.icloud`) is asked to download and reported as not there yet; it is merged by a
/// later sync, once it has arrived. Elsewhere the files are read and written directly.
struct MirrorFolder: Sendable {
    /// The folder.
    let url: URL

    /// A replica file read from the mirror.
    struct ReplicaFile: Sendable {
        /// The file's name.
        var name: String
        /// The file's bytes.
        var data: Data
    }

    /// Every replica file but `own`, and what was skipped.
    func replicaFiles(except own: String) -> (files: [ReplicaFile], problems: [SyncProblem]) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
        var files: [ReplicaFile] = []
        var problems: [SyncProblem] = []
        for name in names {
            if let awaited = Self.placeholderTarget(name), awaited != own {
                requestDownload(of: awaited)
                problems.append(
                    .skippedReplicaFile(awaited, "not downloaded yet; its download was requested"))
                continue
            }
            guard Self.isReplicaFile(name), name != own else { continue }
            do {
                files.append(ReplicaFile(name: name, data: try read(name)))
            } catch {
                problems.append(.skippedReplicaFile(name, "cannot be read"))
            }
        }
        return (files, problems)
    }

    /// The bytes of one file, or `nil` when it cannot be read.
    func contents(of name: String) -> Data? {
        try? read(name)
    }

    /// Replaces one file atomically.
    func write(_ data: Data, as name: String) throws {
        let target = url.appendingPathComponent(name)
        #if canImport(Darwin)
            var coordinationError: NSError?
            var failure: (any Error)?
            NSFileCoordinator(filePresenter: nil).coordinate(
                writingItemAt: target, options: .forReplacing, error: &coordinationError
            ) { actual in
                do { try DurableFile.write(data, to: actual.path) } catch { failure = error }
            }
            if let error = coordinationError ?? failure { throw error }
        #else
            try DurableFile.write(data, to: target.path)
        #endif
    }

    // MARK: - Names

    /// Whether a name is a replica file's: `*.json`, not hidden, not a temporary file.
    static func isReplicaFile(_ name: String) -> Bool {
        name.hasSuffix(".json") && !name.hasPrefix(".") && !DurableFile.isTemporary(name)
    }

    /// The replica file a cloud placeholder stands for: `.<name>.json.icloud` → `<name>.json`.
    static func placeholderTarget(_ name: String) -> String? {
        guard name.hasPrefix("."), name.hasSuffix(".json.icloud") else { return nil }
        let target = String(name.dropFirst().dropLast(".icloud".count))
        return isReplicaFile(target) ? target : nil
    }

    // MARK: - Access

    private func read(_ name: String) throws -> Data {
        let source = url.appendingPathComponent(name)
        #if canImport(Darwin)
            var coordinationError: NSError?
            var result: Result<Data, any Error> = .failure(CocoaError(.fileReadUnknown))
            NSFileCoordinator(filePresenter: nil).coordinate(
                readingItemAt: source, options: [], error: &coordinationError
            ) { actual in
                result = Result { try Data(contentsOf: actual) }
            }
            if let coordinationError { throw coordinationError }
            return try result.get()
        #else
            return try Data(contentsOf: source)
        #endif
    }

    private func requestDownload(of name: String) {
        #if os(macOS) || os(iOS) || os(visionOS)
            try? FileManager.default.startDownloadingUbiquitousItem(at: url.appendingPathComponent(name))
        #endif
    }
}
