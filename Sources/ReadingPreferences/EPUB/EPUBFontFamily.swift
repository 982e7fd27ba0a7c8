extension EPUB {
    /// The name of a font family, as stored in preferences (Specs/Settings.md §2: its name string).
    ///
    /// ```swift
    /// let family: EPUB.FontFamily = "Literata"
    /// ```
    public struct FontFamily: SettingValueConvertible, RawRepresentable, Codable, ExpressibleByStringLiteral,
        CustomStringConvertible
    {
        /// The family name, such as `"Literata"` or `"serif"`.
        public var rawValue: String

        /// Creates a family from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Creates a family from its name.
        public init(_ name: String) { self.rawValue = name }

        /// Creates a family from a string literal.
        public init(stringLiteral value: String) { self.rawValue = value }

        /// Creates a family from a string value.
        public init?(settingValue: SettingValue) {
            guard case .string(let value) = settingValue else { return nil }
            self.rawValue = value
        }

        /// The name as a string value.
        public var settingValue: SettingValue { .string(rawValue) }

        /// The family name.
        public var description: String { rawValue }

        /// The CSS generic `serif` family.
        public static let serif: FontFamily = "serif"
        /// The CSS generic `sans-serif` family.
        public static let sansSerif: FontFamily = "sans-serif"
        /// The CSS generic `monospace` family.
        public static let monospace: FontFamily = "monospace"
    }
}
