import Foundation
import ReadingPreferences
import ReadingPreferencesSQL
import ReadingPreferencesStore
import Testing

@testable import ReadingPreferencesServer

/// A database that counts transactions and document reads, and refuses a statement whose values
/// hold a marked text (as a database refuses a statement: the transaction is then unfit to
/// commit).
final class CountingDatabase: SQLDatabase, @unchecked Sendable {
    /// What a database and its transactions counted.
    final class Counts: @unchecked Sendable {
        fileprivate let lock = NSLock()
        fileprivate var transactions = 0
        fileprivate var documentReads = 0
    }

    let base: any SQLDatabase
    let refused: String?
    let counts: Counts
    /// Whether this is a transaction (whose own `transaction` is the same one, not counted).
    let inTransaction: Bool

    init(
        _ base: any SQLDatabase, refusing refused: String? = nil, counts: Counts = Counts(),
        inTransaction: Bool = false
    ) {
        self.base = base
        self.refused = refused
        self.counts = counts
        self.inTransaction = inTransaction
    }

    var transactions: Int { counts.lock.withLock { counts.transactions } }
    var documentReads: Int { counts.lock.withLock { counts.documentReads } }

    func query(_ sql: String, _ bindings: [String]) async throws -> [[String: String]] {
        try check(sql, bindings)
        return try await base.query(sql, bindings)
    }

    func execute(_ sql: String, _ bindings: [String]) async throws -> Int {
        try check(sql, bindings)
        return try await base.execute(sql, bindings)
    }

    func transaction<T: Sendable>(
        lockingUser userID: String, _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        if inTransaction { return try await body(self) }
        counts.lock.withLock { counts.transactions += 1 }
        return try await base.transaction(lockingUser: userID) { [refused, counts] transaction in
            try await body(
                CountingDatabase(transaction, refusing: refused, counts: counts, inTransaction: true))
        }
    }

    struct Refused: Error {}

    private func check(_ sql: String, _ bindings: [String]) throws {
        if sql.hasPrefix("SELECT json, version FROM reading_preferences") {
            counts.lock.withLock { counts.documentReads += 1 }
        }
        if let refused, bindings.contains(where: { $0.contains(refused) }) { throw Refused() }
    }
}

/// What an asynchronous call gave.
func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}

/// Opens the gate of the first write once the others wait behind it.
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    private var opened = false

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = lock.withLock {
                if opened { return true }
                self.continuation = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    func open() {
        let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            opened = true
            defer { continuation = nil }
            return continuation
        }
        waiter?.resume()
    }
}

