import Foundation

/// A file path's folder and name, read from its text alone.
///
/// `URL(fileURLWithPath:)` asks the file system whether a path is a folder (one `lstat`) and
/// parses the path as a URL; the store's write step only needs the text before and after the last
/// slash, on every write, so it takes it here.
enum PathText {
    /// The folder holding `path`: the text before its last slash (`/` for a file at the root,
    /// `.` for a name without a folder).
    static func folder(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.utf8.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of `path`: the text after its last slash.
    static func name(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// Whether `path` starts with the bytes of `prefix` (paths compare byte for byte, with no
    /// Unicode normalization, as the file system compares them).
    static func hasPrefix(_ path: String, _ prefix: String) -> Bool {
        let compared = path.utf8.withContiguousStorageIfAvailable { whole in
            prefix.utf8.withContiguousStorageIfAvailable { start in
                guard start.count <= whole.count else { return false }
                guard let first = start.baseAddress, let second = whole.baseAddress else { return true }
                return memcmp(second, first, start.count) == 0
            }
        }
        return (compared ?? nil) ?? path.utf8.starts(with: prefix.utf8)
    }
}
