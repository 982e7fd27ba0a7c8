import ReadingPreferences

extension Reconciliation {
    // MARK: - 3. Documents

    /// Whether a document without a snapshot is new since the last sync (its keys are fresh
    /// edits) rather than one that lost its snapshot (its keys yield to any stamped entry).
    func isNew(_ scope: SyncScope) -> Bool {
        isFirstSync || !state.scopes.contains(scope)
    }

    /// Stamps a document's changes since its snapshot (Specs/Sync.md §5.4): every key whose value
    /// differs (compared as written), appeared or disappeared keeps the pending stamp its edit
    /// took, when the stamp was taken for the value it holds now, or gets a fresh stamp from
    /// `clock`.
    ///
    /// - Parameters:
    ///   - scope: The document.
    ///   - document: The document as loaded.
    ///   - snapshot: Its snapshot as loaded.
    ///   - pending: The stamps its edits took when they were made, each with its value.
    ///   - clock: The clock (a copy, committed with the document).
    ///   - earlier: The document as an earlier attempt of this sync read it, when its write met
    ///     an edit: what changed since then is a fresh edit, even in a document that lost its
    ///     snapshot.
    /// - Returns: The entries.
    package func stamp(
        _ scope: SyncScope, document: LocalDocument, snapshot: Snapshot,
        pending: SyncDocument = SyncDocument(),
        clock: inout HybridClock, earlier: Preferences? = nil
    ) -> Stamped {
        let now = settings.now
        // The clock follows everything it reads, this replica's own snapshots and pending stamps
        // included: a fresh stamp always beats the entry it replaces.
        if case .present(let entries) = snapshot {
            for (_, entry) in entries.entries { clock.observe(entry.stamp) }
        }
        for (_, entry) in pending.entries { clock.observe(entry.stamp) }
        if let choice = firstJoin[scope], case .present(let preferences) = document {
            return stampFirstJoin(choice, scope, preferences, clock: &clock)
        }
        var stamper = Stamper(pending: pending, replica: state.replica, now: now, earlier: earlier)
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
                let old = entries[member.key]
                if let old, let value = old.value, value.isWrittenAlike(member.value) {
                    // Unchanged since the snapshot, unless an edit set it again since.
                    stamper.keepPending(member.key, value: member.value, over: old, in: &stamped)
                    continue
                }
                stamper.set(member.key, to: member.value, over: old, clock: &clock, in: &stamped)
            }
            for (key, entry) in entries.all where !entry.isRemoval && !present.contains(JSONScalarKey(key)) {
                stamper.set(key, to: nil, over: entry, clock: &clock, in: &stamped)
            }
            // A key set and removed since the last sync, or removed again after a removal the
            // snapshot holds: its removal is an edit too, and wins over what is older.
            stamper.keepPendingRemovals(absentFrom: present, over: entries, in: &stamped)
            return stamped
        case (.absent, .present(let entries)):
            var stamped = Stamped(entries: entries, snapshot: entries)
            var byEdits = true
            for (key, entry) in entries.all where !entry.isRemoval {
                byEdits = byEdits && stamper.hasPending(key, for: nil)
                stamper.set(key, to: nil, over: entry, clock: &clock, in: &stamped)
            }
            stamped.removedDocument = stamped.sent.count
            stamped.removedByEdits = byEdits
            stamper.keepPendingRemovals(absentFrom: [], over: entries, in: &stamped)
            return stamped
        case (.present(let preferences), .absent), (.present(let preferences), .damaged):
            var stamped = Stamped(entries: SyncDocument())
            var present = Set<JSONScalarKey>()
            for member in preferences.members { present.insert(JSONScalarKey(member.key)) }
            defer { stamper.keepPendingRemovals(absentFrom: present, over: SyncDocument(), in: &stamped) }
            if isNew(scope), case .absent = snapshot {
                for member in preferences.members {
                    stamper.set(member.key, to: member.value, over: nil, clock: &clock, in: &stamped)
                }
            } else {
                stamped.lostHistory = true
                let lowest = SyncStamp.lowest(for: state.replica)
                var before: [JSONScalarKey: JSONValue] = [:]
                for member in earlier?.members ?? [] { before[JSONScalarKey(member.key)] = member.value }
                for member in preferences.members {
                    let old = before.removeValue(forKey: JSONScalarKey(member.key))
                    if earlier != nil, !(old.map { $0.isWrittenAlike(member.value) } ?? false) {
                        stamper.set(member.key, to: member.value, over: nil, clock: &clock, in: &stamped)
                    } else if stamper.hasPending(member.key, for: member.value) {
                        // A key with a pending stamp keeps it (Specs/Sync.md §5.4): an edit is an
                        // edit even in a document that lost its snapshot.
                        stamper.set(member.key, to: member.value, over: nil, clock: &clock, in: &stamped)
                    } else {
                        stamped.entries[member.key] = SyncEntry(value: member.value, stamp: lowest)
                    }
                }
                // Removed while this sync ran: a fresh removal.
                for key in before.keys {
                    stamper.set(key.string, to: nil, over: nil, clock: &clock, in: &stamped)
                }
            }
            return stamped
        case (.absent, .absent), (.absent, .damaged):
            // A document whose every key was set and removed since the last sync: each removal
            // is an edit (nothing else will tell other devices the key was removed).
            var stamped = Stamped(entries: SyncDocument())
            stamper.keepPendingRemovals(absentFrom: [], over: SyncDocument(), in: &stamped)
            return stamped
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
    package func settle(_ scope: SyncScope, _ stamped: Stamped, document: LocalDocument) -> Settled {
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
        // In the order of their keys' bytes, so a key a sync adds comes at the same place on
        // every device, whatever order the entries were read in (Specs/Sync.md §5.5).
        for (key, entry) in entries.all.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
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
        // Removals are forgotten once applied: the document no longer holds the key. A removal
        // this sync sends is published first: the others know of it only from this state, and
        // the merged stamps it publishes may already be past it (an edit of a document the last
        // sync did not visit), so they would never ask again.
        let sent = Set(stamped.sent.map(\.stamp))
        let forgettable = { (entry: SyncEntry) in self.isForgettable(entry) && !sent.contains(entry.stamp) }
        entries.removeAll(where: forgettable)
        snapshot.removeAll(where: forgettable)
        return Settled(entries: entries, snapshot: snapshot, changes: changes, report: report)
    }

