import Foundation
import ReadingPreferencesSQL
import ReadingPreferencesStore

/// The one way a user's data is written on this instance: every write (a document's `PUT` or
/// `PATCH`, edits, a profile's change, the account data's deletion) runs here, in groups: one
/// transaction, which holds the user's rows, runs every write that was waiting when it began,
/// one after another. The transaction is what serializes a user's writes; nothing else queues
/// them.
///
/// Two writes take the same lock without this path, since they are the library's own
/// transactions: a sync push (`SQLSyncLog.push`, one transaction that holds the user's rows
/// while it applies the entries it accepts), and the setting aside of a damaged document a read
/// comes across (the storage's `quarantine`, one statement at the version read). Both are
/// serialized with this path by the user's lock, on every instance.
///
/// Each write is whole on its own: it reads the document, checks its precondition, validates
/// and writes at the version it read, exactly as it would alone, and it sees the writes before
/// it in its group as it would see them committed. What the writes of a group share is the
/// transaction's beginning, the user's lock and the commit; the documents the group already
/// wrote, which the next write loads from memory (``TransactionStorage``) rather than reading
/// its row again. Each write records the keys it changes in the user's sync log as it writes them
/// (the storage's change journal, ``SQLSyncLog``: one tick of the server replica's clock per key).
/// Nobody outside sees a group half-done: its writes commit together, and only then does any of
/// them answer.
///
/// A write that fails before it changed a row (a stale precondition, a rejected value) fails
/// alone, and the group goes on. A write that fails after it changed a row, a statement the
/// database refused (even one a write set aside and went on) leaves a transaction that must not
/// commit: the group is rolled back and each of its writes runs again
/// in a transaction of its own. When the transaction itself fails
/// (its beginning, the lock, the commit), every write of the group fails with that error, as a
/// write alone would.
///
/// One group of a user runs at a time on an instance; the writes that come meanwhile wait in
/// memory and make the next group. A group takes at most ``limit`` writes. A write that must
/// not share its transaction (the account data's deletion, which resets the sync state the
/// group's other writes record their changes in) makes a group of its own.
final class UserWrites: @unchecked Sendable {
    /// A write: its work in the group's transaction, and where its result goes.
    private struct Pending: Sendable {
        let work: @Sendable (UserTransaction) async throws -> any Sendable
        let alone: Bool
        let continuation: CheckedContinuation<any Sendable, any Error>
    }

    let database: any SQLDatabase
    /// The users' sync log: each user's storage's change journal.
    let journal: SQLSyncLog
    /// The most writes in one group.
    let limit: Int
    private let lock = NSLock()
    /// The writes waiting, by user; a user has an entry while a group of theirs runs.
    private var waiting: [String: [Pending]] = [:]
    /// Told, for tests, how many writes of a user wait each time one more waits behind a group.
    var onWait: (@Sendable (_ userID: String, _ waiting: Int) -> Void)? {
        get { lock.withLock { waitHook } }
        set { lock.withLock { waitHook = newValue } }
    }
    private var waitHook: (@Sendable (_ userID: String, _ waiting: Int) -> Void)?

    init(database: any SQLDatabase, limit: Int = 32, journal: SQLSyncLog) {
        self.database = database
        self.limit = max(limit, 1)
        self.journal = journal
    }

    /// Runs a write of the user's data in the user's next group, and answers its result once its
    /// group has committed.
    ///
    /// - Parameters:
    ///   - userID: The user.
    ///   - alone: Whether the write makes a group of its own.
    ///   - work: The write, inside the group's transaction.
    /// - Returns: What `work` returned.
    /// - Throws: What `work` threw, or the transaction's error.
    func run<T: Sendable>(
        _ userID: String, alone: Bool = false,
        _ work: @escaping @Sendable (UserTransaction) async throws -> T
    ) async throws -> T {
        let result = try await withCheckedThrowingContinuation { continuation in
            let pending = Pending(work: { try await work($0) }, alone: alone, continuation: continuation)
            let (first, behind, hook) = lock.withLock {
                () -> (Bool, Int, (@Sendable (String, Int) -> Void)?) in
                if waiting[userID] != nil {
                    waiting[userID]?.append(pending)
                    return (false, waiting[userID]?.count ?? 0, waitHook)
                }
                waiting[userID] = [pending]
                return (true, 0, nil)
            }
            // The groups run in a task of their own: a request that goes away takes none of the
            // others' writes with it.
            if first {
                Task { await self.drain(userID) }
            } else {
                hook?(userID, behind)
            }
        }
        guard let value = result as? T else {
            throw ServerError.unexpectedRow("a grouped write answered \(type(of: result)), not \(T.self)")
        }
        return value
    }

