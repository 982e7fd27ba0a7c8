import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file's contents atomically: readers see the old file or the new one, never a torn
/// one.
enum AtomicFile {
    /// Writes `data` to a temporary file in the destination's folder, flushes it, then renames it
    /// over the destination (keeping the old file's permissions).
    static func write(_ data: Data, to path: String) throws(ToolError) {
        let destination = URL(fileURLWithPath: path)
        let folder = destination.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(
            ".\(destination.lastPathComponent).\(UUID().uuidString).tmp")
        let manager = FileManager.default
        var attributes: [FileAttributeKey: Any] = [:]
        if let permissions = (try? manager.attributesOfItem(atPath: path))?[.posixPermissions] {
            attributes[.posixPermissions] = permissions
        }
        guard manager.createFile(atPath: temporary.path, contents: data, attributes: attributes) else {
            throw .failure("cannot write \(path): cannot create a temporary file in \(folder.path)")
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            try handle.synchronize()
            try handle.close()
        } catch {
            try? manager.removeItem(at: temporary)
            throw .failure("cannot write \(path): flushing the temporary file failed")
        }
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? manager.removeItem(at: temporary)
            throw .failure("cannot write \(path): \(reason)")
        }
    }
}
