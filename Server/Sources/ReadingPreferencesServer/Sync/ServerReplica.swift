import Crypto
import Foundation
import ReadingPreferences
import ReadingPreferencesSQL
import ReadingPreferencesStore

/// The server as one more sync replica of each user (SPEC 10, 14), with the same merge and the
/// rules of SPEC 10.1, kept in the database:
///
/// - A device **pushes** its entries; each is merged with the entry the server holds for its key
///   (``SyncEntry/wins(over:)``) and, when it wins, stored with the next number of the user's
///   change sequence and applied to the user's document, all in one transaction. The server never
///   restamps what a device pushed. An entry stamped more than 24 hours ahead of the server's
///   clock is ignored and reported, never a reason to refuse the rest.
/// - A write through the server's own routes is **stamped** by the server's replica (its own id,
///   its own clock, which follows every stamp it accepts), in the transaction of the write.
/// - The **changes** since a cursor are the entries stored after it, in order, paged; the
///   **state** is every entry in the replica-file format.
struct ServerReplica: Sendable {
    let database: any ServerDatabase
    /// How far ahead of the server's clock a stamp may be (SPEC 10.1: 24 hours).
    static let futureBound: UInt64 = 24 * 3600 * 1000
    /// The wall clock, in milliseconds (tests move it).
    var now: @Sendable () -> UInt64 = { UInt64(max(0, Date().timeIntervalSince1970 * 1000)) }

    /// The server's replica id for a user: `server-` and 12 hex digits of the SHA-256 of the
    /// user's id, the same on every instance.
    static func replicaID(for userID: String) -> ReplicaID {
        let digest = hex(SHA256.hash(data: Data(userID.utf8)).prefix(6))
        return ReplicaID("server-" + digest) ?? ReplicaID.random(prefix: "server")
    }

    // MARK: - The user's sync row

    /// The user's clock, sequence and compaction floor, read in a transaction.
    struct UserRow {
        var time: UInt64
        var counter: UInt64
        var nextSeq: Int64
        var floor: Int64
    }

    /// Reads the user's row, creating it on first use.
    static func userRow(_ transaction: any SQLDatabase, _ userID: String) async throws -> UserRow {
        let rows = try await transaction.query(
            "SELECT CAST(clock_time AS TEXT) AS clock_time, CAST(clock_counter AS TEXT) AS clock_counter, "
                + "CAST(next_seq AS TEXT) AS next_seq, CAST(floor_seq AS TEXT) AS floor_seq FROM sync_users WHERE user_id = ?",
            [userID])
        if let row = rows.first {
            return UserRow(
                time: UInt64(row["clock_time"] ?? "0") ?? 0,
                counter: UInt64(row["clock_counter"] ?? "0") ?? 0,
                nextSeq: Int64(row["next_seq"] ?? "1") ?? 1, floor: Int64(row["floor_seq"] ?? "0") ?? 0)
        }
        _ = try await transaction.execute(
            "INSERT INTO sync_users (user_id, replica_id, clock_time, clock_counter, next_seq, floor_seq) "
                + "VALUES (?, ?, 0, 0, 1, 0)",
            [userID, replicaID(for: userID).rawValue])
        return UserRow(time: 0, counter: 0, nextSeq: 1, floor: 0)
    }

    static func save(_ row: UserRow, _ transaction: any SQLDatabase, _ userID: String) async throws {
        _ = try await transaction.execute(
            "UPDATE sync_users SET clock_time = CAST(? AS BIGINT), clock_counter = CAST(? AS BIGINT), "
                + "next_seq = CAST(? AS BIGINT) WHERE user_id = ?",
            [String(row.time), String(row.counter), String(row.nextSeq), userID])
    }

