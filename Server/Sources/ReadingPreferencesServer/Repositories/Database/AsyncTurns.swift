import Foundation

/// Runs asynchronous work at most `width` pieces at a time (one by default), in the order asked.
///
/// A lock, not an actor: taking and giving a turn are short synchronous steps, so a turn is
/// handed to the next waiter the moment its work ends, without a hop to another executor.
final class AsyncTurns: @unchecked Sendable {
    private let lock = NSLock()
    private let width: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var next = 0

    init(width: Int = 1) {
        self.width = max(width, 1)
    }

    func run<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        await take()
        defer { give() }
        return try await work()
    }

    private func take() async {
        let free = lock.withLock {
            if running == width { return false }
            running += 1
            return true
        }
        if free { return }
        await withCheckedContinuation { continuation in
            let now = lock.withLock {
                if running == width {
                    waiting.append(continuation)
                    return false
                }
                running += 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    private func give() {
        let waiter: CheckedContinuation<Void, Never>? = lock.withLock {
            guard next < waiting.count else {
                waiting.removeAll(keepingCapacity: true)
                next = 0
                running -= 1
                return nil
            }
            // The turn passes straight to the first waiter (`running` stays); the queue drops
            // the ones served once they are half of it (amortized constant time).
            let waiter = waiting[next]
            next += 1
            if next >= 32, next * 2 >= waiting.count {
                waiting.removeFirst(next)
                next = 0
            }
            return waiter
        }
        waiter?.resume()
    }
}
