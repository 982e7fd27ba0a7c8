import ReadingPreferences

// A replica's first sync against documents that differ from its own (Specs/Sync.md §5.9): what
// differs, and how the documents are stamped once the choice is made.
extension Reconciliation {
    /// The keys of a local document that differ from what was admitted for it: a key held on one
    /// side only, or with values not written alike; none when either side holds no values.
    /// Linear in the two documents' sizes.
    ///
    /// - Parameters:
    ///   - scope: The document.
    ///   - local: The document as this replica holds it.
    /// - Returns: The keys, sorted by their UTF-8 bytes.
    package func firstJoinDifferences(_ scope: SyncScope, local: Preferences) -> [String] {
        guard let remote = incoming.documents[scope], !local.isEmpty else { return [] }
        var theirs: [JSONScalarKey: JSONValue] = [:]
        for (key, entry) in remote.all {
            if let value = entry.value { theirs[JSONScalarKey(key)] = value }
        }
        guard !theirs.isEmpty else { return [] }
        var keys: [String] = []
        for member in local.members {
            let value = theirs.removeValue(forKey: JSONScalarKey(member.key))
            if !(value.map { $0.isWrittenAlike(member.value) } ?? false) { keys.append(member.key) }
        }
        keys += theirs.keys.map(\.string)
        return keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Stamps a document whose first join the caller settled with ``FirstJoinChoice/keepMine`` or
    /// ``FirstJoinChoice/takeTheirs``.
    func stampFirstJoin(
        _ choice: FirstJoinChoice, _ scope: SyncScope, _ preferences: Preferences, clock: inout HybridClock
    ) -> Stamped {
        var stamped = Stamped(entries: SyncDocument())
        let remote = incoming.documents[scope] ?? SyncDocument()
        if choice == .takeTheirs {
            // Every key yields: a removal stamped lowest loses to any entry read, and removes the
            // keys the others do not hold.
            let lowest = SyncStamp.lowest(for: state.replica)
            for member in preferences.members {
                stamped.entries[member.key] = SyncEntry(value: nil, stamp: lowest)
            }
            return stamped
        }
        // This device's document wins: each of its keys stamped now, and each key only the others
        // hold removed now, above every stamp read for the document.
        for (_, entry) in remote.all { clock.observe(entry.stamp) }
        var present = Set<JSONScalarKey>()
        for member in preferences.members {
            present.insert(JSONScalarKey(member.key))
            claim(member.key, value: member.value, over: remote[member.key], clock: &clock, in: &stamped)
        }
        for (key, entry) in remote.all.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
        where !entry.isRemoval && !present.contains(JSONScalarKey(key)) {
            claim(key, value: nil, over: entry, clock: &clock, in: &stamped)
        }
        return stamped
    }

    private func claim(
        _ key: String, value: JSONValue?, over remote: SyncEntry?, clock: inout HybridClock,
        in stamped: inout Stamped
    ) {
        guard let stamp = clock.tick(now: settings.now) else {
            stamped.unstamped.insert(JSONScalarKey(key))
            return
        }
        stamped.entries[key] = SyncEntry(value: value, stamp: stamp)
        stamped.fresh += 1
        stamped.sent.append(
            Sent(key: key, oldValue: remote?.value, newValue: value, stamp: stamp, isFound: true))
    }
}
