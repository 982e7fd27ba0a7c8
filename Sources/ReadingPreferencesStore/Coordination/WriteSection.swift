/// The store's write section (Specs/Store.md §6.4: writes from several tasks are serialized): one
/// state-changing operation at a time, in the order they asked, across their suspensions. An
/// actor alone does not give that: another call runs whenever one awaits (actor reentrancy).
///
/// Work that must run inside takes a ``WriteTurn``, which only ``run(isolation:_:)`` makes, so
/// the compiler checks that nothing writes outside the section.
final class WriteSection {
    private var isBusy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init() {}

    /// Runs `body` once every operation that asked before it has finished.
    func run<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (WriteTurn) async throws -> Result
    ) async throws -> Result {
        if isBusy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            isBusy = true
        }
        defer {
            if waiting.isEmpty {
                isBusy = false
            } else {
                // The turn passes straight to the next operation: the section stays busy.
                waiting.removeFirst().resume()
            }
        }
        return try await body(WriteTurn())
    }
}

/// Proof that the caller holds the store's write section.
struct WriteTurn: Sendable {
    fileprivate init() {}
}