    /// Stores entries at the next sequence numbers, in order, a hundred rows per statement. A key
    /// given twice keeps its last entry (its earlier number goes unused).
    static func store(
        _ entries: [(scope: SyncScope, key: String, entry: SyncEntry)], _ row: inout UserRow,
        _ transaction: any SQLDatabase, _ userID: String
    ) async throws {
        var rows: [[String]] = []
        var position: [[UInt8]: Int] = [:]
        for item in entries {
            let values = [
                userID, item.scope.description, item.key, item.entry.jsonValue.jsonString(),
                String(row.nextSeq),
            ]
            row.nextSeq += 1
            let key = Array(item.scope.description.utf8) + [0] + Array(item.key.utf8)
            if let index = position[key] {
                rows[index] = values
            } else {
                position[key] = rows.count
                rows.append(values)
            }
        }
        for start in stride(from: 0, to: rows.count, by: 100) {
            let chunk = rows[start..<min(start + 100, rows.count)]
            let marks = SQLMarks.list(chunk.count, of: "(?, ?, ?, ?, CAST(? AS BIGINT))")
            _ = try await transaction.execute(
                "INSERT INTO sync_entries (user_id, scope, entry_key, entry, seq) VALUES \(marks) "
                    + "ON CONFLICT (user_id, scope, entry_key) DO UPDATE SET entry = excluded.entry, seq = excluded.seq",
                chunk.flatMap { $0 })
        }
    }

    // MARK: - Stamping the server's own writes

    /// Stamps what a batch of the server's storage changed in synced documents, in the batch's
    /// transaction: each key whose value changed (as written: `1.5` → `1.50` is a change, the
    /// library's ``KeyChanges``) or that was removed gets an entry stamped by the server's
    /// replica.
    func stamp(_ writes: [SQLDocumentWrite], of userID: String, in transaction: any SQLDatabase) async throws
    {
        var changes: [(SyncScope, String, JSONValue?)] = []
        for write in writes {
            guard case .layer(let configurable, let layer) = write.location, layer != .overrides,
                let scope = SyncScope(configurable: configurable, layer: layer)
            else { continue }
            let before = write.before.flatMap { try? Preferences(json: $0) } ?? Preferences()
            let changed = KeyChanges(from: before, to: write.after ?? Preferences())
            for key in changed.keys { changes.append((scope, key, changed[key] ?? nil)) }
        }
        guard !changes.isEmpty else { return }
        let server = Self.replicaID(for: userID)
        var row = try await advance(userID, by: changes.count, in: transaction)
        // The clock now stands at the last of the stamps (SPEC 10.1's tick, once per change):
        // they are its `count` counters up to where it stands, at its time. A counter past the
        // largest is spent: that change gets no stamp, as the tick gives none.
        let first = row.counter + 1 - UInt64(changes.count)
        var stamped: [(scope: SyncScope, key: String, entry: SyncEntry)] = []
        for (offset, (scope, key, value)) in changes.enumerated() {
            let counter = first + UInt64(offset)
            guard let stamp = SyncStamp(time: row.time, counter: counter, replica: server) else { break }
            stamped.append((scope, key, SyncEntry(value: value, stamp: stamp)))
        }
        row.nextSeq -= Int64(changes.count)
        // The server's own merged stamp is its entries' greatest, which the state notes as it
        // reads them; only other replicas' merged stamps are kept apart.
        try await Self.store(stamped, &row, transaction, userID)
        if row.counter > SyncStamp.maximum {
            row.counter = SyncStamp.maximum
            try await Self.save(row, transaction, userID)
        }
    }

