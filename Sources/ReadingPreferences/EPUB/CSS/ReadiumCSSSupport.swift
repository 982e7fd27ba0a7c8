/// Which Readium CSS user settings each stylesheet variant applies, per Readium CSS version: the
/// rule behind every "SS(...)" of the EPUB catalogue (Specs/Resolution.md §5.2).
///
/// The names are Readium CSS's own, as its `css/vars/settings.json` writes them (`bodyHyphens`,
/// `a11yNormalize`, `paraIndent`...), plus `pageMargins` and `typeScale`, which Readium CSS 2 no
/// longer has. The Readium CSS 2 rows are that file's: the test suite reads it and fails when
/// they differ. The Readium CSS 1 rows are those of the stylesheets Readium's Swift and Kotlin
/// toolkits 3.x ship, which their editors follow.
enum ReadiumCSSSupport {
    /// A Readium CSS user setting, by its name in `settings.json`.
    enum Feature: String, Sendable, CaseIterable {
        case a11yNormalize, bodyHyphens, colCount, letterSpacing, ligatures, noRuby, pageMargins
        case paraIndent, textAlign, typeScale, wordSpacing
    }

    /// Whether the stylesheets of `variant` apply `feature` in Readium CSS `version`.
    static func applies(_ feature: Feature, in variant: EPUB.StylesheetVariant, version: ReadiumCSSVersion)
        -> Bool
    {
        variants(of: feature, version: version).contains(variant)
    }

    /// The variants whose stylesheets apply `feature`, in catalogue order; empty when the version
    /// has no such setting.
    static func variants(of feature: Feature, version: ReadiumCSSVersion) -> [EPUB.StylesheetVariant] {
        switch version {
        case .v1: return readiumCSS1(feature)
        case .v2: return readiumCSS2(feature)
        }
    }

    // Readium CSS 1: right-to-left stylesheets have no hyphenation, letter or word spacing, CJK
    // ones no alignment, indent or spacing, ligatures are the right-to-left stylesheet's alone,
    // and the a11y module is in the default build only.
    private static func readiumCSS1(_ feature: Feature) -> [EPUB.StylesheetVariant] {
        switch feature {
        case .a11yNormalize, .bodyHyphens, .letterSpacing, .wordSpacing: return [.default]
        case .ligatures: return [.rtl]
        case .paraIndent, .textAlign: return [.default, .rtl]
        case .colCount: return [.default, .rtl, .cjkHorizontal]
        case .noRuby: return [.cjkHorizontal, .cjkVertical]
        case .pageMargins, .typeScale: return EPUB.StylesheetVariant.allCases
        }
    }

    // Readium CSS 2.0.x, `css/vars/settings.json`: what each script mode disables and adds.
    private static func readiumCSS2(_ feature: Feature) -> [EPUB.StylesheetVariant] {
        switch feature {
        case .a11yNormalize, .bodyHyphens: return [.default]
        case .letterSpacing: return [.default, .cjkHorizontal, .cjkVertical]
        case .ligatures, .paraIndent, .textAlign, .wordSpacing: return [.default, .rtl]
        case .colCount: return [.default, .rtl, .cjkHorizontal]
        case .noRuby: return [.cjkHorizontal, .cjkVertical]
        case .pageMargins, .typeScale: return []
        }
    }
}
