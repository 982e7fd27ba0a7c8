import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file's contents atomically: readers see the old file or the new one, never a torn
/// one.
package enum DurableFile {
    /// Why a write failed, with the path concerned.
    package struct WriteError: Error, CustomStringConvertible {
        /// A one-line description.
        package var description: String
    }

    /// Writes `data` to a temporary file in the destination's folder, flushes it, then renames it
    /// over the destination (keeping the old file's permissions).
    package static func write(_ data: Data, to path: String) throws(WriteError) {
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
            throw WriteError(
                description: "cannot write \(path): cannot create a temporary file in \(folder.path)")
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            try handle.synchronize()
            try handle.close()
        } catch {
            try? manager.removeItem(at: temporary)
            throw WriteError(description: "cannot write \(path): flushing the temporary file failed")
        }
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? manager.removeItem(at: temporary)
            throw WriteError(description: "cannot write \(path): \(reason)")
        }
    }
}
