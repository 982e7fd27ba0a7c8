import ReadingPreferences

/// The sync sidecar of one synced document (Specs/Sync.md §8), kept through the storage beside
/// it (``StorageLocation/syncSnapshot(configurable:_:)``, `<document>.json.sync` for files):
///
/// - `entries`, the *snapshot*: every key as the last sync stamped it, with its stamp, removals
///   included. Sync finds local changes by comparing the document with it, key by key, value by
///   value, never by file times or sizes.
/// - `journal`: where the last sync got to in the document's change journal (a
///   ``JournalCursor``): the changes recorded since are its edits' pending stamps
///   (Specs/Sync.md §5.4), read by the next sync.
/// - `pending`: pending stamps a root kept in the sidecar before the change journal (read, never
///   written again): the value each was taken for (or a removal). A sidecar with pending stamps
///   and no `entries` belongs to a document that has not synced yet.
///
/// ```json
/// {"format": "readingprefs-sync-snapshot", "version": 1,
///  "entries": {"fontSize": {"value": 1.4, "stamp": {"time": …, "counter": 0, "replica": "…"}}},
///  "pending": {"fontSize": {"value": 1.6, "stamp": {"time": …, "counter": 0, "replica": "…"}}}}
/// ```
enum SyncSnapshot {
    static let formatName = "readingprefs-sync-snapshot"

    /// A sidecar as read.
    struct Sidecar: Sendable, Equatable {
        /// The snapshot; `nil` when the document has pending stamps but never synced.
        var entries: SyncDocument?
        /// The pending stamps, by key.
        var pending = SyncDocument()
        /// Where the last sync got to in the document's change journal.
        var journal: JournalCursor?
    }

    /// The stored document of a snapshot.
    static func document(_ entries: SyncDocument, journal: JournalCursor? = nil) -> Preferences {
        document(Sidecar(entries: entries, journal: journal))
    }

    /// The stored document of a sidecar.
    static func document(_ sidecar: Sidecar) -> Preferences {
        var members: [JSONObject.Member] = [
            .init(key: "format", value: .string(formatName)), .init(key: "version", value: 1),
        ]
        if let entries = sidecar.entries { members.append(.init(key: "entries", value: object(entries))) }
        if !sidecar.pending.isEmpty { members.append(.init(key: "pending", value: object(sidecar.pending))) }
        if let journal = sidecar.journal {
            members.append(.init(key: "journal", value: .string(journal.rawValue)))
        }
        return Preferences(members: members)
    }

    private static func object(_ entries: SyncDocument) -> JSONValue {
        // Members built in one pass: setting keys of a `JSONObject` one by one is linear each.
        let members = entries.entries.sorted { $0.key < $1.key }.map {
            JSONObject.Member(key: $0.key.string, value: $0.value.jsonValue)
        }
        return .object(JSONObject(members: members))
    }

    /// Reads a stored snapshot; also the first format (`keys`).
    ///
    /// - Throws: ``SyncFormatError`` when it is not a snapshot, or an entry is malformed: a
    ///   snapshot that cannot be trusted whole counts as lost.
    static func entries(of document: Preferences) throws(SyncFormatError) -> SyncDocument {
        guard let entries = try sidecar(of: document).entries else {
            throw SyncFormatError("a sync snapshot has no \"entries\"")
        }
        return entries
    }

    /// Reads a stored sidecar. A malformed pending stamp is left out (losing one only makes an
    /// edit younger); a malformed snapshot entry makes the whole snapshot untrusted.
    ///
    /// - Throws: ``SyncFormatError`` when it has neither a snapshot nor pending stamps, or a
    ///   snapshot entry is malformed.
    static func sidecar(of document: Preferences) throws(SyncFormatError) -> Sidecar {
        var sidecar = Sidecar()
        if let pending = document["pending"]?.objectValue { merge(pending.members, into: &sidecar.pending) }
        sidecar.journal = document["journal"]?.stringValue.map(JournalCursor.init)
        guard let object = (document["entries"] ?? document["keys"])?.objectValue else {
            guard document["pending"]?.objectValue != nil || sidecar.journal != nil else {
                throw SyncFormatError("a sync snapshot has no \"entries\"")
            }
            return sidecar
        }
        var entries = SyncDocument()
        for member in object.members {
            do throws(SyncFormatError) {
                entries.merge(try SyncEntry(json: member.value), forKey: member.key)
            } catch {
                throw SyncFormatError("\(member.key): \(error)")
            }
        }
        sidecar.entries = entries
        return sidecar
    }

    /// A record of pending stamps, as a file storage appends it beside the sidecar: an object of
    /// key → entry, like the sidecar's `pending` member.
    static func pendingRecord(_ entries: [(key: String, entry: SyncEntry)]) -> Preferences {
        Preferences(members: entries.map { JSONObject.Member(key: $0.key, value: $0.entry.jsonValue) })
    }

    /// Merges pending stamps read from a sidecar or from appended records: the latest stamp of a
    /// key wins; a malformed entry or a key holding U+0000 is left out (losing a pending stamp
    /// only makes an edit younger).
    static func merge(_ pending: [JSONObject.Member], into document: inout SyncDocument) {
        for member in pending {
            guard !StorageLocation.holdsNUL(member.key), let entry = try? SyncEntry(json: member.value) else {
                continue
            }
            document.merge(entry, forKey: member.key)
        }
    }

    /// Merges appended records of pending stamps into a sidecar's.
    static func merge(records: some Sequence<Preferences>, into document: inout SyncDocument) {
        for record in records { merge(record.members, into: &document) }
    }
}
