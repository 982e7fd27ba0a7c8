extension EPUB {
    /// The reading theme (Specs/Resolution.md §4 step 7, §5).
    public enum Theme: String, SettingEnumeration, Codable {
        /// Dark text (#121212) on white.
        case light
        /// Light text (#FEFEFE) on black.
        case dark
        /// Dark text (#121212) on sepia paper (#FAF4E8).
        case sepia

        /// The theme's text color.
        public var textColor: RGBColor {
            self == .dark
                ? RGBColor(red: 0xFE, green: 0xFE, blue: 0xFE) : RGBColor(red: 0x12, green: 0x12, blue: 0x12)
        }

        /// The theme's background color.
        public var backgroundColor: RGBColor {
            switch self {
            case .light: return RGBColor(red: 0xFF, green: 0xFF, blue: 0xFF)
            case .dark: return RGBColor(red: 0, green: 0, blue: 0)
            case .sepia: return RGBColor(red: 0xFA, green: 0xF4, blue: 0xE8)
            }
        }
    }

    /// The number of columns in paginated mode.
    public enum ColumnCount: String, SettingEnumeration, Codable {
        /// Chosen by the navigator from the viewport.
        case auto
        /// One column.
        case one = "1"
        /// Two columns.
        case two = "2"
    }

    /// How a fixed-layout page fits the viewport.
    public enum Fit: String, SettingEnumeration, Codable {
        /// Chosen by the navigator.
        case auto
        /// The whole page is visible.
        case page
        /// The page width fills the viewport.
        case width
    }

    /// A filter applied to images in dark mode.
    public enum ImageFilter: String, SettingEnumeration, Codable {
        /// Darkens images.
        case darken
        /// Inverts images.
        case invert
    }

    /// The direction pages progress in.
    public enum ReadingProgression: String, SettingEnumeration, Codable {
        /// Left to right.
        case ltr
        /// Right to left.
        case rtl
    }

    /// When two pages are shown side by side in fixed layout.
    public enum Spread: String, SettingEnumeration, Codable {
        /// Chosen by the navigator from the viewport.
        case auto
        /// Never.
        case never
        /// Always.
        case always
    }

    /// The alignment of text.
    public enum TextAlign: String, SettingEnumeration, Codable {
        /// The start edge of the reading direction.
        case start
        /// The left edge.
        case left
        /// The right edge.
        case right
        /// Both edges.
        case justify
    }
}
