#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The names in a folder, read with `opendir` and `readdir`: what the write step needs of the
/// commit records' folder on every write, without `FileManager`'s cost (an error object built for
/// a folder that is not there, a URL per name).
enum FolderNames {
    /// The names in `path` but `.` and `..`, or `nil` when it cannot be opened (it does not
    /// exist, or is not a folder).
    static func list(_ path: String) -> [String]? {
        guard let folder = opendir(path) else { return nil }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
