extension EPUB {
    /// What EPUB resolution derives besides the setting values (Specs/Resolution.md §4 steps 4 and 5): the
    /// stylesheet variant and whether scroll is forced.
    ///
    /// Read them from resolved settings as ``ResolvedSettings/stylesheets`` and
    /// ``ResolvedSettings/isScrollForced``.
    public struct Derived: DerivedSettings {
        /// The Readium CSS stylesheet variant.
        public var stylesheets: StylesheetVariant
        /// Whether the environment forces scroll (a screen reader runs): scroll's "no
        /// forceScroll" condition. Vertical text also forces scroll, as a condition of its own.
        public var isScrollForced: Bool

        /// The state before resolution: the default stylesheets, scroll not forced.
        public init() {
            stylesheets = .default
            isScrollForced = false
        }

        /// Whether `stylesheets(...)` or `scrollForced(...)` holds.
        ///
        /// - Parameter condition: The condition.
        /// - Returns: `true` when the derived value is one of the condition's values.
        public func holds(_ condition: DerivedCondition) -> Bool {
            switch condition.name {
            case Self.stylesheetsName: return condition.values.contains(stylesheets.rawValue)
            case Self.scrollForcedName: return condition.values.contains(isScrollForced ? "true" : "false")
            default: return false
            }
        }

        /// `needsStylesheet(...)` or `forcedScroll` (Specs/Settings.md §8).
        ///
        /// - Parameter condition: The condition that does not hold.
        /// - Returns: The reason.
        public func reason(_ condition: DerivedCondition) -> IneffectiveReason {
            switch condition.name {
            case Self.stylesheetsName:
                return .needsStylesheet(condition.values.compactMap(StylesheetVariant.init(rawValue:)))
            case Self.scrollForcedName: return .forcedScroll
            default: return NoDerivedSettings().reason(condition)
            }
        }

        /// The stylesheet variant follows the book's language and direction: a setting that needs
        /// another variant cannot apply to this book. Forced scroll follows the device.
        ///
        /// - Parameter condition: A condition.
        /// - Returns: `true` for `stylesheets(...)`.
        public func isDecidedByPublication(_ condition: DerivedCondition) -> Bool {
            condition.name == Self.stylesheetsName
        }

        static let stylesheetsName = "stylesheets"
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
}
