import Foundation
import ReadingPreferences
import ReadingPreferencesStore

extension SQLSyncLog {
    // MARK: - The change journal of a user's storage

    /// Records the changes a batch of the user's storage made (``SQLPreferencesStorage/journal``),
    /// in the batch's transaction: a change without a stamp (a write through the server's own
    /// routes) is stamped by the user's server replica, one tick of its clock each, and, in a
    /// synced document, stored as the server replica's entry at the next number of the change
    /// sequence; a change with a stamp (a device's, applied by a push) leaves the clock past it.
    /// Every change is kept as history (`sync_history`), within `JournalBounds.standard`,
    /// numbered by a sequence of its own: the changes feed's cursor moves only with the feed.
    ///
    /// - Parameters:
    ///   - changes: Each written layer document with its changes.
    ///   - userID: The user.
    ///   - transaction: The batch's transaction, which holds the user's rows.
    /// - Throws: What the database throws.
    public func record(
        _ changes: [(location: StorageLocation, entries: [JournalEntry])], of userID: String,
        in transaction: any SQLDatabase
    ) async throws {
        var row = try await Self.userRow(transaction, userID)
        var clock = row.clock(of: Self.replicaID(for: userID))
        let initial = row
        let wall = now()
        var stamped: [(scope: SyncScope, key: String, entry: SyncEntry)] = []
        let firstSeq = try await Self.nextHistorySeq(of: userID, in: transaction)
        var historySeq = firstSeq
        var history: [[String]] = []
        var touched: [String] = []
        for (location, entries) in changes {
            let scope = SQLPreferencesStorage.scope(of: location)
            touched.append(scope)
            for var entry in entries {
                if let stamp = entry.stamp {
                    clock.observe(stamp)
                } else {
                    // An exhausted clock stamps no more this millisecond: the key syncs when a
                    // later write or push moves it on (the clock never wraps).
                    guard let stamp = clock.tick(now: max(wall, entry.time)) else { continue }
                    entry.stamp = stamp
                    if case .layer(let configurable, let layer) = location,
                        let synced = SyncScope(configurable: configurable, layer: layer)
                    {
                        stamped.append((synced, entry.key, SyncEntry(value: entry.newValue, stamp: stamp)))
                    }
                }
                history.append([userID, String(historySeq), scope, entry.key, entry.jsonValue.jsonString()])
                historySeq += 1
            }
        }
        row.keep(clock)
        try await Self.store(stamped, &row, transaction, userID)
        try await Self.insert(history, of: "(?, CAST(? AS BIGINT), ?, ?, ?)", in: transaction) { marks in
            "INSERT INTO sync_history (user_id, seq, scope, entry_key, entry) VALUES \(marks)"
        }
        if row.time != initial.time || row.counter != initial.counter || row.nextSeq != initial.nextSeq {
            try await Self.save(row, transaction, userID)
        }
        // Bounded now and then, not at every write: a document's history grows by at most 32
        // small rows between two prunings (a write of large values prunes at once).
        let bytes = history.reduce(0) { $0 + ($1.last?.utf8.count ?? 0) }
        if firstSeq / 32 != historySeq / 32 || bytes > 16 << 10 {
            for scope in Set(touched) { try await prune(scope, of: userID, in: transaction, now: wall) }
        }
    }

    /// The number the user's next history row takes: one past the highest kept (the user's rows
    /// are held by the transaction, so no other write takes it meanwhile).
    static func nextHistorySeq(of userID: String, in transaction: any SQLDatabase) async throws -> Int64 {
        let rows = try await transaction.query(
            "SELECT CAST(COALESCE(MAX(seq), 0) AS TEXT) AS last FROM sync_history WHERE user_id = ?", [userID]
        )
        return (Int64(rows.first?["last"] ?? "0") ?? 0) + 1
    }