    /// Ticks the user's clock `count` times and takes `count` numbers of the change sequence, in
    /// one statement: the clock and the next number after them (the row is created on first use).
    func advance(_ userID: String, by count: Int, in transaction: any SQLDatabase) async throws -> UserRow {
        let wall = String(now())
        let sql =
            "UPDATE sync_users SET "
            + "clock_counter = CASE WHEN CAST(? AS BIGINT) > clock_time THEN CAST(? AS BIGINT) "
            + "ELSE clock_counter + CAST(? AS BIGINT) END, "
            + "clock_time = CASE WHEN CAST(? AS BIGINT) > clock_time THEN CAST(? AS BIGINT) ELSE clock_time END, "
            + "next_seq = next_seq + CAST(? AS BIGINT) WHERE user_id = ? "
            + "RETURNING CAST(clock_time AS TEXT) AS clock_time, CAST(clock_counter AS TEXT) AS clock_counter, "
            + "CAST(next_seq AS TEXT) AS next_seq, CAST(floor_seq AS TEXT) AS floor_seq"
        let values = [wall, String(count - 1), String(count), wall, wall, String(count), userID]
        var rows = try await transaction.query(sql, values)
        if rows.isEmpty {
            _ = try await Self.userRow(transaction, userID)
            rows = try await transaction.query(sql, values)
        }
        guard let row = rows.first, let time = row["clock_time"].flatMap({ UInt64($0) }),
            let counter = row["clock_counter"].flatMap({ UInt64($0) }),
            let next = row["next_seq"].flatMap({ Int64($0) })
        else { throw ServerError.unexpectedRow("the sync row of \(userID) could not be read") }
        return UserRow(
            time: time, counter: counter, nextSeq: next, floor: Int64(row["floor_seq"] ?? "0") ?? 0)
    }

    // MARK: - Push

    /// What a push did.
    struct PushResult: Sendable {
        var applied = 0
        var ignored: [(scope: String, key: String, reason: String)] = []
        var cursor: String
    }

    /// Why a push is refused whole.
    enum PushRefusal: Error {
        /// Not a push body.
        case malformed(String)
        /// The replica id belongs to another user (or is the server's).
        case foreignReplica(String)
    }

    /// What the server holds that a push is merged with: the entries of the pushed scopes, the
    /// clock, and the merged stamp of each replica.
    struct Held {
        var entries: [String: [[UInt8]: SyncEntry]] = [:]
        var clock: (time: UInt64, counter: UInt64)
        var merged: [ReplicaID: SyncStamp] = [:]
    }

    /// What a push will write, decided from what is held: the one rule both the read-only check
    /// and the transaction follow.
    struct PushPlan {
        /// The winning entries, in the order pushed.
        var winners: [(scope: SyncScope, key: String, entry: SyncEntry)] = []
        /// The clock after the push (it follows every stamp accepted).
        var clock: (time: UInt64, counter: UInt64)
        /// The merged stamps that rise.
        var raised: [ReplicaID: SyncStamp] = [:]
        /// Entries not taken, with why.
        var ignored: [(scope: String, key: String, reason: String)]

        /// Whether the push writes nothing.
        func writesNothing(given held: Held) -> Bool {
            winners.isEmpty && raised.isEmpty && clock.time == held.clock.time
                && clock.counter == held.clock.counter
        }
    }

    /// Merges a push's entries with what is held, without writing: each entry within the future
    /// bound moves the clock when it is ahead of it, and is a winner when no entry held for its
    /// key (or pushed before it) wins over it; the merged stamps rise to the greatest seen.
    static func plan(_ request: PushRequest, over held: Held, bound: UInt64) -> PushPlan {
        var plan = PushPlan(clock: held.clock, ignored: request.skipped)
        var merged: [ReplicaID: SyncStamp] = [:]
        for (scope, entries) in request.entries {
            var current = held.entries[scope.description] ?? [:]
            for (key, entry) in entries {
                guard entry.stamp.time <= bound else {
                    plan.ignored.append(
                        (scope.description, key, "stamped more than 24 hours ahead of the server's clock"))
                    continue
                }
                if entry.stamp.time > plan.clock.time
                    || (entry.stamp.time == plan.clock.time && entry.stamp.counter > plan.clock.counter)
                {
                    plan.clock = (entry.stamp.time, entry.stamp.counter)
                }
                if merged[entry.stamp.replica].map({ $0 < entry.stamp }) ?? true {
                    merged[entry.stamp.replica] = entry.stamp
                }
                if let old = current[Array(key.utf8)], !entry.wins(over: old) { continue }
                current[Array(key.utf8)] = entry
                plan.winners.append((scope, key, entry))
            }
        }
        for (replica, stamp) in request.merged where stamp.time <= bound {
            if merged[replica].map({ $0 < stamp }) ?? true { merged[replica] = stamp }
        }
        for (replica, stamp) in merged where held.merged[replica].map({ $0 < stamp }) ?? true {
            plan.raised[replica] = stamp
        }
        return plan
    }

