extension Preferences {
    /// Returns these preferences with `other`'s keys written over them (SPEC 3.4).
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
        for member in other.members { self[member.key] = member.value }
    }

    /// Keeps only the given keys (unknown keys follow the same rule).
    public func filter(keys: some Sequence<String>) -> Preferences {
        let kept = Array(keys)
        var result = self
        result.members.removeAll { member in !kept.contains { $0.isScalarEqual(to: member.key) } }
        return result
    }

    /// Drops the given keys.
    public func filterNot(keys: some Sequence<String>) -> Preferences {
        let dropped = Array(keys)
        var result = self
        result.members.removeAll { member in dropped.contains { $0.isScalarEqual(to: member.key) } }
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
        var result = self
        for member in patch.members {
            switch (member.value, result[member.key]) {
            case (.null, _):
                result[member.key] = nil
            case (.object(let patchObject), .object(let target)?):
                result[member.key] = .object(Self.merge(patchObject, into: target))
            case (.object(let patchObject), _):
                result[member.key] = .object(Self.merge(patchObject, into: JSONObject()))
            default:
                result[member.key] = member.value
            }
        }
        return result
    }

    private static func merge(_ patch: JSONObject, into target: JSONObject) -> JSONObject {
        var result = target
        for member in patch.members {
            switch (member.value, result[member.key]) {
            case (.null, _):
                result[member.key] = nil
            case (.object(let patchObject), .object(let nested)?):
                result[member.key] = .object(merge(patchObject, into: nested))
            case (.object(let patchObject), _):
                result[member.key] = .object(merge(patchObject, into: JSONObject()))
            default:
                result[member.key] = member.value
            }
        }
        return result
    }
}