    /// Keeps a settled document's result: its entries, the clock it was stamped with, and
    /// whether it has a snapshot from now on.
}

/// Gives keys their stamps: the pending stamp an edit took for the value a key holds now, or a
/// fresh one from the clock.
private struct Stamper {
    let pending: SyncDocument
    let replica: ReplicaID
    let now: UInt64
    /// The document as an earlier attempt of this sync read it, by key.
    let earlier: [JSONScalarKey: JSONValue]?

    init(pending: SyncDocument, replica: ReplicaID, now: UInt64, earlier: Preferences?) {
        self.pending = pending
        self.replica = replica
        self.now = now
        self.earlier = earlier.map { document in
            var values: [JSONScalarKey: JSONValue] = [:]
            for member in document.members { values[JSONScalarKey(member.key)] = member.value }
            return values
        }
    }

    /// The pending stamp taken for `value` (`nil`: a removal), as this replica's: a stamp taken
    /// before the replica changed its id keeps its time and counter. A key that changed while
    /// this sync ran takes none: its edit came after everything the sync read, which a fresh
    /// stamp beats (a pending stamp only ever makes an edit older than that).
    func pendingEntry(_ key: String, for value: JSONValue?) -> SyncEntry? {
        guard let entry = pending[key] else { return nil }
        if let earlier {
            switch (earlier[JSONScalarKey(key)], value) {
            case (nil, nil): break
            case (let before?, let now?) where before.isWrittenAlike(now): break
            default: return nil
            }
        }
        switch (entry.value, value) {
        case (nil, nil): break
        case (let taken?, let current?) where taken.isWrittenAlike(current): break
        default: return nil
        }
        guard entry.stamp.replica != replica else { return entry }
        return SyncEntry(
            value: value, stamp: SyncStamp(unchecked: entry.stamp.time, entry.stamp.counter, replica))
    }

    func hasPending(_ key: String, for value: JSONValue?) -> Bool {
        pendingEntry(key, for: value) != nil
    }

    /// Gives a changed key its stamp for its new value (`nil`: removed): the pending one when it
    /// was taken for that value and is later than the entry it replaces, else a fresh one; when
    /// the clock is exhausted, leaves it for a later sync.
    mutating func set(
        _ key: String, to value: JSONValue?, over old: SyncEntry?, clock: inout HybridClock,
        in stamped: inout Reconciliation.Stamped
    ) {
        let entry: SyncEntry
        var found = false
        if let taken = pendingEntry(key, for: value), old.map({ $0.stamp < taken.stamp }) ?? true {
            entry = taken
        } else if let stamp = clock.tick(now: now) {
            entry = SyncEntry(value: value, stamp: stamp)
            found = true
            stamped.fresh += 1
        } else {
            stamped.unstamped.insert(JSONScalarKey(key))
            return
        }
        stamped.entries[key] = entry
        stamped.sent.append(
            Reconciliation.Sent(
                key: key, oldValue: old?.value, newValue: value, stamp: entry.stamp, isFound: found))
    }

    /// Keys absent from the document whose latest pending stamp is a removal later than what
    /// the snapshot holds for them (nothing, an older value, or an older removal): the removal is
    /// sent with the stamp its edit took (Specs/Sync.md §5.4). Without it a key set and removed
    /// between two syncs would send nothing, and another device's older value would come back.
    func keepPendingRemovals(
        absentFrom present: Set<JSONScalarKey>, over entries: SyncDocument,
        in stamped: inout Reconciliation.Stamped
    ) {
        for (key, pending) in self.pending.all.sorted(by: {
            $0.key.utf8.lexicographicallyPrecedes($1.key.utf8)
        })
        where pending.isRemoval && !present.contains(JSONScalarKey(key)) {
            guard let taken = pendingEntry(key, for: nil) else { continue }
            let old = stamped.entries[key] ?? entries[key]
            guard old.map({ $0.stamp < taken.stamp }) ?? true else { continue }
            stamped.entries[key] = taken
            stamped.sent.removeAll { $0.key.isScalarEqual(to: key) }
            stamped.sent.append(
                Reconciliation.Sent(
                    key: key, oldValue: old?.value, newValue: nil, stamp: taken.stamp, isFound: false))
        }
    }

    /// A key whose value is its snapshot's keeps the later of its snapshot entry and a pending
    /// stamp taken for that value (an edit that set it again since the last sync).
    func keepPending(
        _ key: String, value: JSONValue, over old: SyncEntry, in stamped: inout Reconciliation.Stamped
    ) {
        guard let taken = pendingEntry(key, for: value), old.stamp < taken.stamp else { return }
        stamped.entries[key] = taken
    }
}