    /// Merges a device's entries.
    ///
    /// A device pushes every entry at each sync, so most pushes bring nothing new: one read, with
    /// no transaction, finds that out (``unchangedPush(_:of:bound:)``). Otherwise the push runs in
    /// a transaction that holds the user: the replica id is claimed or checked, what is held is
    /// read again, and the plan's winners are stored and applied.
    func push(_ body: Data, of userID: String) async throws -> PushResult {
        let request = try Self.parsePush(body)
        let server = Self.replicaID(for: userID)
        guard request.replica != server else {
            throw PushRefusal.foreignReplica(
                "\(request.replica) is the server's own replica id for this account, not a device's")
        }
        let wall = now()
        let bound = wall > UInt64.max - Self.futureBound ? UInt64.max : wall + Self.futureBound
        if let unchanged = try await unchangedPush(request, of: userID, bound: bound) { return unchanged }
        return try await database.transaction(lockingUser: userID) { transaction in
            // Replica ids are per user: the id names one of this user's devices, never another's.
            _ = try await transaction.execute(
                "INSERT INTO sync_replicas (user_id, replica_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                [userID, request.replica.rawValue])
            var row = try await Self.userRow(transaction, userID)
            var held = Held(clock: (row.time, row.counter))
            // Every entry the server holds for the pushed scopes, in chunks (a database takes a
            // few thousand bound values at most), and the merged stamps.
            let scopes = Array(Set(request.entries.map(\.0.description)))
            for start in stride(from: 0, to: scopes.count, by: 500) {
                let chunk = Array(scopes[start..<min(start + 500, scopes.count)])
                let marks = SQLMarks.list(chunk.count)
                let stored = try await transaction.query(
                    "SELECT scope, entry_key, entry FROM sync_entries WHERE user_id = ? AND scope IN (\(marks))",
                    [userID] + chunk)
                for item in stored {
                    guard let scope = item["scope"], let key = item["entry_key"], let text = item["entry"],
                        let entry = try? SyncEntry(json: JSONValue(json: text))
                    else { continue }
                    held.entries[scope, default: [:]][Array(key.utf8)] = entry
                }
            }
            let mergedRows = try await transaction.query(
                "SELECT replica_id, stamp FROM sync_merged WHERE user_id = ?", [userID])
            for item in mergedRows {
                guard let id = item["replica_id"].flatMap(ReplicaID.init), let text = item["stamp"],
                    let stamp = try? SyncStamp(json: JSONValue(json: text))
                else { continue }
                held.merged[id] = stamp
            }
            let plan = Self.plan(request, over: held, bound: bound)
            let initial = row
            row.time = plan.clock.time
            row.counter = plan.clock.counter
            var documentChanges: [SyncScope: [(String, JSONValue?)]] = [:]
            try await Self.store(plan.winners, &row, transaction, userID)
            for winner in plan.winners {
                documentChanges[winner.scope, default: []].append((winner.key, winner.entry.value))
            }
            try await Self.apply(documentChanges, transaction, userID)
            if row.time != initial.time || row.counter != initial.counter || row.nextSeq != initial.nextSeq {
                try await Self.save(row, transaction, userID)
            }
            for (replica, stamp) in plan.raised.sorted(by: { $0.key < $1.key }) {
                _ = try await transaction.execute(
                    "INSERT INTO sync_merged (user_id, replica_id, stamp) VALUES (?, ?, ?) "
                        + "ON CONFLICT (user_id, replica_id) DO UPDATE SET stamp = excluded.stamp",
                    [userID, replica.rawValue, stamp.jsonValue.jsonString()])
            }
            return PushResult(
                applied: plan.winners.count, ignored: plan.ignored, cursor: Self.cursor(row.nextSeq - 1))
        }
    }

    /// The answer to a push that would change nothing, found with one read and no transaction,
    /// or `nil` when the push may change something (then it runs in a transaction).
    ///
    /// The one query reads, as of one moment, the replica id's owner, the user's clock and
    /// sequence, the merged stamps and the entries held for the pushed scopes. When the id is
    /// already the user's and the plan over what is held writes nothing, the transaction would
    /// write nothing either: the answer is the one it would give at that moment.
    func unchangedPush(_ request: PushRequest, of userID: String, bound: UInt64) async throws -> PushResult? {
        let scopes = Array(Set(request.entries.map(\.0.description)))
        guard scopes.count <= 500 else { return nil }
        var sql =
            "SELECT 'owner' AS kind, user_id AS a, '' AS b, '' AS c FROM sync_replicas WHERE user_id = ? AND replica_id = ? "
            + "UNION ALL SELECT 'user', CAST(clock_time AS TEXT), CAST(clock_counter AS TEXT), "
            + "CAST(next_seq AS TEXT) FROM sync_users WHERE user_id = ? "
            + "UNION ALL SELECT 'merged', replica_id, stamp, '' FROM sync_merged WHERE user_id = ?"
        var values = [userID, request.replica.rawValue, userID, userID]
        if !scopes.isEmpty {
            let marks = SQLMarks.list(scopes.count)
            sql +=
                " UNION ALL SELECT 'entry', scope, entry_key, entry FROM sync_entries "
                + "WHERE user_id = ? AND scope IN (\(marks))"
            values += [userID] + scopes
        }
        var owner: String?
        var held: Held?
        var nextSeq: Int64 = 1
        var entries: [String: [[UInt8]: SyncEntry]] = [:]
        var merged: [ReplicaID: SyncStamp] = [:]
        for row in try await database.query(sql, values) {
            switch row["kind"] {
            case "owner": owner = row["a"]
            case "user":
                guard let time = row["a"].flatMap({ UInt64($0) }),
                    let counter = row["b"].flatMap({ UInt64($0) }),
                    let next = row["c"].flatMap({ Int64($0) })
                else { return nil }
                held = Held(clock: (time, counter))
                nextSeq = next
            case "merged":
                guard let id = row["a"].flatMap(ReplicaID.init), let text = row["b"],
                    let stamp = try? SyncStamp(json: JSONValue(json: text))
                else { continue }
                merged[id] = stamp
            case "entry":
                guard let scope = row["a"], let key = row["b"], let text = row["c"],
                    let entry = try? SyncEntry(json: JSONValue(json: text))
                else { continue }
                entries[scope, default: [:]][Array(key.utf8)] = entry
            default: return nil
            }
        }
        guard owner == userID, var held else { return nil }
        held.entries = entries
        held.merged = merged
        let plan = Self.plan(request, over: held, bound: bound)
        guard plan.writesNothing(given: held) else { return nil }
        return PushResult(applied: 0, ignored: plan.ignored, cursor: Self.cursor(nextSeq - 1))
    }

    /// Applies winning entries to the user's documents, as their rows: a value sets the key (in
    /// place, or at the end), a removal removes it; a document left empty is removed. The
    /// documents are read, and written, a few hundred per statement. These writes are not
    /// stamped again: they are what a device stamped.
    static func apply(
        _ changes: [SyncScope: [(String, JSONValue?)]], _ transaction: any SQLDatabase, _ userID: String
    ) async throws {
        var byScope: [String: KeyChanges] = [:]
        for (scope, list) in changes {
            let key = SQLPreferencesStorage.scope(of: .layer(configurable: scope.configurable, scope.layer))
            var keyChanges = byScope[key] ?? KeyChanges()
            for (name, value) in list { keyChanges[name] = .some(value) }
            byScope[key] = keyChanges
        }
        let scopes = byScope.keys.sorted()
        var stored: [String: String] = [:]
        for start in stride(from: 0, to: scopes.count, by: 500) {
            let chunk = Array(scopes[start..<min(start + 500, scopes.count)])
            let marks = SQLMarks.list(chunk.count)
            for item in try await transaction.query(
                "SELECT scope, json FROM reading_preferences WHERE user_id = ? AND scope IN (\(marks))",
                [userID] + chunk)
            {
                if let scope = item["scope"], let json = item["json"] { stored[scope] = json }
            }
        }
        var emptied: [String] = []
        var written: [[String]] = []
        for scope in scopes {
            let current = stored[scope].flatMap { try? Preferences(json: $0) } ?? Preferences()
            let document = (byScope[scope] ?? KeyChanges()).applied(to: current)
            if document.isEmpty {
                if stored[scope] != nil { emptied.append(scope) }
            } else {
                written.append([userID, scope, document.jsonString(), UUID().uuidString])
            }
        }
        for start in stride(from: 0, to: emptied.count, by: 500) {
            let chunk = Array(emptied[start..<min(start + 500, emptied.count)])
            let marks = SQLMarks.list(chunk.count)
            _ = try await transaction.execute(
                "DELETE FROM reading_preferences WHERE user_id = ? AND scope IN (\(marks))", [userID] + chunk)
        }
        for start in stride(from: 0, to: written.count, by: 100) {
            let chunk = written[start..<min(start + 100, written.count)]
            let marks = SQLMarks.list(chunk.count, of: "(?, ?, ?, ?)")
            _ = try await transaction.execute(
                "INSERT INTO reading_preferences (user_id, scope, json, version) VALUES \(marks) "
                    + "ON CONFLICT (user_id, scope) DO UPDATE SET json = excluded.json, version = excluded.version",
                chunk.flatMap { $0 })
        }
    }

    /// A push body, read: `{"replica": ID, "entries": [{"scope", "key", "value" | "removed",
    /// "stamp"}], "merged"?: {ID: stamp}}`. A malformed entry is skipped and reported; a body
    /// that is not such an object is refused.
    struct PushRequest {
        var replica: ReplicaID
        var entries: [(SyncScope, [(String, SyncEntry)])]
        var merged: [ReplicaID: SyncStamp]
        var skipped: [(scope: String, key: String, reason: String)]
    }

    static func parsePush(_ body: Data) throws -> PushRequest {
        let value: JSONValue
        do { value = try JSONValue(json: body, options: JSONParsingOptions(maxSize: 64 << 20)) } catch {
            throw PushRefusal.malformed("the body is not JSON: \(error)")
        }
        guard let object = value.objectValue else {
            throw PushRefusal.malformed("the body is not a JSON object")
        }
        guard let text = object["replica"]?.stringValue, let replica = ReplicaID(text) else {
            throw PushRefusal.malformed("\"replica\" is missing or not a replica id")
        }
        guard let list = object["entries"]?.arrayValue else {
            throw PushRefusal.malformed("\"entries\" is missing or not an array")
        }
        guard list.count <= 1 << 20 else { throw PushRefusal.malformed("more than 2^20 entries") }
        var byScope: [SyncScope: [(String, SyncEntry)]] = [:]
        var order: [SyncScope] = []
        var skipped: [(String, String, String)] = []
        for item in list {
            guard let fields = item.objectValue else {
                skipped.append(("?", "?", "not an object"))
                continue
            }
            let scopeText = fields["scope"]?.stringValue ?? "?"
            let key = fields["key"]?.stringValue ?? "?"
            guard let scope = SyncScope(scopeText) else {
                skipped.append((scopeText, key, "not a scope"))
                continue
            }
            guard fields["key"]?.stringValue != nil else {
                skipped.append((scopeText, key, "no key"))
                continue
            }
            guard !key.utf8.contains(0) else {
                skipped.append((scopeText, key, "a key holding U+0000, which no key may hold"))
                continue
            }
            let entry: SyncEntry
            do { entry = try SyncEntry(json: item) } catch {
                skipped.append((scopeText, key, error.description))
                continue
            }
            if byScope[scope] == nil { order.append(scope) }
            byScope[scope, default: []].append((key, entry))
        }
        var merged: [ReplicaID: SyncStamp] = [:]
        for member in object["merged"]?.objectValue?.members ?? [] {
            guard let id = ReplicaID(member.key), let stamp = try? SyncStamp(json: member.value),
                stamp.replica == id
            else { continue }
            merged[id] = stamp
        }
        return PushRequest(
            replica: replica, entries: order.map { ($0, byScope[$0] ?? []) }, merged: merged, skipped: skipped
        )
    }

    // MARK: - Changes and state

    /// A page of the entries stored after a cursor.
    struct ChangesPage: Sendable {
        var entries: [JSONValue]
        var cursor: String
        var more: Bool
    }

    /// Why a cursor cannot be served.
    enum CursorProblem: Error {
        case malformed
        /// Older than the compaction floor: read the whole state instead (410).
        case compacted
    }

    static func cursor(_ seq: Int64) -> String { "c\(max(seq, 0))" }

    static func parseCursor(_ text: String?) throws(CursorProblem) -> Int64 {
        guard let text else { return 0 }
        guard text.hasPrefix("c"), let value = Int64(text.dropFirst()), value >= 0 else { throw .malformed }
        return value
    }

    /// The entries stored after `since`, oldest first, at most `limit`.
    func changes(of userID: String, since: String?, limit: Int) async throws -> ChangesPage {
        let after = try Self.parseCursor(since)
        let limit = min(max(limit, 1), 10_000)
        return try await database.transaction(lockingUser: userID) { transaction in
            let row = try await Self.userRow(transaction, userID)
            if after < row.floor { throw CursorProblem.compacted }
            let rows = try await transaction.query(
                "SELECT scope, entry_key, entry, CAST(seq AS TEXT) AS seq FROM sync_entries "
                    + "WHERE user_id = ? AND seq > CAST(? AS BIGINT) "
                    + "ORDER BY seq LIMIT \(limit + 1)",
                [userID, String(after)])
            var entries: [JSONValue] = []
            var last = after
            for item in rows.prefix(limit) {
                guard let scope = item["scope"], let key = item["entry_key"], let text = item["entry"],
                    let entry = try? JSONValue(json: text).objectValue
                else { continue }
                var object: JSONObject = ["scope": .string(scope), "key": .string(key)]
                for member in entry.members { object[member.key] = member.value }
                entries.append(.object(object))
                last = Int64(item["seq"] ?? "") ?? last
            }
            let more = rows.count > limit
            return ChangesPage(
                entries: entries, cursor: Self.cursor(more ? last : max(last, row.nextSeq - 1)), more: more)
        }
    }

    /// Every entry the server holds for the user, as the server replica's file.
    func state(of userID: String) async throws -> Data {
        let server = Self.replicaID(for: userID)
        let rows = try await database.query(
            "SELECT scope, entry_key, entry FROM sync_entries WHERE user_id = ?", [userID])
        let mergedRows = try await database.query(
            "SELECT replica_id, stamp FROM sync_merged WHERE user_id = ?", [userID])
        var merged: [ReplicaID: SyncStamp] = [:]
        for item in mergedRows {
            guard let id = item["replica_id"].flatMap(ReplicaID.init), let text = item["stamp"],
                let stamp = try? SyncStamp(json: JSONValue(json: text))
            else { continue }
            merged[id] = stamp
        }
        var state = ReplicaState(replica: server, merged: merged)
        for item in rows {
            guard let scope = item["scope"].flatMap(SyncScope.init), let key = item["entry_key"],
                let text = item["entry"], let entry = try? SyncEntry(json: JSONValue(json: text))
            else { continue }
            state.record(entry, forKey: key, in: scope)
        }
        return state.jsonData()
    }
}
