extension JSONStringTable {
    /// The keys, aliases and choice values of the built-in configurables (EPUB, PDF, audio, TTS)
    /// and the store's reserved keys: decoding preferences shares these strings rather than
    /// building a new one for each (Specs/Preferences.md §3.2). Any other string is built as usual.
    static let vocabulary = JSONStringTable(
        ConfigurableKind.allCases.flatMap { kind in
            kind.catalogue.descriptors.flatMap { descriptor -> [String] in
                var strings = descriptor.storedKeys
                if case .enumeration(let cases) = descriptor.coder { strings += cases }
                strings += (descriptor.supportedValues ?? []).compactMap(\.stringValue)
                return strings
            }
        } + ["$id", "$name"])
}
