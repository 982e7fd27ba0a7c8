import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Flushes that do not depend on each other, made at once (Specs/Store.md §6.3): a batch's
// prepared files and its commit record, then the folders its renames changed.
extension DurableFile {
    /// A flush that failed: the descriptor's index and the system's error number.
    struct FlushFailure {
        var index: Int
        var errorNumber: Int32
    }

    /// Flushes open files or folders at once and returns a flush that failed, or `nil` when all
    /// are on stable storage; runs `alongside` meanwhile, on another thread, and returns once it
    /// has finished too. Closes nothing.
    static func flushTogether(_ descriptors: [Int32], alongside: (@Sendable () -> Void)? = nil)
        -> FlushFailure?
    {
        let failures = FlushFailures()
        let extra = alongside == nil ? 0 : 1
        // The work alongside goes to another thread (index 0); the last flush stays on this one,
        // so it starts at once.
        BlockingIO.concurrently(descriptors.count + extra) { index in
            if index < extra {
                alongside?()
            } else if !flush(descriptors[index - extra]) {
                // errno is the flushing thread's own: read it there.
                failures.record(FlushFailure(index: index - extra, errorNumber: errno))
            }
        }
        return failures.first
    }

    /// Flushes the folders holding `paths` at once, each folder once.
    static func flushFolders(of paths: [String]) {
        var seen = Set<String>()
        var descriptors: [Int32] = []
        for path in paths {
            let folder = PathText.folder(of: path)
            guard seen.insert(folder).inserted else { continue }
            let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
            if descriptor >= 0 { descriptors.append(descriptor) }
        }
        _ = flushTogether(descriptors)
        for descriptor in descriptors { close(descriptor) }
    }
}

/// The flushes that failed, recorded from several threads.
private final class FlushFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var failures: [DurableFile.FlushFailure] = []

    func record(_ failure: DurableFile.FlushFailure) { lock.withLock { failures.append(failure) } }

    var first: DurableFile.FlushFailure? { lock.withLock { failures.min { $0.index < $1.index } } }
}
