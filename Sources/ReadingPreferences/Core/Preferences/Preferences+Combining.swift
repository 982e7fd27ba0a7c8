extension Preferences {
    /// Returns these preferences with `other`'s keys written over them (Specs/Settings.md §5).
    ///
    /// Keys only in `self` survive; the order is `self`'s keys in order, then the new keys of
    /// `other` in order.
    ///
    /// ```swift
    /// let merged = shared.merging(publication)
    /// ```
    public func merging(_ other: Preferences) -> Preferences {
        var result = self
        result.merge(other)
        return result
    }

    /// Writes `other`'s keys over these preferences; see ``merging(_:)``.
    public mutating func merge(_ other: Preferences) {
        guard !other.isEmpty else { return }
        guard !isEmpty else {
            members = other.members
            return
        }
        // Taken out, so that the builder holds the only reference and appends in place.
        var taken: [JSONObject.Member] = []
        swap(&taken, &members)
        var builder = JSONObjectBuilder(uniqueMembers: consume taken)
        for member in other.members { _ = builder.insert(key: member.key, value: member.value) }
        members = builder.members
    }

    /// Keeps only the given keys (unknown keys follow the same rule).
    public func filter(keys: some Sequence<String>) -> Preferences {
        let kept = JSONKeySet(keys)
        var result = self
        result.members.removeAll { !kept.contains($0.key) }
        return result
    }

    /// Drops the given keys.
    public func filterNot(keys: some Sequence<String>) -> Preferences {
        let dropped = JSONKeySet(keys)
        var result = self
        result.members.removeAll { dropped.contains($0.key) }
        return result
    }

    /// Keeps only the keys of the given descriptors.
    public func filter(_ settings: [SettingDescriptor]) -> Preferences {
        filter(keys: settings.map(\.key))
    }

    /// Drops the keys of the given descriptors.
    public func filterNot(_ settings: [SettingDescriptor]) -> Preferences {
        filterNot(keys: settings.map(\.key))
    }

    /// Applies a JSON merge patch (RFC 7396): a `null` member removes the key, an object member
    /// is merged recursively into an object value, anything else replaces the value.
    ///
    /// ```swift
    /// let patched = preferences.applying(mergePatch: ["theme": nil, "fontSize": 1.4])
    /// ```
    public func applying(mergePatch patch: JSONObject) -> Preferences {
        var result = Preferences()
        result.members = Self.merge(patch, into: members)
        return result
    }

    /// RFC 7396 on members, in linear time: removals leave tombstones that are compacted once.
    private static func merge(_ patch: JSONObject, into target: [JSONObject.Member]) -> [JSONObject.Member] {
        var builder = JSONObjectBuilder(uniqueMembers: target)
        for member in patch.members {
            switch member.value {
            case .null:
                builder.removeValue(forKey: member.key)
            case .object(let patchObject):
                let nested = builder.value(forKey: member.key)?.objectValue?.members ?? []
                let merged = merge(patchObject, into: nested)
                _ = builder.insert(key: member.key, value: .object(JSONObject(uniqueMembers: merged)))
            default:
                _ = builder.insert(key: member.key, value: member.value)
            }
        }
        return builder.members
    }
}
