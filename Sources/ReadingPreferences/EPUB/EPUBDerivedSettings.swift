extension EPUB {
    /// What EPUB resolution derives besides the setting values (Specs/Resolution.md §4 steps 4 and 5): the
    /// stylesheet variant, whether scroll is forced, and the Readium CSS it is written for.
    ///
    /// Read them from resolved settings as ``ResolvedSettings/stylesheets``,
    /// ``ResolvedSettings/isScrollForced`` and ``ResolvedSettings/readiumCSSVersion``.
    public struct Derived: DerivedSettings {
        /// The Readium CSS stylesheet variant.
        public var stylesheets: StylesheetVariant
        /// Whether the environment forces scroll (a screen reader runs): scroll's "no
        /// forceScroll" condition. Vertical text also forces scroll, as a condition of its own.
        public var isScrollForced: Bool
        /// The Readium CSS the navigator ships (the environment's): which user settings each
        /// stylesheet variant applies, and what the CSS output is written for.
        public var readiumCSS: ReadiumCSSVersion

        /// The state before resolution: the default stylesheets, scroll not forced, Readium CSS 1.
        public init() {
            stylesheets = .default
            isScrollForced = false
            readiumCSS = .v1
        }

        /// Whether `stylesheets(...)`, `readiumCSS(...)` or `scrollForced(...)` holds.
        ///
        /// - Parameter condition: The condition.
        /// - Returns: `true` when the derived value is one of the condition's values.
        public func holds(_ condition: DerivedCondition) -> Bool {
            switch condition.name {
            case Self.stylesheetsName: return condition.values.contains(stylesheets.rawValue)
            case Self.readiumCSSName:
                // Every named Readium CSS setting is applied by the variant's stylesheets.
                return condition.values.allSatisfy { name in
                    ReadiumCSSSupport.Feature(rawValue: name).map {
                        ReadiumCSSSupport.applies($0, in: stylesheets, version: readiumCSS)
                    } ?? false
                }
            case Self.scrollForcedName: return condition.values.contains(isScrollForced ? "true" : "false")
            default: return false
            }
        }

        /// `needsStylesheet(...)`, `notInReadiumCSS(...)` or `forcedScroll` (Specs/Settings.md §8).
        ///
        /// - Parameter condition: The condition that does not hold.
        /// - Returns: The reason.
        public func reason(_ condition: DerivedCondition) -> IneffectiveReason {
            switch condition.name {
            case Self.stylesheetsName:
                return .needsStylesheet(condition.values.compactMap(StylesheetVariant.init(rawValue:)))
            case Self.readiumCSSName:
                let features = condition.values.compactMap(ReadiumCSSSupport.Feature.init(rawValue:))
                var variants = StylesheetVariant.allCases
                for feature in features {
                    let applying = ReadiumCSSSupport.variants(of: feature, version: readiumCSS)
                    variants.removeAll { !applying.contains($0) }
                }
                return variants.isEmpty || features.count != condition.values.count
                    ? .notInReadiumCSS(readiumCSS) : .needsStylesheet(variants)
            case Self.scrollForcedName: return .forcedScroll
            default: return NoDerivedSettings().reason(condition)
            }
        }

        /// The stylesheet variant follows the book's language and direction: a setting that needs
        /// another variant, or a feature the book's stylesheets lack in the app's Readium CSS,
        /// cannot apply to this book. Forced scroll follows the device.
        ///
        /// - Parameter condition: A condition.
        /// - Returns: `true` for `stylesheets(...)` and `readiumCSS(...)`.
        public func isDecidedByPublication(_ condition: DerivedCondition) -> Bool {
            condition.name == Self.stylesheetsName || condition.name == Self.readiumCSSName
        }

        static let stylesheetsName = "stylesheets"
        static let readiumCSSName = "readiumCSS"
        static let scrollForcedName = "scrollForced"
    }
}

extension SettingCondition {
    /// The resolved stylesheet variant is one of these (EPUB, Specs/Resolution.md §5 "SS(...)").
    ///
    /// - Parameter variants: The accepted variants.
    /// - Returns: The condition.
    public static func stylesheets(_ variants: [EPUB.StylesheetVariant]) -> SettingCondition {
        .derived(DerivedCondition(EPUB.Derived.stylesheetsName, values: variants.map(\.rawValue)))
    }

    /// The stylesheets of the resolved variant apply this Readium CSS user setting, in the
    /// Readium CSS the environment names (EPUB, Specs/Resolution.md §5.2 "SS(...)"). The name is
    /// Readium CSS's own (`bodyHyphens`, `a11yNormalize`, `paraIndent`...).
    ///
    /// - Parameter name: The Readium CSS user setting.
    /// - Returns: The condition.
    public static func readiumCSS(_ name: String) -> SettingCondition {
        .derived(DerivedCondition(EPUB.Derived.readiumCSSName, values: [name]))
    }

    /// The environment does not force scroll (EPUB, Specs/Resolution.md §5 "no forceScroll"); vertical text is
    /// a condition of its own.
    public static var scrollNotForced: SettingCondition {
        .derived(DerivedCondition(EPUB.Derived.scrollForcedName, values: ["false"]))
    }
}

extension IneffectiveReason {
    /// The stylesheet variant must be one of these (EPUB): `needsStylesheet(default)`.
    ///
    /// - Parameter variants: The variants the setting needs.
    /// - Returns: The reason.
    public static func needsStylesheet(_ variants: [EPUB.StylesheetVariant]) -> IneffectiveReason {
        let names = variants.map(\.rawValue)
        return .custom(
            code: "needsStylesheet", arguments: names,
            text: "Only with the \(names.joined(separator: " or ")) stylesheet")
    }

    /// The navigator's Readium CSS has no such user setting in any stylesheet (EPUB, Readium CSS 2
    /// has no page margins nor type scale): `notInReadiumCSS(2)`.
    ///
    /// - Parameter version: The Readium CSS the navigator ships.
    /// - Returns: The reason.
    public static func notInReadiumCSS(_ version: ReadiumCSSVersion) -> IneffectiveReason {
        .custom(
            code: "notInReadiumCSS", arguments: [String(version.rawValue)],
            text: "Not applied by \(version)")
    }

    /// Scroll is forced by vertical text or a screen reader (EPUB): `forcedScroll`.
    public static var forcedScroll: IneffectiveReason {
        .custom(code: "forcedScroll", arguments: [], text: "Scroll is forced")
    }
}

extension ResolvedSettings where Schema == EPUB {
    /// The Readium CSS stylesheet variant (Specs/Resolution.md §4 step 5).
    public var stylesheets: EPUB.StylesheetVariant { derived.stylesheets }

    /// Whether the environment forces scroll (Specs/Resolution.md §4 step 4, `forceScroll`); vertical text
    /// forces it too, and shows in the resolved `verticalText` setting.
    public var isScrollForced: Bool { derived.isScrollForced }

    /// The Readium CSS these settings were resolved for (the environment's): what
    /// ``readiumCSS()`` writes for and effectiveness follows (Specs/Resolution.md §5.2).
    public var readiumCSSVersion: ReadiumCSSVersion { derived.readiumCSS }
}
