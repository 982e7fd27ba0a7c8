/// Accumulates object members, applying the duplicate-key rule: the last value wins, at the
/// position of the first occurrence. Keys can also be removed, so every bulk operation on
/// members (parsing, merging, merge patches, `Decoder` input) runs in linear time whatever the
/// keys.
///
/// Each key comes with a cheap fingerprint of its UTF-8 bytes (see `fingerprint(of:)`); two keys
/// are only compared byte by byte when their fingerprints match, which for a typical object of a
/// dozen distinct keys means never. Past `linearLimit` members a hash index, seeded per process
/// over the keys' bytes, keeps adversarial inputs (a million keys, shared prefixes, keys chosen
/// to collide) linear overall.
struct JSONObjectBuilder {
    static let linearLimit = 16

    private(set) var storage: [JSONObject.Member] = []
    private var fingerprints = JSONKeyFingerprints()
    private var index: JSONKeyIndex?
    /// Positions of removed members, which ``members`` leaves out; empty unless something was
    /// removed.
    private var removed: [Bool] = []
    private var removedCount = 0

    init(capacity: Int) {
        storage.reserveCapacity(capacity)
    }

    /// Starts from members whose keys are known to be unique.
    init(uniqueMembers: [JSONObject.Member]) {
        storage = uniqueMembers
        if uniqueMembers.count > Self.linearLimit {
            var index = JSONKeyIndex(capacity: uniqueMembers.count)
            for (position, member) in uniqueMembers.enumerated() {
                index.insert(position: position, hash: JSONKeyIndex.hash(member.key))
            }
            self.index = index
        } else {
            for member in uniqueMembers { fingerprints.append(Self.fingerprint(of: member.key)) }
        }
    }

    /// The members, in order, without the removed ones.
    var members: [JSONObject.Member] {
        guard removedCount > 0 else { return storage }
        var result: [JSONObject.Member] = []
        result.reserveCapacity(storage.count - removedCount)
        for (position, member) in storage.enumerated() where !removed[position] { result.append(member) }
        return result
    }

    /// Inserts a member; returns `true` when the key was already present (its value replaced).
    mutating func insert(key: String, value: JSONValue) -> Bool {
        insert(key: key, fingerprint: Self.fingerprint(of: key), value: value)
    }

    /// Inserts a member whose key's fingerprint is known; returns `true` when the key was
    /// already present (its value replaced).
    @inline(__always)
    mutating func insert(key: String, fingerprint: UInt64, value: consuming JSONValue) -> Bool {
        insertReportingPosition(key: key, fingerprint: fingerprint, value: value).existed
    }

    /// Inserts a member; returns its position in the storage and whether it was present.
    @inline(__always)
    mutating func insertReportingPosition(
        key: String, fingerprint: UInt64, value: consuming JSONValue
    ) -> (position: Int, existed: Bool) {
        let next = storage.count
        if index != nil {
            // Large objects: the key is hashed once, for the look-up and the insertion.
            let hash = JSONKeyIndex.hash(key)
            if let existing = index?.position(of: key, hash: hash, in: storage) {
                storage[existing].value = value
                return (existing, true)
            }
            index?.insert(position: next, hash: hash)
        } else {
            if let existing = position(of: key, fingerprint: fingerprint) {
                storage[existing].value = value
                return (existing, true)
            }
            if storage.count == Self.linearLimit {
                var newIndex = JSONKeyIndex(capacity: Self.linearLimit * 4)
                for (old, member) in storage.enumerated() where removed.isEmpty || !removed[old] {
                    newIndex.insert(position: old, hash: JSONKeyIndex.hash(member.key))
                }
                newIndex.insert(position: next, hash: JSONKeyIndex.hash(key))
                index = newIndex
                fingerprints.removeAll()
            } else {
                fingerprints.append(fingerprint)
            }
        }
        if !removed.isEmpty { removed.append(false) }
        storage.append(JSONObject.Member(key: key, value: value))
        return (next, false)
    }

    /// The value of a key, or `nil`.
    func value(forKey key: String) -> JSONValue? {
        position(of: key, fingerprint: Self.fingerprint(of: key)).map { storage[$0].value }
    }

    /// Removes a key; returns its value, or `nil` when it is absent.
    @discardableResult
    mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = position(of: key, fingerprint: Self.fingerprint(of: key)) else { return nil }
        if removed.isEmpty { removed = Array(repeating: false, count: storage.count) }
        removed[position] = true
        removedCount += 1
        if index != nil {
            index?.remove(position: position)
        } else {
            fingerprints.replace(at: position, with: Self.removedFingerprint)
        }
        return storage[position].value
    }

    @inline(__always)
    private func position(of key: String, fingerprint: UInt64) -> Int? {
        if let index { return index.position(of: key, hash: JSONKeyIndex.hash(key), in: storage) }
        return fingerprints.first(matching: fingerprint) { position in
            storage[position].key.isScalarEqual(to: key) && (removed.isEmpty || !removed[position])
        }
    }

    /// The fingerprint of a removed member in the linear scan: the `removed` flags settle any
    /// key that happens to share it.
    private static let removedFingerprint: UInt64 = .max

    /// The fingerprint of a key (see `fingerprint(of:)` on bytes).
    static func fingerprint(of key: String) -> UInt64 {
        var copy = key
        return copy.withUTF8 { fingerprint(of: $0) }
    }

    /// A summary of a key's UTF-8 bytes (``JSONKeyWords/fingerprint``): equal keys always have
    /// equal fingerprints, and distinct short keys almost never do. It costs a few loads, far
    /// less than a hash or a `String` comparison.
    @inline(__always)
    static func fingerprint(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        JSONKeyWords(bytes).fingerprint
    }
}
