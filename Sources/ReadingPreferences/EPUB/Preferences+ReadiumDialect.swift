import Foundation

/// A Readium toolkit whose stored JSON an export must be readable by (Specs/CSS.md §2.2).
public enum ReadiumDialect: String, Sendable, Hashable, Codable, CaseIterable {
    /// Readium's Swift toolkit: colors as non-negative `0xRRGGBB` integers.
    case readiumSwift
    /// Readium's Kotlin toolkit: colors as negative ARGB integers, and no `spread: auto`.
    case readiumKotlin
}

extension Preferences {
    /// Encodes these preferences so that a Readium toolkit can decode them, and lists what it
    /// dropped (Specs/CSS.md §2.2): only the keys the schema declares, with values it can decode, no `$`
    /// keys, colors as integers, and for Kotlin no `spread: auto`.
    ///
    /// ```swift
    /// let (data, dropped) = preferences.encoded(dialect: .readiumKotlin, for: EPUB.self)
    /// ```
    public func encoded<Schema: SettingsSchema>(
        dialect: ReadiumDialect, for schema: Schema.Type, options: JSONEncodingOptions = .init()
    ) -> (data: Data, dropped: [String]) {
        let catalogue = Schema.catalogue
        var exported = Preferences()
        var dropped: [String] = []
        let colors: ColorEncoding = dialect == .readiumSwift ? .readiumSwift : .readiumKotlin
        for member in members {
            guard let descriptor = catalogue.descriptor(forKey: member.key),
                case .success(let value) = descriptor.coder.decode(member.value)
            else {
                dropped.append(member.key)
                continue
            }
            if dialect == .readiumKotlin, member.key == "spread", value == .string("auto") {
                dropped.append(member.key)
                continue
            }
            exported[member.key] = descriptor.coder.encode(value, colors: colors)
        }
        return (exported.jsonData(options: options), dropped)
    }
}
