import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files a batch replaced, still open, closed once its caller has its answer.
///
/// A rename over a file that nothing holds open frees the old file's space then and there, and
/// on a file system that discards freed blocks that takes as long as the rename itself (about
/// 60 µs of the 65 a rename took here, Benchmarks/README.md). The space is no part of what the
/// write makes durable: the new content and the folder's entry are flushed either way. So a
/// save keeps the descriptor its check read the old file through, and the last close, which
/// frees the space, comes after the caller is resumed, on the same blocking thread. A crash
/// before that close leaves nothing behind: an unlinked file held open is freed by the system
/// (Specs/Store.md §6.3).
final class ReplacedFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var descriptors: [Int32] = []

    init() {}

    /// Keeps a replaced file's descriptor until ``closeAll()``.
    func keep(_ descriptor: Int32) {
        lock.withLock { descriptors.append(descriptor) }
    }

    /// Closes every descriptor kept, freeing what their files held.
    func closeAll() {
        let kept = lock.withLock {
            defer { descriptors = [] }
            return descriptors
        }
        for descriptor in kept { close(descriptor) }
    }

    deinit { for descriptor in descriptors { close(descriptor) } }
}
