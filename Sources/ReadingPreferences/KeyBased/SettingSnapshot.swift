/// One setting of an editor, in JSON terms: what is stored, what applies, and why it does not
/// take effect (Specs/Resolution.md §1).
///
/// A snapshot is what an inspector or a debug screen shows per setting, whatever the
/// configurable; read them from ``AnyPreferencesEditor/snapshots``:
///
/// ```swift
/// for setting in editor.snapshots {
///     print(setting.key, setting.storedJSON ?? "-", setting.effectiveJSON ?? "-",
///           setting.isEffective ? "yes" : setting.reasons.map(\.description).joined(separator: ", "))
/// }
/// ```
public struct SettingSnapshot: Sendable, Hashable {
    /// The setting's key.
    public var key: String
    /// The setting's kind; ``SettingKind/isRange`` tells whether ``formattedValue`` is meaningful.
    public var kind: SettingKind
    /// The title shown to people, or `nil` for a hidden setting.
    public var title: String?
    /// The stored preference, verbatim (also when it cannot be decoded); `nil` when unset.
    public var storedJSON: JSONValue?
    /// The effective value (what the navigator uses, Specs/Resolution.md §5) in the setting's canonical JSON;
    /// `nil` when there is none.
    public var effectiveJSON: JSONValue?
    /// The effective value formatted for people (Specs/Settings.md §7), such as `"120%"`; empty when there
    /// is none.
    public var formattedValue: String
    /// Whether the setting takes effect (Specs/Settings.md §4).
    public var isEffective: Bool
    /// Why the setting does not take effect; empty when it does.
    public var reasons: [IneffectiveReason]

    /// Creates a snapshot.
    ///
    /// - Parameters:
    ///   - key: The setting's key.
    ///   - kind: The setting's kind.
    ///   - title: The title, or `nil` for a hidden setting.
    ///   - storedJSON: The stored preference, or `nil` when unset.
    ///   - effectiveJSON: The effective value as JSON, or `nil` when there is none.
    ///   - formattedValue: The formatted effective value.
    ///   - isEffective: Whether the setting takes effect.
    ///   - reasons: Why it does not.
    public init(
        key: String, kind: SettingKind, title: String?, storedJSON: JSONValue?, effectiveJSON: JSONValue?,
        formattedValue: String, isEffective: Bool, reasons: [IneffectiveReason]
    ) {
        self.key = key
        self.kind = kind
        self.title = title
        self.storedJSON = storedJSON
        self.effectiveJSON = effectiveJSON
        self.formattedValue = formattedValue
        self.isEffective = isEffective
        self.reasons = reasons
    }
}

extension PreferenceHandle where Value == SettingValue {
    /// The handle as a snapshot, with the effective value encoded by the setting's coder.
    public var snapshot: SettingSnapshot {
        SettingSnapshot(
            key: descriptor.key, kind: descriptor.kind, title: descriptor.title, storedJSON: storedJSON,
            effectiveJSON: effectiveValue.map { descriptor.coder.encode($0) },
            formattedValue: formattedValue(),
            isEffective: isEffective, reasons: reasons)
    }
}
