import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// How a file storage makes folders, marks them, runs a body under a file's lock, excludes folders
// from backups and names an I/O failure as a storage error.
extension FileStorage {
    /// Creates a document's folder when it is missing; returns whether it did.
    @discardableResult
    static func createFolder(of location: StorageLocation, path: String) throws(StorageError) -> Bool {
        let folder = PathText.folder(of: path)
        var info = stat()
        guard stat(folder, &info) != 0 else { return false }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw StorageError(
                .io, location: location,
                message: "cannot create \(folder): \(error.localizedDescription)")
        }
        return true
    }

    /// Writes the marker of a configurable whose folder name is not its identifier, once.
    static func markFolder(of location: StorageLocation, layout: FileLayout) throws(StorageError) {
        guard let configurable = location.configurable, let marker = layout.folder(of: configurable).marker,
            !FileManager.default.fileExists(atPath: marker)
        else { return }
        _ = try createFolder(of: location, path: marker)
        var bytes = JSONValue.object(["$id": .string(configurable)]).jsonData(
            options: .init(prettyPrinted: true))
        bytes.append(0x0A)
        do throws(DurableFile.Failure) {
            try DurableFile.write(bytes, to: marker, placement: layout.locks)
        } catch {
            throw io(error, location)
        }
    }

    /// Runs a body with the file under its lock, taken and released in this one synchronous call.
    static func locked<T>(
        _ path: String, _ location: StorageLocation, _ locks: DurableFile.LockPlacement,
        _ body: (borrowing DurableFile.LockedFile) throws(StorageError) -> T
    ) throws(StorageError) -> T {
        do {
            return try DurableFile.withLockedFile(path, links: .follow, placement: locks, body)
        } catch {
            switch error {
            case .file(let failure):
                // A missing folder: the document does not exist, and never did.
                throw io(failure, location)
            case .transform(let error): throw error
            }
        }
    }

    static func io(_ failure: DurableFile.Failure, _ location: StorageLocation) -> StorageError {
        StorageError(.io, location: location, message: failure.description, underlying: failure)
    }

    /// Keeps the sync state out of backups (Apple platforms): a device restored from a backup
    /// then starts as a new replica instead of writing under another device's id.
    static func excludeFromBackup(_ path: String) {
        #if canImport(Darwin)
            var url = URL(fileURLWithPath: path)
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            try? url.setResourceValues(values)
        #endif
    }
}
