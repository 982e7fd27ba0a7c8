import ReadingPreferences

extension Reconciliation {
    // MARK: - 3. Documents

    /// Whether a document without a snapshot is new since the last sync (its keys are fresh
    /// edits) rather than one that lost its snapshot (its keys yield to any stamped entry).
    func isNew(_ scope: SyncScope) -> Bool {
        isFirstSync || !state.scopes.contains(scope)
    }

    /// Stamps a document's changes since its snapshot (SPEC 10.1): every key whose value differs
    /// (compared as written), appeared or disappeared gets a fresh stamp from `clock`.
    ///
    /// - Parameters:
    ///   - scope: The document.
    ///   - document: The document as loaded.
    ///   - snapshot: Its snapshot as loaded.
    ///   - clock: The clock (a copy, committed with the document).
    ///   - earlier: The document as an earlier attempt of this sync read it, when its write met
    ///     an edit: what changed since then is a fresh edit, even in a document that lost its
    ///     snapshot.
    /// - Returns: The entries.
    func stamp(
        _ scope: SyncScope, document: LocalDocument, snapshot: Snapshot, clock: inout HybridClock,
        earlier: Preferences? = nil
    ) -> Stamped {
        let now = settings.now
        // The clock follows everything it reads, this replica's own snapshots included: a fresh
        // stamp always beats the entry it replaces.
        if case .present(let entries) = snapshot {
            for (_, entry) in entries.entries { clock.observe(entry.stamp) }
        }
        switch (document, snapshot) {
        case (.unreadable, .present(let entries)):
            return Stamped(entries: entries, snapshot: entries, isSkipped: true)
        case (.unreadable, _):
            return Stamped(entries: SyncDocument(), isSkipped: true)
        case (.present(let preferences), .present(let entries)):
            var stamped = Stamped(entries: entries, snapshot: entries)
            var present = Set<JSONScalarKey>()
            present.reserveCapacity(preferences.count)
            for member in preferences.members {
                present.insert(JSONScalarKey(member.key))
                if let old = entries[member.key]?.value, old.isWrittenAlike(member.value) { continue }
                stamped.set(member.key, to: member.value, clock: &clock, now: now)
            }
            for (key, entry) in entries.all where !entry.isRemoval && !present.contains(JSONScalarKey(key)) {
                stamped.set(key, to: nil, clock: &clock, now: now)
            }
            return stamped
        case (.absent, .present(let entries)):
            var stamped = Stamped(entries: entries, snapshot: entries)
            for (key, entry) in entries.all where !entry.isRemoval {
                stamped.set(key, to: nil, clock: &clock, now: now)
            }
            return stamped
        case (.present(let preferences), .absent), (.present(let preferences), .damaged):
            var stamped = Stamped(entries: SyncDocument())
            if isNew(scope), case .absent = snapshot {
                for member in preferences.members {
                    stamped.set(member.key, to: member.value, clock: &clock, now: now)
                }
            } else {
                stamped.lostHistory = true
                let lowest = SyncStamp.lowest(for: state.replica)
                var before: [JSONScalarKey: JSONValue] = [:]
                for member in earlier?.members ?? [] { before[JSONScalarKey(member.key)] = member.value }
                for member in preferences.members {
                    let old = before.removeValue(forKey: JSONScalarKey(member.key))
                    if earlier != nil, !(old.map { $0.isWrittenAlike(member.value) } ?? false) {
                        stamped.set(member.key, to: member.value, clock: &clock, now: now)
                    } else {
                        stamped.entries[member.key] = SyncEntry(value: member.value, stamp: lowest)
                    }
                }
                // Removed while this sync ran: a fresh removal.
                for key in before.keys { stamped.set(key.string, to: nil, clock: &clock, now: now) }
            }
            return stamped
        case (.absent, .absent), (.absent, .damaged):
            return Stamped(entries: SyncDocument())
        }
    }

    /// Merges a document's stamped entries with what was admitted, forgets old removals, and
    /// works out what to write.
    ///
    /// - Parameters:
    ///   - scope: The document.
    ///   - stamped: Its entries after stamping.
    ///   - document: The document as loaded.
    /// - Returns: The entries, the snapshot and the changes to apply.
    func settle(_ scope: SyncScope, _ stamped: Stamped, document: LocalDocument) -> Settled {
        var entries = stamped.entries
        if let remote = incoming.documents[scope] { entries.merge(remote) }
        guard !stamped.isSkipped else {
            return Settled(
                entries: entries, snapshot: stamped.snapshot ?? SyncDocument(), changes: KeyChanges(),
                report: [])
        }
        var current: [JSONScalarKey: JSONValue] = [:]
        for member in document.preferences?.members ?? [] {
            current[JSONScalarKey(member.key)] = member.value
        }
        var changes = KeyChanges()
        var report: [SyncChange] = []
        var snapshot = entries
        for (key, entry) in entries.all {
            let wrapped = JSONScalarKey(key)
            if stamped.unstamped.contains(wrapped) {
                snapshot[key] = stamped.snapshot?[key]
                continue
            }
            let old = current[wrapped]
            switch (entry.value, old) {
            case (let new?, let old?) where new.isWrittenAlike(old): continue
            case (nil, nil): continue
            default:
                changes[key] = .some(entry.value)
                report.append(SyncChange(scope: scope, key: key, oldValue: old, newValue: entry.value))
            }
        }
        report.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        // Removals are forgotten once applied: the document no longer holds the key.
        entries.removeAll(where: isForgettable)
        snapshot.removeAll(where: isForgettable)
        return Settled(entries: entries, snapshot: snapshot, changes: changes, report: report)
    }

    /// Keeps a settled document's result: its entries, the clock it was stamped with, and
    /// whether it has a snapshot from now on.
}

extension Reconciliation.Stamped {
    /// Gives a key a fresh stamp for its new value (`nil`: removed), or, when the clock is
    /// exhausted, leaves it for a later sync.
    fileprivate mutating func set(_ key: String, to value: JSONValue?, clock: inout HybridClock, now: UInt64)
    {
        guard let stamp = clock.tick(now: now) else {
            unstamped.insert(JSONScalarKey(key))
            return
        }
        entries[key] = SyncEntry(value: value, stamp: stamp)
    }
}
