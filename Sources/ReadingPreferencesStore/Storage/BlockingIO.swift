import Foundation

/// Runs work that can block a thread (waiting for a file lock, flushing to disk, reading a
/// network folder) on threads of its own, off Swift's cooperative thread pool, whose few threads
/// must never wait (issue 19). Reading one small local file is not sent here: it is bounded and
/// never waits for another process.
enum BlockingIO {
    /// A queue for one piece of blocking work. A serial queue of its own gets a thread whenever
    /// it has work, where a concurrent queue runs no more at once than there are processors (a
    /// serial queue shared between calls, one): a few long waits (locks another process holds, a
    /// slow network folder) would then hold up every other read and write of the process.
    /// (libdispatch runs about 255 such queues at once, and queues the rest.)
    private static func thread() -> DispatchQueue {
        DispatchQueue(label: "org.readingprefs.store.blocking-io", qos: .userInitiated)
    }

    /// Runs `work` on a blocking-I/O thread and returns its result.
    static func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T
    {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            thread().async { continuation.resume(returning: Result(catching: work)) }
        }
        return try result.get()
    }

    /// Runs `work` on a blocking-I/O thread with what `prepare` returns, and returns its result:
    /// the thread is asked for before `prepare` runs on the calling thread, so the work it does
    /// there (encoding what is to be written) overlaps with the time a thread takes to wake.
    /// `afterwards` runs on the same thread once the caller is resumed with the result: work the
    /// caller need not wait for (closing the files a write replaced, ``ReplacedFiles``).
    static func run<Prepared: Sendable, T: Sendable, E: Error>(
        preparing prepare: () -> Prepared, _ work: @escaping @Sendable (Prepared) throws(E) -> T,
        afterwards: (@Sendable () -> Void)? = nil
    ) async throws(E) -> T {
        let handoff = Handoff<Prepared>()
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            thread().async {
                let prepared = handoff.take()
                continuation.resume(returning: Result { () throws(E) -> T in try work(prepared) })
                afterwards?()
            }
            handoff.put(prepare())
        }
        return try result.get()
    }

    /// A value handed from one thread to another once.
    private final class Handoff<Value: Sendable>: @unchecked Sendable {
        private var value: Value?
        private let ready = DispatchSemaphore(value: 0)

        func put(_ value: Value) {
            self.value = value
            ready.signal()
        }

        /// Waits for the value ``put(_:)`` hands over, and returns it.
        func take() -> Value {
            while true {
                ready.wait()
                // `put` sets the value before it signals, so the first wait ends with it.
                if let value { return value }
            }
        }
    }

    /// Runs `work` for every index of `0..<count` at once, all but the last on blocking-I/O
    /// threads and the last on the calling thread, and returns when every one has finished: for
    /// blocking calls that do not depend on each other, such as the flushes of a batch's files,
    /// which a disk completes together sooner than one after another.
    static func concurrently(_ count: Int, _ work: @escaping @Sendable (Int) -> Void) {
        guard count > 1 else {
            if count == 1 { work(0) }
            return
        }
        let group = DispatchGroup()
        for index in 0..<(count - 1) {
            thread().async(group: group) { work(index) }
        }
        work(count - 1)
        group.wait()
    }
}
