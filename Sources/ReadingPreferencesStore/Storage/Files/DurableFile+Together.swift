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
    /// Flushes open files or folders at once and returns the index of one whose flush failed,
    /// or `nil` when all are on stable storage; runs `alongside` meanwhile, on another thread,
    /// and returns once it has finished too. Closes nothing.
    static func flushTogether(_ descriptors: [Int32], alongside: (@Sendable () -> Void)? = nil) -> Int? {
        let failures = FlushFailures()
        let extra = alongside == nil ? 0 : 1
        // The work alongside goes to another thread (index 0); the last flush stays on this one,
        // so it starts at once.
        BlockingIO.concurrently(descriptors.count + extra) { index in
            if index < extra {
                alongside?()
            } else if !flush(descriptors[index - extra]) {
                failures.record(index - extra)
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

/// The indexes of flushes that failed, recorded from several threads.
private final class FlushFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var indexes: [Int] = []

    func record(_ index: Int) { lock.withLock { indexes.append(index) } }

    var first: Int? { lock.withLock { indexes.min() } }
}
