import Foundation
import ReadingPreferences
import ReadingPreferencesStore

extension SQLSyncLog {
    // MARK: - Push

    /// What a push did: how many entries won and were stored, the entries ignored and why, and
    /// the cursor of the changes feed after it.
    public struct PushResult: Sendable {
        /// How many entries won and were stored.
        public var applied = 0
        /// The entries ignored, each with its scope, key and why.
        public var ignored: [(scope: String, key: String, reason: String)] = []
        /// The cursor of the changes feed after the push.
        public var cursor: String
        /// Damaged documents the push found where it applied entries: each set aside (kept, and
        /// reported here) before anything was written over it (Specs/Store.md §7).
        public var setAside: [(scope: String, movedTo: String)] = []
        /// The replica that pushed.
        public var replica: ReplicaID? = nil
    }

    /// Why a push is refused whole.
    public enum PushRefusal: Error, Sendable {
        /// Not a push body.
        case malformed(String)
        /// The replica id is the user's server replica's, not a device's.
        case foreignReplica(String)
    }

    /// What the server holds that a push is merged with: the entries of the pushed scopes, the
    /// clock, and the merged stamp of each replica.
    struct Held {
        var entries: [SyncScope: SyncDocument] = [:]
        var clock: HybridClock
        var merged: [ReplicaID: SyncStamp] = [:]
    }

    /// What a push will write, decided from what is held: the one rule both the read-only check
    /// and the transaction follow.
    struct PushPlan {
        /// The winning entries, in the order pushed.
        var winners: [(scope: SyncScope, key: String, entry: SyncEntry)] = []
        /// The clock after the push (it follows every stamp accepted).
        var clock: HybridClock
        /// The merged stamps that rise.
        var raised: [ReplicaID: SyncStamp] = [:]
        /// Entries not taken, with why.
        var ignored: [(scope: String, key: String, reason: String)]

        /// Whether the push writes nothing.
        func writesNothing(given held: Held) -> Bool {
            winners.isEmpty && raised.isEmpty && clock == held.clock
        }
    }

    /// Merges a push's entries with what is held, without writing, by sync's own rules: an entry
    /// within the future bound is accepted, the clock follows it (``HybridClock/observe(_:)``),
    /// and it is a winner when it wins the merge with what is held for its key and what was
    /// pushed before it (``SyncDocument/merge(_:forKey:)``); the merged stamps rise as a
    /// replica state's do (``ReplicaState/note(_:)``).
    static func plan(_ request: PushRequest, over held: Held, bound: UInt64) -> PushPlan {
        var plan = PushPlan(clock: held.clock, ignored: request.skipped)
        var accepted = ReplicaState(replica: held.clock.replica)
        for (scope, entries) in request.entries {
            var current = held.entries[scope] ?? SyncDocument()
            for (key, entry) in entries {
                guard entry.stamp.time <= bound else {
                    plan.ignored.append(
                        (scope.description, key, "stamped more than 24 hours ahead of the server's clock"))
                    continue
                }
                plan.clock.observe(entry.stamp)
                accepted.note(entry.stamp)
                if current.merge(entry, forKey: key) { plan.winners.append((scope, key, entry)) }
            }
        }
        for (_, stamp) in request.merged where stamp.time <= bound { accepted.note(stamp) }
        for (replica, stamp) in accepted.merged where held.merged[replica].map({ $0 < stamp }) ?? true {
            plan.raised[replica] = stamp
        }
        return plan
    }

    /// Merges a device's entries.
    ///
    /// A device pushes every entry at each sync, so most pushes bring nothing new: one read, with
    /// no transaction, finds that out. Otherwise the push runs in
    /// a transaction that holds the user: the replica id is claimed or checked, what is held is
    /// read again, and the plan's winners are stored and applied.
    ///
    /// - Parameters:
    ///   - body: The push body: `{"replica": ID, "entries": [...], "merged"?: {...}}`.
    ///   - userID: The user.
    /// - Returns: What the push did.
    /// - Throws: ``PushRefusal`` for a body that is not a push or a replica id that is not a
    ///   device's; what the database throws.
    public func push(_ body: Data, of userID: String) async throws -> PushResult {
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
            if let name = request.name {
                _ = try await transaction.execute(
                    "UPDATE sync_replicas SET name = ? WHERE user_id = ? AND replica_id = ?",
                    [name, userID, request.replica.rawValue])
            }
            var row = try await Self.userRow(transaction, userID)
            var held = Held(clock: row.clock(of: server))
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
                    guard let scope = item["scope"].flatMap(SyncScope.init), let key = item["entry_key"],
                        let text = item["entry"], let entry = try? SyncEntry(json: JSONValue(json: text))
                    else { continue }
                    held.entries[scope, default: SyncDocument()].merge(entry, forKey: key)
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
            row.keep(plan.clock)
            try await Self.store(plan.winners, &row, transaction, userID)
            if row.time != initial.time || row.counter != initial.counter || row.nextSeq != initial.nextSeq {
                try await Self.save(row, transaction, userID)
            }
            let setAside = try await apply(plan.winners, from: request, of: userID, in: transaction)
            for (replica, stamp) in plan.raised.sorted(by: { $0.key < $1.key }) {
                _ = try await transaction.execute(
                    "INSERT INTO sync_merged (user_id, replica_id, stamp) VALUES (?, ?, ?) "
                        + "ON CONFLICT (user_id, replica_id) DO UPDATE SET stamp = excluded.stamp",
                    [userID, replica.rawValue, stamp.jsonValue.jsonString()])
            }
            row = try await Self.userRow(transaction, userID)
            var result = PushResult(
                applied: plan.winners.count, ignored: plan.ignored, cursor: Self.cursor(row.nextSeq - 1),
                replica: request.replica)
            result.setAside = setAside
            return result
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
        var entries: [SyncScope: SyncDocument] = [:]
        var merged: [ReplicaID: SyncStamp] = [:]
        for row in try await database.query(sql, values) {
            switch row["kind"] {
            case "owner": owner = row["a"]
            case "user":
                guard let time = row["a"].flatMap({ UInt64($0) }),
                    let counter = row["b"].flatMap({ UInt64($0) }),
                    let next = row["c"].flatMap({ Int64($0) })
                else { return nil }
                held = Held(
                    clock: HybridClock(replica: Self.replicaID(for: userID), time: time, counter: counter))
                nextSeq = next
            case "merged":
                guard let id = row["a"].flatMap(ReplicaID.init), let text = row["b"],
                    let stamp = try? SyncStamp(json: JSONValue(json: text))
                else { continue }
                merged[id] = stamp
            case "entry":
                guard let scope = row["a"].flatMap(SyncScope.init), let key = row["b"], let text = row["c"],
                    let entry = try? SyncEntry(json: JSONValue(json: text))
                else { continue }
                entries[scope, default: SyncDocument()].merge(entry, forKey: key)
            default: return nil
            }
        }
        guard owner == userID, var held else { return nil }
        held.entries = entries
        held.merged = merged
        let plan = Self.plan(request, over: held, bound: bound)
        guard plan.writesNothing(given: held) else { return nil }
        return PushResult(
            applied: 0, ignored: plan.ignored, cursor: Self.cursor(nextSeq - 1), replica: request.replica)
    }