    /// Keeps what `JournalBounds.standard` keeps of a document's history, and deletes the rest.
    func prune(_ scope: String, of userID: String, in transaction: any SQLDatabase, now: UInt64) async throws
    {
        let rows = try await transaction.query(
            "SELECT CAST(seq AS TEXT) AS seq, entry FROM sync_history WHERE user_id = ? AND scope = ? ORDER BY sync_history.seq",
            [userID, scope])
        var parsed: [(entry: JournalEntry, bytes: Int)] = []
        var sequences: [String] = []
        for row in rows {
            guard let text = row["entry"], let seq = row["seq"],
                let entry = try? JournalEntry(json: JSONValue(json: text))
            else { continue }
            parsed.append((entry, text.utf8.count + 1))
            sequences.append(seq)
        }
        let kept = Set(JournalBounds.standard.kept(parsed, now: now))
        let dropped = sequences.indices.filter { !kept.contains($0) }.map { sequences[$0] }
        for start in stride(from: 0, to: dropped.count, by: 500) {
            let chunk = Array(dropped[start..<min(start + 500, dropped.count)])
            _ = try await transaction.execute(
                "DELETE FROM sync_history WHERE user_id = ? AND seq IN (\(SQLMarks.list(chunk.count, of: "CAST(? AS BIGINT)")))",
                [userID] + chunk)
        }
    }

    /// Forgets every change recorded for the user's documents (their storage's `removeAll()`).
    ///
    /// - Parameters:
    ///   - userID: The user.
    ///   - transaction: The transaction of the removal, which holds the user's rows.
    /// - Throws: What the database throws.
    public func forgetHistory(of userID: String, in transaction: any SQLDatabase) async throws {
        _ = try await transaction.execute("DELETE FROM sync_history WHERE user_id = ?", [userID])
    }

    /// A document's history after a cursor (`h<sequence>`), oldest first.
    ///
    /// - Parameters:
    ///   - scope: The document's scope (``SQLPreferencesStorage/scope(of:)``).
    ///   - cursor: Where an earlier read stopped, or `nil` for the whole history.
    ///   - userID: The user.
    ///   - database: The database (or a transaction of it).
    /// - Returns: The entries after the cursor, and the cursor after them.
    /// - Throws: What the database throws.
    public func journal(
        of scope: String, after cursor: JournalCursor?, of userID: String, in database: any SQLDatabase
    ) async throws -> JournalRead {
        var after: Int64 = 0
        if let text = cursor?.rawValue, text.hasPrefix("h"), let value = Int64(text.dropFirst()) {
            after = value
        }
        let rows = try await database.query(
            "SELECT CAST(seq AS TEXT) AS seq, entry FROM sync_history WHERE user_id = ? AND scope = ? "
                + "AND seq > CAST(? AS BIGINT) ORDER BY sync_history.seq",
            [userID, scope, String(after)])
        let server = Self.replicaID(for: userID)
        var entries: [JournalEntry] = []
        var last = after
        for row in rows {
            last = Int64(row["seq"] ?? "") ?? last
            guard let text = row["entry"], var entry = try? JournalEntry(json: JSONValue(json: text)),
                let stamp = entry.stamp
            else { continue }
            // The server's own changes are named when read, so rows an earlier version wrote
            // (before the server replica had a name) read the same as new ones.
            if stamp.replica == server, entry.deviceName == nil { entry.deviceName = Self.replicaName }
            entries.append(entry)
        }
        return JournalRead(entries: entries, cursor: JournalCursor("h\(last)"))
    }

    /// Runs `body` with the user's server replica clock, in a transaction that holds the user's
    /// rows, and keeps the clock it leaves (its id stays the server's).
    ///
    /// - Parameters:
    ///   - userID: The user.
    ///   - transaction: A transaction that holds the user's rows.
    ///   - body: Reads and raises the clock (`nil` never happens: the user's row is made first).
    /// - Returns: What `body` returns.
    /// - Throws: What `body` or the database throws.
    public func updateClock<Result: Sendable>(
        of userID: String, in transaction: any SQLDatabase,
        _ body: @Sendable (inout HybridClock?) throws -> Result
    ) async throws -> Result {
        var row = try await Self.userRow(transaction, userID)
        var clock: HybridClock? = row.clock(of: Self.replicaID(for: userID))
        let result = try body(&clock)
        if let clock {
            var kept = row.clock(of: Self.replicaID(for: userID))
            kept.observe(clock.last)
            row.keep(kept)
            try await Self.save(row, transaction, userID)
        }
        return result
    }
}
