import Foundation

/// A failure armed to strike at a storage's next write steps: how the package's storages let the
/// conformance suite and the tests check that a batch is applied whole or not at all.
///
/// ```swift
/// faults.arm(after: 1)   // the first write step succeeds, the second fails with `io`
/// ```
///
/// A storage calls ``step(_:)`` before each write it makes (a file's temporary copy, a row); the
/// armed step throws, once.
package final class StorageFaultPlan: @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: Int?
    private var readsFail = false
    private var beforeNextStep: (@Sendable (StorageLocation?) -> Void)?

    package init() {}

    /// Runs `action` at the next write step, before the step itself, once: for a test to change
    /// a file at that instant, as another process could. A storage of files takes a lone save's
    /// step under the file's lock, after its first look at the file and before its check; other
    /// writes take it where ``step(_:)`` says.
    package func atNextStep(_ action: @escaping @Sendable (StorageLocation?) -> Void) {
        lock.withLock { beforeNextStep = action }
    }

    /// Arms a failure after `steps` successful steps; `nil` disarms.
    package func arm(after steps: Int?) {
        lock.withLock { remaining = steps.map { max($0, 0) } }
    }

    /// Makes every read fail with ``StorageError/Code/io`` until called with `false`.
    package func failReads(_ fail: Bool) {
        lock.withLock { readsFail = fail }
    }

    /// One read: throws ``StorageError/Code/io`` while reads fail.
    package func read(_ location: StorageLocation?) throws(StorageError) {
        if lock.withLock({ readsFail }) {
            throw StorageError(
                .io, location: location, message: "injected read failure (a fault the test armed)")
        }
    }

    /// Whether a failure is armed and has not struck yet.
    package var isArmed: Bool { lock.withLock { remaining != nil } }

    /// One write step: throws ``StorageError/Code/io`` when it is the armed one.
    package func step(_ location: StorageLocation?) throws(StorageError) {
        let action = lock.withLock {
            defer { beforeNextStep = nil }
            return beforeNextStep
        }
        action?(location)
        let strikes: Bool = lock.withLock {
            guard let count = remaining else { return false }
            if count == 0 {
                remaining = nil
                return true
            }
            remaining = count - 1
            return false
        }
        if strikes {
            throw StorageError(.io, location: location, message: "injected failure (a fault the test armed)")
        }
    }
}
