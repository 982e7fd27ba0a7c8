extension EPUB {
    /// What a navigator must do when its settings change (Specs/CSS.md §1.8).
    public enum SettingsChange: Sendable, Hashable {
        /// Nothing visible changed.
        case none
        /// The publication must be laid out again, because of these keys.
        case relayout(keys: [String])
        /// Only styles changed: set these properties and remove those names.
        case restyle(set: [CSSProperty], remove: [String])
    }

    /// The keys whose change needs a new layout rather than new styles.
    public static let relayoutKeys = [
        "readingProgression", "language", "verticalText", "scroll", "spread", "fit", "offsetFirstPage",
    ]

    /// Classifies the change from `old` to `new` settings (Specs/CSS.md §1.8): a relayout when any of
    /// ``relayoutKeys`` changed, otherwise the exact CSS properties to set and to remove.
    ///
    /// ```swift
    /// switch EPUB.change(from: previous, to: editor.settings) {
    /// case .relayout: reload()
    /// case .restyle(let set, let remove): apply(set, remove)
    /// case .none: break
    /// }
    /// ```
    public static func change(
        from old: Settings, to new: Settings, options: ReadiumCSSOptions = ReadiumCSSOptions()
    ) -> SettingsChange {
        let changedKeys = relayoutKeys.filter { old[key: $0] != new[key: $0] }
        if !changedKeys.isEmpty || old.layout != new.layout {
            return .relayout(keys: changedKeys)
        }
        let before = old.readiumCSS(options: options)
        let after = new.readiumCSS(options: options)
        let set = after.properties.filter { before[$0.name] != $0.value }
        let remove = before.names.filter { after[$0] == nil }
        if set.isEmpty && remove.isEmpty { return .none }
        return .restyle(set: set, remove: remove)
    }
}
