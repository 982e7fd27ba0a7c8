import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Preferences as plain JSON files that a person can read and edit (SPEC 9):
///
/// ```text
/// <root>/device.json                                  which profile is active, per configurable
/// <root>/<configurable>/shared.json
/// <root>/<configurable>/profiles/<id>.json            "$name": the display name
/// <root>/<configurable>/publications/<safe-name>.json "$id": the publication's identifier
/// <root>/<configurable>/overrides.json
/// ```
///
/// Every write is `DurableFile`'s: a temporary file flushed and renamed over the old one under
/// an exclusive lock on a `.lock` file beside it, so a crash leaves the old file or the new one
/// and two processes never lose each other's updates. A file that is not a JSON object is moved
/// aside with a `.corrupt-<timestamp>` suffix, reported, and never silently replaced. Reading
/// one publication reads that file alone; listing publications reads only the folder.
public struct FileStorage: PreferencesStorage {
    /// The root folder.
    public let root: URL
    /// The root's path without trailing separators, read from the URL once: every read and
    /// write builds a path from it.
    private let rootPath: String

    /// Creates a storage rooted at a folder (created on the first write).
    ///
    /// - Parameter root: The root folder.
    public init(root: URL) {
        self.root = root
        var path = Self.path(of: root)
        while path.utf8.count > 1, path.hasSuffix("/") { path.removeLast() }
        rootPath = path
    }

