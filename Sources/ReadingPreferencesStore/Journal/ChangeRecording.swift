import ReadingPreferences

/// What the document-write step records in the change journal for the keys it writes (Specs/Store.md
/// §15.1): why they change and when; for changes another device made (a sync's), their stamps and
/// that device's name. The step turns every key it changes into a ``JournalEntry`` from this, so
/// the journal holds exactly what was written, nothing diffed from a cache.
package struct ChangeRecording: Sendable {
    /// Why the keys change.
    package var origin: ChangeOrigin
    /// When the change was made, in milliseconds since 1970.
    package var time: UInt64
    /// When each key was changed, where the keys of one write were changed at different times
    /// (coalesced edits); other keys take ``time``.
    package var keyTimes: [JSONScalarKey: UInt64] = [:]
    /// Stamps the changes already have (another device's, brought by a sync), by document and
    /// key; the storage stamps the others.
    package var stamps: [StorageLocation: [JSONScalarKey: SyncStamp]] = [:]
    /// The display names of the devices whose stamps are given, by replica id.
    package var deviceNames: [ReplicaID: String] = [:]

    package init(_ origin: ChangeOrigin, at time: UInt64) {
        self.origin = origin
        self.time = time
    }

    /// The entry of one change the step makes.
    func entry(_ change: StoredChange) -> JournalEntry {
        let key = JSONScalarKey(change.key)
        let stamp = stamps[change.location]?[key]
        return JournalEntry(
            key: change.key, oldValue: change.oldValue, newValue: change.newValue, origin: origin,
            time: keyTimes[key] ?? stamp?.time ?? time, stamp: stamp,
            deviceName: stamp.flatMap { deviceNames[$0.replica] })
    }
}
