import ReadingPreferences

/// The sync snapshot of one synced document (SPEC 10.1), kept through the storage beside it
/// (``StorageLocation/syncSnapshot(configurable:_:)``, `<document>.json.sync` for files): every
/// key as last stamped, with its stamp, removals included. Sync finds local changes by comparing
/// the document with it, key by key, value by value, never by file times or sizes.
///
/// ```json
/// {"format": "readingprefs-sync-snapshot", "version": 1,
///  "entries": {"fontSize": {"value": 1.4, "stamp": {"time": …, "counter": 0, "replica": "…"}}}}
/// ```
enum SyncSnapshot {
    static let formatName = "readingprefs-sync-snapshot"

    /// The stored document of a snapshot.
    static func document(_ entries: SyncDocument) -> Preferences {
        // Members built in one pass: setting keys of a `JSONObject` one by one is linear each.
        let members = entries.entries.sorted { $0.key < $1.key }.map {
            JSONObject.Member(key: $0.key.string, value: $0.value.jsonValue)
        }
        return Preferences(members: [
            .init(key: "format", value: .string(formatName)), .init(key: "version", value: 1),
            .init(key: "entries", value: .object(JSONObject(members: members))),
        ])
    }

    /// Reads a stored snapshot; also the first format (`keys`).
    ///
    /// - Throws: ``SyncFormatError`` when it is not a snapshot, or an entry is malformed: a
    ///   snapshot that cannot be trusted whole counts as lost.
    static func entries(of document: Preferences) throws(SyncFormatError) -> SyncDocument {
        guard let object = (document["entries"] ?? document["keys"])?.objectValue else {
            throw SyncFormatError("a sync snapshot has no \"entries\"")
        }
        var entries = SyncDocument()
        for member in object.members {
            do throws(SyncFormatError) {
                entries.merge(try SyncEntry(json: member.value), forKey: member.key)
            } catch {
                throw SyncFormatError("\(member.key): \(error)")
            }
        }
        return entries
    }
}
