import Foundation
import ReadingPreferences

/// A stream of changes from a store: every call of ``PreferencesStore/changes(for:context:)``
/// returns its own, so two consumers never split the elements (Specs/Store.md §9.1).
///
/// ```swift
/// for await change in try await store.changes(for: bookID, context: book) {
///     print(change)   // fontSize: 1.2 → 1.3 (edit)
/// }
/// ```
///
/// Guarantees:
/// 1. A change is delivered after the store's state is swapped, once.
/// 2. A slow consumer gets the latest value per key: pending changes of one key coalesce into
///    one (the first old value, the latest new value and cause), and a key that went back to
///    its old value is dropped.
/// 3. The sequence and its iterator own the subscription: when both are released (the loop
///    ends) or the consuming task is cancelled, the stream stops and the store forgets it.
/// 4. Iterate a stream once: two loops over one stream would split its changes.
public struct PreferenceChangeStream: AsyncSequence, Sendable {
    /// The element: one change.
    public typealias Element = PreferenceChange

    let subscription: Subscription

    init(buffer: ChangeBuffer) {
        subscription = Subscription(buffer: buffer)
    }

    /// The iterator, which owns the subscription.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let subscription: Subscription

        /// The next change, or `nil` when the stream is finished or the task is cancelled.
        ///
        /// - Returns: The next change.
        public mutating func next() async -> PreferenceChange? {
            await subscription.buffer.next()
        }
    }

    /// Starts iterating; the subscription ends when the iterator is released.
    ///
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(subscription: subscription)
    }

    /// Ends a subscription when the last copy of its iterator goes away.
    final class Subscription: Sendable {
        let buffer: ChangeBuffer
        init(buffer: ChangeBuffer) { self.buffer = buffer }
        deinit { buffer.finish() }
    }
}

/// The pending changes of one subscriber, coalesced per key, and the consumer waiting for them.
/// Continuations are resumed outside the lock.
final class ChangeBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [PreferenceChange] = []
    private var waiting: CheckedContinuation<PreferenceChange?, Never>?
    private var finished = false

    /// Whether the consumer is gone.
    var isFinished: Bool { lock.withLock { finished } }

    /// Adds changes, coalescing with pending ones of the same key.
    func deliver(_ changes: [PreferenceChange]) {
        guard !changes.isEmpty else { return }
        let resumed: (CheckedContinuation<PreferenceChange?, Never>, PreferenceChange)? = lock.withLock {
            guard !finished else { return nil }
            for change in changes {
                if let index = pending.firstIndex(where: { $0.key == change.key }) {
                    var merged = pending[index]
                    merged.newValue = change.newValue
                    merged.cause = change.cause
                    if merged.oldValue == merged.newValue {
                        pending.remove(at: index)
                    } else {
                        pending[index] = merged
                    }
                } else {
                    pending.append(change)
                }
            }
            guard let continuation = waiting, !pending.isEmpty else { return nil }
            waiting = nil
            return (continuation, pending.removeFirst())
        }
        if let (continuation, change) = resumed { continuation.resume(returning: change) }
    }

    /// The next change, waiting for one when none is pending.
    func next() async -> PreferenceChange? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<PreferenceChange?, Never>) in
                let immediate: PreferenceChange?? = lock.withLock {
                    if !pending.isEmpty { return .some(pending.removeFirst()) }
                    if finished || Task.isCancelled { return .some(nil) }
                    waiting = continuation
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            finish()
        }
    }

    /// Ends the stream: a waiting consumer gets `nil`, and the store forgets the subscriber.
    func finish() {
        let continuation: CheckedContinuation<PreferenceChange?, Never>? = lock.withLock {
            finished = true
            pending.removeAll()
            defer { waiting = nil }
            return waiting
        }
        continuation?.resume(returning: nil)
    }
}