    /// Runs the user's groups until no write waits.
    private func drain(_ userID: String) async {
        while let group = next(of: userID) {
            await run(group, of: userID)
        }
    }

    /// The next group: up to ``limit`` of the writes waiting, in order, up to the first that
    /// goes alone (or that one only), or `nil` (and the user's entry gone) when none waits.
    private func next(of userID: String) -> [Pending]? {
        lock.withLock {
            guard let queue = waiting[userID], let first = queue.first else {
                waiting[userID] = nil
                return nil
            }
            let group =
                first.alone ? [first] : Array(queue.prefix(limit).prefix { !$0.alone })
            waiting[userID] = Array(queue.dropFirst(group.count))
            return group
        }
    }

    /// Why a group's transaction must not commit.
    private struct Spoiled: Error {}

    private func run(_ group: [Pending], of userID: String) async {
        var outcomes: [Result<any Sendable, any Error>] = []
        do {
            outcomes = try await database.transaction(lockingUser: userID) { [journal] transaction in
                let watched = WatchedTransaction(transaction)
                let storage = SQLPreferencesStorage(database: watched, userID: userID, journal: journal)
                let shared = TransactionStorage(base: storage)
                var outcomes: [Result<any Sendable, any Error>] = []
                for pending in group {
                    watched.reset()
                    do {
                        outcomes.append(
                            .success(
                                try await pending.work(UserTransaction(storage: shared, database: watched))))
                    } catch {
                        guard !watched.changedOrFailed else { throw Spoiled() }
                        outcomes.append(.failure(error))
                    }
                }
                // A statement that failed inside a write that went on anyway (an error it set
                // aside) may have left PostgreSQL's transaction aborted, whose `COMMIT` would
                // only roll back: never answer success from it.
                if watched.failedAny { throw Spoiled() }
                return outcomes
            }
        } catch is Spoiled {
            // Each write again, alone, in its own transaction.
            for pending in group {
                do {
                    let value = try await database.transaction(lockingUser: userID) { [journal] transaction in
                        let storage = SQLPreferencesStorage(
                            database: transaction, userID: userID, journal: journal)
                        return try await pending.work(
                            UserTransaction(storage: TransactionStorage(base: storage), database: transaction)
                        )
                    }
                    pending.continuation.resume(returning: value)
                } catch {
                    pending.continuation.resume(throwing: error)
                }
            }
            return
        } catch {
            for pending in group { pending.continuation.resume(throwing: error) }
            return
        }
        for (pending, outcome) in zip(group, outcomes) { pending.continuation.resume(with: outcome) }
    }
}

/// What a write works with: the user's storage and the database, both inside the transaction of
/// its group.
struct UserTransaction: Sendable {
    /// The user's documents, as the group's earlier writes left them.
    let storage: any PreferencesStorage
    /// The transaction, for a repository's statements that belong to the write.
    let database: any SQLDatabase
}

/// A transaction that notes whether the statements since ``reset()`` changed a row or failed:
/// after either, a write that throws has left the transaction unfit to commit. It also notes
/// whether any statement failed at all.
private final class WatchedTransaction: SQLDatabase, @unchecked Sendable {
    private let transaction: any SQLDatabase
    private let lock = NSLock()
    private var touched = false
    private var failed = false

    init(_ transaction: any SQLDatabase) {
        self.transaction = transaction
    }

    var changedOrFailed: Bool { lock.withLock { touched } }

    /// Whether any statement failed since the transaction began.
    var failedAny: Bool { lock.withLock { failed } }

    func reset() { lock.withLock { touched = false } }

    private func note() { lock.withLock { touched = true } }

    private func noteFailure() {
        lock.withLock {
            touched = true
            failed = true
        }
    }

    func query(_ sql: String, _ bindings: [String]) async throws -> [[String: String]] {
        // A query that is not a plain read (an `UPDATE ... RETURNING`) counts as a change.
        if !SQLStatementKind.isPlainRead(sql) { note() }
        do {
            return try await transaction.query(sql, bindings)
        } catch {
            noteFailure()
            throw error
        }
    }

    func execute(_ sql: String, _ bindings: [String]) async throws -> Int {
        do {
            let changed = try await transaction.execute(sql, bindings)
            if changed > 0 { note() }
            return changed
        } catch {
            noteFailure()
            throw error
        }
    }

    func transaction<T: Sendable>(
        lockingUser userID: String, _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await body(self)
    }
}