    /// A folder's path. The percent-encoded path is several times cheaper to get (and a store is
    /// often made for one read), and is the same text when it has no escapes.
    private static func path(of folder: URL) -> String {
        if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
            let encoded = folder.path(percentEncoded: true)
            if !encoded.utf8.contains(UInt8(ascii: "%")) { return encoded }
        }
        return folder.path
    }

    /// The file of a location.
    ///
    /// - Parameter location: The location.
    /// - Returns: The file's path.
    public func path(of location: StorageLocation) -> String {
        switch location {
        case .device:
            return file("device.json")
        case .layer(let configurable, let layer):
            let folder = Self.folderName(configurable)
            switch layer {
            case .shared: return file(folder, "shared.json")
            case .overrides: return file(folder, "overrides.json")
            case .profile(let id): return file(folder, "profiles", Self.profileFileName(id))
            case .publication(let id): return file(folder, "publications", SafeName.fileName(for: id))
            }
        }
    }

    /// A path under the root, joined as text: `URL.appendingPathComponent(_:)` asks the file
    /// system whether each result is a folder, one system call per component on every read.
    private func file(_ first: String, _ second: String? = nil, _ third: String? = nil) -> String {
        var path = rootPath
        path.reserveCapacity(
            rootPath.utf8.count + first.utf8.count + (second?.utf8.count ?? 0) + (third?.utf8.count ?? 0) + 3)
        func append(_ component: String) {
            if path != "/" { path += "/" }
            path += component
        }
        append(first)
        if let second { append(second) }
        if let third { append(third) }
        return path
    }

    /// Loads a document; a file that is not a JSON object is moved aside and reported.
    ///
    /// - Parameter location: Where it lives.
    /// - Returns: The document, or `nil` when the file does not exist.
    /// - Throws: ``StorageError``.
    public func load(_ location: StorageLocation) async throws(StorageError) -> StoredDocument? {
        let path = path(of: location)
        guard let (data, version) = try read(path, location) else { return nil }
        do throws(JSONDecodingError) {
            return StoredDocument(preferences: try Preferences(json: data), version: version)
        } catch {
            throw try quarantine(path, location, reason: error.description)
        }
    }

    /// Saves a document if its file is still at `version`, under the file's lock.
    ///
    /// - Parameters:
    ///   - preferences: The document.
    ///   - location: Where it lives.
    ///   - version: The version loaded before, or `nil`.
    /// - Returns: The new version.
    /// - Throws: ``StorageError``.
    public func save(
        _ preferences: Preferences, to location: StorageLocation, expecting version: StorageVersion?
    ) async throws(StorageError) -> StorageVersion {
        let path = path(of: location)
        try createFolder(of: path, location)
        var document = preferences
        if case .layer(_, .publication(let id)) = location { document["$id"] = .string(id) }
        var bytes = document.jsonBytes(options: .init(prettyPrinted: true))
        bytes.append(0x0A)
        return try locked(path, location) { () throws(StorageError) -> StorageVersion in
            let current: stat?
            do throws(DurableFile.Failure) { current = try DurableFile.status(of: path) } catch {
                throw Self.io(error, location)
            }
            guard current.map(Self.version) == version else {
                throw StorageError(
                    .conflict, location: location, message: "\(path) changed since it was loaded")
            }
            do throws(DurableFile.Failure) {
                try DurableFile.replace(path, with: Data(bytes), existing: current)
            } catch {
                throw Self.io(error, location)
            }
            let written: stat?
            do throws(DurableFile.Failure) { written = try DurableFile.status(of: path) } catch {
                throw Self.io(error, location)
            }
            guard let written else {
                throw StorageError(.io, location: location, message: "\(path) vanished after its write")
            }
            return Self.version(of: written)
        }
    }

    /// Removes a document's file if it is still at `version`.
    ///
    /// - Parameters:
    ///   - location: Where it lives.
    ///   - version: The version loaded before.
    /// - Throws: ``StorageError``.
    public func remove(_ location: StorageLocation, expecting version: StorageVersion)
        async throws(StorageError)
    {
        let path = path(of: location)
        try locked(path, location) { () throws(StorageError) in
            let current: stat?
            do throws(DurableFile.Failure) { current = try DurableFile.status(of: path) } catch {
                throw Self.io(error, location)
            }
            guard current.map(Self.version) == version else {
                throw StorageError(
                    .conflict, location: location, message: "\(path) changed since it was loaded")
            }
            guard unlink(path) == 0 else {
                throw StorageError(
                    .io, location: location,
                    message: "cannot remove \(path): \(String(cString: strerror(errno)))")
            }
            DurableFile.flushFolder(of: path)
        }
    }

    /// The profile ids, or the publications' file names (without `.json`), from the folder alone.
    ///
    /// - Parameters:
    ///   - kind: Profiles or publications.
    ///   - configurable: The configurable.
    /// - Returns: The names, sorted.
    /// - Throws: ``StorageError`` when the folder cannot be listed.
    public func names(of kind: StorageKind, configurable: String) async throws(StorageError) -> [String] {
        let folder = file(Self.folderName(configurable), kind.rawValue)
        guard FileManager.default.fileExists(atPath: folder) else { return [] }
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw StorageError(
                .io, location: nil, message: "cannot list \(folder): \(error.localizedDescription)")
        }
        return entries.filter { $0.hasSuffix(".json") && !DurableFile.isTemporary($0) }
            .map { String($0.dropLast(".json".count)) }
            .sorted()
    }

    /// Removes the temporary files killed runs left under the root.
    ///
    /// - Returns: The number of files removed.
    @discardableResult
    public func removeLeftovers() -> Int {
        var removed = 0
        var folders = [root.path]
        while let folder = folders.popLast() {
            removed += DurableFile.removeLeftovers(in: folder)
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for entry in entries {
                var isFolder: ObjCBool = false
                let path = URL(fileURLWithPath: folder).appendingPathComponent(entry).path
                if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                    folders.append(path)
                }
            }
        }
        return removed
    }

    // MARK: - Files

    /// A configurable's folder: its identifier, made safe.
    static func folderName(_ configurable: String) -> String {
        isPlainName(configurable)
            ? configurable : String(SafeName.fileName(for: configurable).dropLast(".json".count))
    }

    /// A profile's file: its id when it is a plain name, else its safe name.
    static func profileFileName(_ id: String) -> String {
        isPlainName(id) ? id + ".json" : SafeName.fileName(for: id)
    }

    private static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }

    /// A file's version: its identity and size and modification time. Every durable write
    /// renames a new file into place, so a write always changes it.
    static func version(of info: stat) -> StorageVersion {
        #if canImport(Darwin)
            let modified = info.st_mtimespec
        #else
            let modified = info.st_mtim
        #endif
        // `dev:ino:size:sec.nsec`, written in one pass: it is made on every read.
        let text = String(unsafeUninitializedCapacity: 5 * 21 + 4) { output in
            var count = 0
            func write(_ value: some BinaryInteger, then separator: UInt8?) {
                if value < 0 {
                    output[count] = UInt8(ascii: "-")
                    count += 1
                }
                var magnitude = UInt64(truncatingIfNeeded: value.magnitude)
                let start = count
                repeat {
                    output[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    count += 1
                    magnitude /= 10
                } while magnitude > 0
                output[start..<count].reverse()
                if let separator {
                    output[count] = separator
                    count += 1
                }
            }
            write(info.st_dev, then: UInt8(ascii: ":"))
            write(info.st_ino, then: UInt8(ascii: ":"))
            write(info.st_size, then: UInt8(ascii: ":"))
            write(modified.tv_sec, then: UInt8(ascii: "."))
            write(modified.tv_nsec, then: nil)
            return count
        }
        return StorageVersion(text)
    }

    /// Reads a file with the version it had when read.
    private func read(_ path: String, _ location: StorageLocation) throws(StorageError) -> (
        Data, StorageVersion
    )? {
        // One open file: its status is the version of exactly the bytes read, even if a writer
        // renames a new file over the path meanwhile (a later save then sees the new version and
        // reports a conflict).
        do throws(DurableFile.Failure) {
            guard let (data, status) = try DurableFile.readWithStatus(path) else { return nil }
            return (data, Self.version(of: status))
        } catch {
            throw Self.io(error, location)
        }
    }

    /// Moves a corrupt file aside under its lock, and returns the error that reports it.
    private func quarantine(_ path: String, _ location: StorageLocation, reason: String) throws(StorageError)
        -> StorageError
    {
        try locked(path, location) { () throws(StorageError) -> StorageError in
            let stamp = Int((Date().timeIntervalSince1970 * 1000).rounded())
            let aside = path + ".corrupt-\(stamp)"
            guard rename(path, aside) == 0 else {
                throw StorageError(
                    .io, location: location,
                    message: "cannot move the corrupt \(path) aside: \(String(cString: strerror(errno)))")
            }
            DurableFile.flushFolder(of: path)
            return StorageError(
                .corruptDocument, location: location,
                message: "\(path) is not a JSON object (\(reason)); moved to \(aside)",
                movedTo: aside)
        }
    }

    private func createFolder(of path: String, _ location: StorageLocation) throws(StorageError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw StorageError(
                .io, location: location,
                message: "cannot create \(folder.path): \(error.localizedDescription)")
        }
    }

    /// Runs a body under the file's exclusive lock, taken and released in this one synchronous
    /// call (never across an `await`).
    private func locked<T>(_ path: String, _ location: StorageLocation, _ body: () throws(StorageError) -> T)
        throws(StorageError) -> T
    {
        try createFolder(of: path, location)
        let lock: Int32
        do throws(DurableFile.Failure) { lock = try DurableFile.acquireLock(for: path) } catch {
            throw Self.io(error, location)
        }
        defer { DurableFile.releaseLock(lock) }
        return try body()
    }

    private static func io(_ failure: DurableFile.Failure, _ location: StorageLocation) -> StorageError {
        StorageError(.io, location: location, message: failure.description)
    }
}
