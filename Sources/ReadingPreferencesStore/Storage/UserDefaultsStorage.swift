import Foundation
import ReadingPreferences

/// Preferences kept in `UserDefaults`, where most reading apps keep them today: one defaults key
/// per document, on Apple platforms and on Linux.
///
/// ```swift
/// let store = PreferencesStore<EPUB>(storage: UserDefaultsStorage(suiteName: "group.com.example.reader"))
/// ```
///
/// Each document is a dictionary under `<prefix>/<location>` (`ReadingPreferences/epub/shared`,
/// `ReadingPreferences/epub/publication/urn%3Aisbn%3A978-0`), holding the document's JSON text,
/// exactly as written, and a random version, so a version never repeats. A batch is checked and
/// written under one lock, so it is whole or not at all within the process.
///
/// `UserDefaults` has no compare-and-swap across processes: an app extension writing the same
/// suite at the same instant can lose an update. Keep the documents of several processes in a
/// ``FileStorage`` in the shared container instead. Listing reads every key of the defaults, so
/// a library of many thousand books is better kept in files too.
public final class UserDefaultsStorage: PreferencesStorage, @unchecked Sendable {
    // `UserDefaults` is thread-safe; the lock makes each batch's checks and writes one step.
    let defaults: UserDefaults
    let lock = NSLock()
    /// The first component of every key the storage writes.
    public let keyPrefix: String
    /// Failures a test armed.
    package let faults = StorageFaultPlan()

    /// Creates a storage in a defaults database.
    ///
    /// - Parameters:
    ///   - defaults: The defaults (`.standard`, or an app group's suite).
    ///   - keyPrefix: The first component of every key, so the storage's keys stay apart from
    ///     the app's own.
    public init(defaults: UserDefaults = .standard, keyPrefix: String = "ReadingPreferences") {
        self.defaults = defaults
        self.keyPrefix = keyPrefix
    }

    /// Creates a storage in a named suite of defaults (an app group's).
    ///
    /// - Parameters:
    ///   - suiteName: The suite.
    ///   - keyPrefix: The first component of every key.
    public convenience init(suiteName: String, keyPrefix: String = "ReadingPreferences") {
        self.init(defaults: UserDefaults(suiteName: suiteName) ?? .standard, keyPrefix: keyPrefix)
    }

    /// The defaults object and the key prefix: stores on the same suite hear each other's syncs.
    public var identity: String? { "defaults:\(ObjectIdentifier(defaults).hashValue):" + keyPrefix }

    // MARK: - Documents

    /// Loads a document.
    ///
    /// - Parameter location: Where it lives.
    /// - Returns: The document, or `nil`.
    /// - Throws: ``StorageError/Code/corruptDocument`` when the value under the key is not a
    ///   document this storage wrote holding a JSON object.
    public func load(_ location: StorageLocation) async throws(StorageError) -> StoredDocument? {
        try location.checked()
        try faults.read(location)
        let key = key(of: location)
        return try locked { () throws(StorageError) -> StoredDocument? in try read(key, location)?.document }
    }

    /// Applies a batch under the storage's lock, all or none.
    ///
    /// - Parameter changes: The changes.
    /// - Returns: One version per change.
    /// - Throws: ``StorageError`` with ``StorageError/Code/conflict``.
    public func commit(_ changes: [DocumentChange]) async throws(StorageError) -> [StorageVersion?] {
        try DocumentChange.check(changes)
        let keys = changes.map { key(of: $0.location) }
        let encoded = changes.map { change -> String? in
            if case .save(let preferences) = change.action { return preferences.jsonString() }
            return nil
        }
        return try locked { () throws(StorageError) -> [StorageVersion?] in
            for (change, key) in zip(changes, keys) {
                let current: StorageVersion?
                do throws(StorageError) {
                    current = try read(key, change.location)?.version
                } catch {
                    guard error.code == .corruptDocument else { throw error }
                    current = error.version
                }
                guard current == change.expected else { throw StorageError.conflict(change.location) }
            }
            for change in changes where change.action != .verify { try faults.step(change.location) }
            var versions: [StorageVersion?] = []
            for (index, change) in changes.enumerated() {
                switch change.action {
                case .save:
                    let version = Self.newVersion()
                    defaults.set(
                        ["json": encoded[index] ?? "{}", "version": version.rawValue], forKey: keys[index])
                    versions.append(version)
                case .remove:
                    defaults.removeObject(forKey: keys[index])
                    versions.append(nil)
                case .verify:
                    versions.append(change.expected)
                }
            }
            recordJournal(changes)
            return versions
        }
    }