/// Counts up, and lets a test wait until it reaches a number.
final class WaitCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    func reach(_ count: Int) {
        let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            value = max(value, count)
            let ready = waiters.filter { $0.count <= value }.map(\.continuation)
            waiters.removeAll { $0.count <= value }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    func wait(for count: Int) async {
        await withCheckedContinuation { continuation in
            let now = lock.withLock {
                if value >= count { return true }
                waiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}

@Suite("A user's writes, in groups that share a transaction")
struct UserWritesTests {
    /// The groups of a server's database, counting, and a first write that holds its group open
    /// until `count` more writes wait behind it.
    struct Setup {
        let server: ReadingServer
        let userID: String
        let database: CountingDatabase
        /// The controllers' data on the counting database.
        let data: UserData
        let groups: UserWrites
        /// How many writes have waited behind the first, at most.
        let waits = WaitCounter()
        /// Opened when the first write's group runs.
        let started = Gate()
        /// Opened when `count` writes wait behind it.
        let gate = Gate()

        init(_ kind: TestDatabase, waiting count: Int, refusing refused: String? = nil) async throws {
            server = try await kind.open()
            userID = try await server.addUser(named: "reader").userID
            database = CountingDatabase(server.database, refusing: refused)
            data = UserData(database: database, replica: server.data.replica)
            groups = data.writes
            let (gate, waits) = (gate, waits)
            groups.onWait = { _, waiting in
                waits.reach(waiting)
                if waiting == count { gate.open() }
            }
        }

        /// The first write: a key set once the others wait. Start the others once `started`
        /// opens, so that they wait for the next group.
        func holdOpen() async throws -> DocumentWrite {
            try await groups.run(userID) { [started, gate] transaction in
                started.open()
                await gate.wait()
                return try await UserData.store(EPUB.self, on: transaction.storage).mergeDocument(
                    ["first": .bool(true)], in: .shared)
            }
        }

        func patch(_ patch: JSONObject, ifMatch precondition: DocumentPrecondition? = nil) async throws
            -> DocumentWrite
        {
            try await groups.run(userID) { transaction in
                try await UserData.store(EPUB.self, on: transaction.storage).mergeDocument(
                    patch, in: .shared, ifMatch: precondition)
            }
        }

        func stored() async throws -> StoredDocument? {
            try await PreferencesStore<EPUB>(
                storage: SQLPreferencesStorage(database: server.database, userID: userID)
            )
            .storedDocument(in: .shared)
        }

        /// The keys of the changes feed, in order.
        func changedKeys() async throws -> [String] {
            try await server.data.replica.changes(of: userID, since: nil, limit: 1000).entries.compactMap {
                $0.objectValue?["key"]?.stringValue
            }
        }
    }

    @Test(
        "writes that wait while a group runs make one group: each sees the one before it, reads the row once, and is stamped",
        arguments: TestDatabase.available)
    func oneGroup(database: TestDatabase) async throws {
        let setup = try await Setup(database, waiting: 5)
        async let first = setup.holdOpen()
        await setup.started.wait()
        // Each waits behind the first (the gate opens when the fifth does).
        let results = try await withThrowingTaskGroup(of: (Int, DocumentWrite).self) { group in
            for index in 1...5 {
                group.addTask { (index, try await setup.patch(["key-\(index)": .number(JSONNumber(index))])) }
            }
            return try await group.reduce(into: [Int: DocumentWrite]()) { $0[$1.0] = $1.1 }
        }
        _ = try await first
        // One transaction for the first, one for the five.
        #expect(setup.database.transactions == 2)
        // The first read shared; its group's first write read it, the other four found it in memory.
        #expect(setup.database.documentReads == 2)
        let stored = try #require(try await setup.stored())
        for index in 1...5 { #expect(stored.preferences["key-\(index)"] == .number(JSONNumber(index))) }
        #expect(stored.preferences["first"] == .bool(true))
        // Each write saw the ones before it, and the last one's version is the stored one.
        let documents = results.values.compactMap(\.document)
        #expect(documents.count == 5)
        let sizes = Set(documents.map(\.preferences.count))
        #expect(sizes == Set(2...6))
        #expect(documents.first { $0.preferences.count == 6 }?.version == stored.version)
        // Every key was stamped once.
        #expect(Set(try await setup.changedKeys()) == Set(["first"] + (1...5).map { "key-\($0)" }))
        await setup.server.close()
    }

    @Test(
        "a write that fails before it changes a row (a stale If-Match, a rejected value) fails alone; its group commits",
        arguments: TestDatabase.available)
    func cleanFailures(database: TestDatabase) async throws {
        let setup = try await Setup(database, waiting: 4)
        async let first = setup.holdOpen()
        await setup.started.wait()
        async let good = setup.patch(["fontSize": .number(JSONNumber(1.5))])
        async let rejected = outcome { try await setup.patch(["fontSize": .string("huge")]) }
        async let stale = outcome {
            try await setup.patch(["theme": .string("dark")], ifMatch: .version(StorageVersion("gone")))
        }
        async let last = setup.patch(["theme": .string("sepia")])
        _ = try await (first, good, last)
        switch await rejected {
        case .success: Issue.record("a rejected value was written")
        case .failure(let error): #expect(error is PreferenceError, "\(error)")
        }
        switch await stale {
        case .success: Issue.record("a stale precondition was met")
        case .failure(let error): #expect((error as? StorageError)?.code == .preconditionFailed, "\(error)")
        }
        #expect(setup.database.transactions == 2)
        let stored = try #require(try await setup.stored())
        #expect(stored.preferences["fontSize"] == .number(JSONNumber(1.5)))
        #expect(stored.preferences["theme"] == .string("sepia"))
        #expect(Set(try await setup.changedKeys()) == ["first", "fontSize", "theme"])
        await setup.server.close()
    }

    @Test(
        "a statement the database refuses sends its group back: each write runs alone, and only the refused one fails",
        arguments: TestDatabase.available)
    func refusedStatement(database: TestDatabase) async throws {
        let setup = try await Setup(database, waiting: 3, refusing: "refuse me")
        async let first = setup.holdOpen()
        await setup.started.wait()
        async let before = setup.patch(["a": .number(JSONNumber(1))])
        async let refused = outcome { try await setup.patch(["b": .string("refuse me")]) }
        async let after = setup.patch(["c": .number(JSONNumber(3))])
        _ = try await (first, before, after)
        if case .success = await refused { Issue.record("a refused statement's write answered as written") }
        // The first; the group of three, rolled back; each of the three alone.
        #expect(setup.database.transactions == 5)
        let stored = try #require(try await setup.stored())
        #expect(stored.preferences["a"] == .number(JSONNumber(1)))
        #expect(stored.preferences["b"] == nil)
        #expect(stored.preferences["c"] == .number(JSONNumber(3)))
        #expect(Set(try await setup.changedKeys()) == ["first", "a", "c"])
        await setup.server.close()
    }

    @Test(
        "a statement that failed inside a write that went on anyway sends its group back: no commit after a failure",
        arguments: TestDatabase.available)
    func failureSetAside(database: TestDatabase) async throws {
        let setup = try await Setup(database, waiting: 2, refusing: "refuse me")
        async let first = setup.holdOpen()
        await setup.started.wait()
        // A write that sets a failure aside and answers as if nothing happened.
        async let setAside: Bool = setup.groups.run(setup.userID) { transaction in
            let store = UserData.store(EPUB.self, on: transaction.storage)
            return (try? await store.mergeDocument(["b": "refuse me"], in: .shared)) == nil
        }
        async let good = setup.patch(["c": .number(JSONNumber(3))])
        _ = try await (first, good)
        #expect(try await setAside)
        // The first; the group of two, rolled back; each of the two alone.
        #expect(setup.database.transactions == 4)
        let stored = try #require(try await setup.stored())
        #expect(stored.preferences["b"] == nil)
        #expect(stored.preferences["c"] == .number(JSONNumber(3)))
        #expect(Set(try await setup.changedKeys()) == ["first", "c"])
        await setup.server.close()
    }

    @Test(
        "a write that throws after it changed a row leaves nothing of it: its group runs again, each write alone",
        arguments: TestDatabase.available)
    func failureAfterWriting(database: TestDatabase) async throws {
        struct Late: Error {}
        let setup = try await Setup(database, waiting: 2)
        async let first = setup.holdOpen()
        await setup.started.wait()
        async let failing = outcome {
            try await setup.groups.run(setup.userID) { transaction in
                try await UserData.store(EPUB.self, on: transaction.storage).mergeDocument(
                    ["late": .bool(true)], in: .shared)
                throw Late()
            }
        }
        async let good = setup.patch(["good": .bool(true)])
        _ = try await (first, good)
        switch await failing {
        case .success: Issue.record("a failed write answered")
        case .failure(let error): #expect(error is Late, "\(error)")
        }
        #expect(setup.database.transactions == 4)
        let stored = try #require(try await setup.stored())
        #expect(stored.preferences["late"] == nil)
        #expect(stored.preferences["good"] == .bool(true))
        #expect(Set(try await setup.changedKeys()) == ["first", "good"])
        await setup.server.close()
    }

    @Test(
        "edits and a profile's change take the same write path as documents: waiting together, they make one group",
        arguments: TestDatabase.available)
    func oneWritePath(database: TestDatabase) async throws {
        let setup = try await Setup(database, waiting: 3)
        async let first = setup.holdOpen()
        await setup.started.wait()
        async let edited = PublicationsController(data: setup.data).apply(
            EditsRequest(edits: [.set(key: "fontSize", value: .number(JSONNumber(1.5)))]), EPUB.self,
            of: setup.userID,
            publication: "book-1", context: PublicationContext(), ifMatch: nil)
        async let created = ProfilesController(data: setup.data).change(
            .create(name: "Night"), EPUB.self, of: setup.userID)
        async let patched = setup.patch(["c": .number(JSONNumber(3))])
        let (_, answer, profile, _) = try await (first, edited, created, patched)
        // One transaction for the first, one for the three.
        #expect(setup.database.transactions == 2)
        #expect(answer.status == .ok)
        #expect(profile.status == .created)
        let stored = try #require(try await setup.stored())
        #expect(stored.preferences["fontSize"] == .number(JSONNumber(1.5)))
        #expect(stored.preferences["c"] == .number(JSONNumber(3)))
        let store = PreferencesStore<EPUB>(
            storage: SQLPreferencesStorage(database: setup.server.database, userID: setup.userID))
        #expect(try await store.profiles().map(\.name) == ["Night"])
        #expect(Set(try await setup.changedKeys()).isSuperset(of: ["first", "fontSize", "c"]))
        await setup.server.close()
    }

    @Test(
        "the account data's deletion makes a group of its own: no stamp of a write before it outlives it",
        arguments: TestDatabase.available)
    func deletionAlone(database: TestDatabase) async throws {
        let setup = try await Setup(database, waiting: 3)
        async let first = setup.holdOpen()
        await setup.started.wait()
        // Queued in this order behind the first: a write, the deletion, a write.
        async let before = setup.patch(["a": .number(JSONNumber(1))])
        await setup.waits.wait(for: 1)
        async let deleted: Void = AccountController(data: setup.data).deleteData(of: setup.userID)
        await setup.waits.wait(for: 2)
        async let after = setup.patch(["b": .number(JSONNumber(2))])
        _ = try await (first, before, deleted, after)
        // The first; the write before; the deletion; the write after.
        #expect(setup.database.transactions == 4)
        let stored = try #require(try await setup.stored())
        #expect(stored.preferences.jsonObject.keys.sorted() == ["b"])
        let keys = try await setup.changedKeys()
        #expect(keys == ["b"], "\(keys)")
        await setup.server.close()
    }
}
