import Foundation

/// Runs asynchronous work one piece at a time, in the order asked.
///
/// A lock, not an actor: taking and giving a turn are short synchronous steps, so a turn is
/// handed to the next waiter the moment its work ends, without a hop to another executor.
final class AsyncTurns: @unchecked Sendable {
    private let lock = NSLock()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var next = 0

    func run<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        await take()
        defer { give() }
        return try await work()
    }

    private func take() async {
        let free = lock.withLock {
            if busy { return false }
            busy = true
            return true
        }
        if free { return }
        await withCheckedContinuation { continuation in
            let now = lock.withLock {
                if busy {
                    waiting.append(continuation)
                    return false
                }
                busy = true
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
                busy = false
                return nil
            }
            // The turn passes straight to the first waiter (`busy` stays set); the queue drops
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

/// Turns per user: the store writes of one user on this instance run one at a time, so they
/// never make each other retry (a store write loads, changes, and saves at the version it
/// loaded; sixteen at once on one document would each retry until one of its tries came first).
/// Writes through other instances still meet as conflicts, and are retried as before.
final class UserTurns: @unchecked Sendable {
    private let lock = NSLock()
    private var users: [String: (turns: AsyncTurns, holders: Int)] = [:]

    /// Runs `work` in the user's turn.
    func run<T: Sendable>(_ user: String, _ work: @Sendable () async throws -> T) async throws -> T {
        let turns = lock.withLock { () -> AsyncTurns in
            var entry = users[user] ?? (AsyncTurns(), 0)
            entry.holders += 1
            users[user] = entry
            return entry.turns
        }
        defer {
            lock.withLock {
                guard var entry = users[user] else { return }
                entry.holders -= 1
                users[user] = entry.holders == 0 ? nil : entry
            }
        }
        return try await turns.run(work)
    }
}