    /// Copies damaged data to `<prefix>.corrupt/<milliseconds>/<location>` and puts
    /// `replacement` (or nothing) in its place.
    ///
    /// - Parameters:
    ///   - location: Where the damaged data is.
    ///   - version: Its version.
    ///   - replacement: What the key holds afterwards.
    /// - Returns: The key the data went to, and the replacement's version.
    /// - Throws: ``StorageError`` with ``StorageError/Code/conflict``.
    public func quarantine(
        _ location: StorageLocation, expecting version: StorageVersion, replacement: Preferences?
    )
        async throws(StorageError) -> Quarantine
    {
        try location.checked()
        let key = key(of: location)
        let json = replacement?.jsonString()
        return try locked { () throws(StorageError) -> Quarantine in
            let current: StorageVersion?
            do throws(StorageError) { current = try read(key, location)?.version } catch {
                guard error.code == .corruptDocument else { throw error }
                current = error.version
            }
            guard current == version, let value = defaults.object(forKey: key) else {
                throw StorageError.conflict(location)
            }
            try faults.step(location)
            let milliseconds = Milliseconds.now()
            let aside =
                "\(keyPrefix).corrupt/\(milliseconds)/"
                + String(decoding: key.utf8.dropFirst(keyPrefix.utf8.count + 1), as: UTF8.self)
            defaults.set(value, forKey: aside)
            guard let json else {
                defaults.removeObject(forKey: key)
                return Quarantine(movedTo: aside, version: nil)
            }
            let next = Self.newVersion()
            defaults.set(["json": json, "version": next.rawValue], forKey: key)
            return Quarantine(movedTo: aside, version: next)
        }
    }

    /// Removes every document, sync's records and the device document included, and the damaged
    /// data set aside under `<prefix>.corrupt/`: for a reset or an account's deletion.
    ///
    /// - Throws: ``StorageError``.
    public func removeAll() async throws(StorageError) {
        try await removeEveryDocument()
        let prefixes = [keyPrefix + ".corrupt/", journalPrefix]
        lock.withLock {
            for key in defaults.dictionaryRepresentation().keys
            where prefixes.contains(where: { key.utf8.starts(with: $0.utf8) }) {
                defaults.removeObject(forKey: key)
            }
        }
    }

    /// Puts a raw value under a location's key, as a hand edit would: for tests of damaged data.
    /// What ``quarantine(_:expecting:replacement:)`` set aside under a key, as the bytes of its
    /// `json`, for the conformance suite.
    package func setAside(_ key: String) -> Data? {
        lock.withLock {
            guard let value = defaults.object(forKey: key) else { return nil }
            if let record = value as? [String: Any], let json = record["json"] as? String {
                return Data(json.utf8)
            }
            if let text = value as? String { return Data(text.utf8) }
            return value as? Data
        }
    }

    package func plant(_ value: Any, at location: StorageLocation) {
        lock.withLock { defaults.set(value, forKey: key(of: location)) }
    }

    // MARK: - Listing

    /// A page of the identifiers of a configurable's profiles or publications with a document
    /// of `kind`.
    ///
    /// - Parameters:
    ///   - kind: Which documents.
    ///   - configurable: The configurable.
    ///   - after: Only identifiers after this one; `nil` from the start.
    ///   - limit: The most to return; `nil` for all.
    /// - Returns: The identifiers, sorted by their UTF-8 bytes.
    /// - Throws: Never.
    public func names(of kind: StorageKind, configurable: String, after: String?, limit: Int?)
        async throws(StorageError) -> [String]
    {
        try StorageLocation.checkConfigurable(configurable)
        try faults.read(nil)
        let layer = (kind.isSnapshot ? "/sync/" : "/") + kind.layer("").code + "/"
        let prefix = keyPrefix + "/" + Self.encoded(configurable) + layer
        let identifiers = lock.withLock { Array(defaults.dictionaryRepresentation().keys) }.compactMap {
            key -> String? in
            guard key.utf8.starts(with: prefix.utf8) else { return nil }
            return Self.decoded(String(decoding: key.utf8.dropFirst(prefix.utf8.count), as: UTF8.self))
        }
        return StorageKind.page(identifiers, after: after, limit: limit)
    }

