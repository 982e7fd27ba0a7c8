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
/// on a file system that discards freed blocks that is most of the rename's time (57 µs of 65
/// on ext4, Benchmarks/README.md). The space is no part of what the write makes durable: the
/// new content and the folder's entry are flushed either way. So a save on a local file system
/// (`LocalFileSystem`) keeps the descriptor its check read the old file through, and the last
/// close, which frees the space, comes after the caller is resumed, on the same blocking
/// thread. A process that dies before that close leaves nothing behind: the system closes its
/// files, which frees them (Specs/Store.md §6.3).
final class ReplacedFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var descriptors: [Int32] = []

    init() {}

    /// Keeps a replaced file's descriptor until ``closeAll()``.
    func keep(_ descriptor: Int32) {
        lock.withLock { descriptors.append(descriptor) }
    }

    /// Closes every descriptor kept, freeing what their files held: the one place they close
    /// (`BlockingIO.run(preparing:_:afterwards:)` calls it after every batch).
    func closeAll() {
        let kept = lock.withLock {
            defer { descriptors = [] }
            return descriptors
        }
        for descriptor in kept { close(descriptor) }
    }
}