    /// Applies winning entries to the user's documents through the storage's one document-write
    /// step (Specs/Store.md §8.10), in the push's transaction: a value sets its key, a removal
    /// removes it, a document left empty is removed, and a damaged document is set aside before
    /// anything is written over it, never read as empty. Each change joins the document's
    /// history with the device's stamp and name (origin `sync`); none is stamped again.
    ///
    /// - Returns: The damaged documents set aside, with where they went.
    func apply(
        _ winners: [(scope: SyncScope, key: String, entry: SyncEntry)], from request: PushRequest,
        of userID: String, in transaction: any SQLDatabase
    ) async throws -> [(scope: String, movedTo: String)] {
        guard !winners.isEmpty else { return [] }
        var byScope: [SyncScope: KeyChanges] = [:]
        var order: [SyncScope] = []
        var recording = ChangeRecording(.sync, at: now())
        if let name = request.name { recording.deviceNames[request.replica] = name }
        for winner in winners {
            if byScope[winner.scope] == nil { order.append(winner.scope) }
            byScope[winner.scope, default: KeyChanges()][winner.key] = .some(winner.entry.value)
            recording.stamps[winner.scope.location, default: [:]][JSONScalarKey(winner.key)] =
                winner.entry.stamp
            if let name = request.names[winner.entry.stamp.replica] {
                recording.deviceNames[winner.entry.stamp.replica] = name
            }
        }
        let storage = SQLPreferencesStorage(database: transaction, userID: userID, journal: self)
        let writes = try await storage.write(
            order.map { DocumentEdit.keys(byScope[$0] ?? KeyChanges(), at: $0.location) },
            recording: recording)
        return writes.problems.map {
            (($0.location.map(SQLPreferencesStorage.scope(of:))) ?? "?", $0.movedTo ?? "")
        }
    }

    /// A push body, read: `{"replica": ID, "entries": [{"scope", "key", "value" | "removed",
    /// "stamp"}], "merged"?: {ID: stamp}}`. A malformed entry is skipped and reported; a body
    /// that is not such an object is refused.
    struct PushRequest {
        var replica: ReplicaID
        /// The device's display name, when it gave one.
        var name: String?
        /// Display names of other replicas the device knows (not used to rename them: only to
        /// name the changes they made in history).
        var names: [ReplicaID: String] = [:]
        var entries: [(SyncScope, [(String, SyncEntry)])]
        var merged: [ReplicaID: SyncStamp]
        var skipped: [(scope: String, key: String, reason: String)]
    }

    static func parsePush(_ body: Data) throws -> PushRequest {
        let value: JSONValue
        // A value sits three levels down (the body, `entries`, an entry): the depth any document
        // allows it (``SyncEntry/maximumValueDepth``).
        let options = JSONParsingOptions(maxDepth: 3 + SyncEntry.maximumValueDepth, maxSize: 64 << 20)
        do { value = try JSONValue(json: body, options: options) } catch {
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
        if let writer = object["writer"], writer.stringValue == nil {
            throw PushRefusal.malformed("\"writer\" is not a string")
        }
        if let merged = object["merged"], merged.objectValue == nil {
            throw PushRefusal.malformed("\"merged\" is not an object of replica id → stamp")
        }
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
            guard !StorageLocation.holdsNUL(key) else {
                skipped.append((scopeText, key, "a key holding U+0000, which no key may hold"))
                continue
            }
            guard key != "$id" else {
                skipped.append((scopeText, key, "$id names a file's publication, not a preference"))
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
        if let name = object["name"], name.stringValue == nil {
            throw PushRefusal.malformed("\"name\" is not a string")
        }
        return PushRequest(
            replica: replica, name: object["name"]?.stringValue.flatMap(DeviceIdentity.normalizedName),
            entries: order.map { ($0, byScope[$0] ?? []) }, merged: merged, skipped: skipped)
    }

}
