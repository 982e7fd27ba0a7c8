import Foundation

/// Runs work that can block a thread (waiting for a file lock, flushing to disk, reading a
/// network folder) on threads of its own, off Swift's cooperative thread pool, whose few threads
/// must never wait (issue 19). Reading one small local file is not sent here: it is bounded and
/// never waits for another process.
enum BlockingIO {
    private static let queue = DispatchQueue(
        label: "org.readingprefs.store.blocking-io", qos: .userInitiated, attributes: .concurrent)

    /// Runs `work` on a blocking-I/O thread and returns its result.
    static func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T
    {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Result(catching: work)) }
        }
        return try result.get()
    }
}