    /// The configurables with documents.
    ///
    /// - Returns: Their identifiers, sorted by their UTF-8 bytes.
    /// - Throws: Never.
    public func configurables() async throws(StorageError) -> [String] {
        try faults.read(nil)
        let prefix = keyPrefix + "/"
        var names = Set<String>()
        for key in lock.withLock({ Array(defaults.dictionaryRepresentation().keys) })
        where key.utf8.starts(with: prefix.utf8) {
            let rest = key.utf8.dropFirst(prefix.utf8.count)
            // `device`, `sync-state` and `sync-lease` have no `/`.
            guard let slash = rest.firstIndex(of: UInt8(ascii: "/")),
                let name = Self.decoded(String(decoding: rest[..<slash], as: UTF8.self))
            else { continue }
            names.insert(name)
        }
        return StorageKind.page(Array(names), after: nil, limit: nil)
    }

    // MARK: - Keys

    /// The key of a location: `<prefix>/device`, `<prefix>/sync-state`, `<prefix>/sync-lease`,
    /// or `<prefix>/<configurable>/<layer>` with `sync/` before the layer of a snapshot; the
    /// configurable and the ids percent-encoded, so canonically equivalent identifiers (`café`
    /// composed and decomposed) get keys of their own.
    func key(of location: StorageLocation) -> String {
        switch location {
        case .device: return keyPrefix + "/device"
        case .syncState: return keyPrefix + "/sync-state"
        case .syncLease: return keyPrefix + "/sync-lease"
        case .replicaClock: return keyPrefix + "/replica-clock"
        case .layer(let configurable, let layer):
            return keyPrefix + "/" + Self.encoded(configurable) + "/" + Self.path(of: layer)
        case .syncSnapshot(let configurable, let layer):
            return keyPrefix + "/" + Self.encoded(configurable) + "/sync/" + Self.path(of: layer)
        }
    }

    private static func path(of layer: StoreLayer) -> String {
        layer.identifier.map { layer.code + "/" + encoded($0) } ?? layer.code
    }

    /// Percent-encodes every UTF-8 byte but ASCII letters, digits, `-`, `.` and `_`.
    package static func encoded(_ text: String) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        let digits = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"):
                result.append(byte)
            default:
                result += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The text ``encoded(_:)`` encoded, or `nil` when it is not such an encoding.
    package static func decoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        func hex(_ byte: UInt8?) -> UInt8? {
            switch byte {
            case .some(let b) where b >= 0x30 && b <= 0x39: return b - 0x30
            case .some(let b) where b >= 0x41 && b <= 0x46: return b - 0x41 + 10
            default: return nil
            }
        }
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = hex(iterator.next()), let low = hex(iterator.next()) else { return nil }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(data: Data(bytes), encoding: .utf8)
    }

    // MARK: - Values

    /// Runs `body` under the storage's lock.
    func locked<T>(_ body: () throws(StorageError) -> T) throws(StorageError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The document under a key, with its version; damaged data is reported with a version of
    /// its own.
    func read(_ key: String, _ location: StorageLocation) throws(StorageError) -> (
        document: StoredDocument, version: StorageVersion
    )? {
        guard let value = defaults.object(forKey: key) else { return nil }
        if let record = value as? [String: Any], let json = record["json"] as? String,
            let version = record["version"] as? String
        {
            do throws(JSONDecodingError) {
                // A sidecar holds a value three levels down: the same values a document holds one
                // level down (SyncEntry.maximumValueDepth).
                let options =
                    location.isLayer || location == .device
                    ? JSONParsingOptions()
                    : JSONParsingOptions(maxDepth: 3 + SyncEntry.maximumValueDepth, maxSize: 256 << 20)
                let preferences = try Preferences(json: json, options: options)
                let stored = StorageVersion(version)
                return (StoredDocument(preferences: preferences, version: stored), stored)
            } catch {
                throw StorageError(
                    .corruptDocument, location: location,
                    message: "\(key) is not a JSON object (\(error.description))",
                    version: StorageVersion(version))
            }
        }
        throw StorageError(
            .corruptDocument, location: location, message: "\(key) does not hold a document",
            version: ContentVersion.of(Data(String(describing: value).utf8)))
    }

    private static func newVersion() -> StorageVersion {
        StorageVersion(UUID().uuidString.lowercased())
    }
}
