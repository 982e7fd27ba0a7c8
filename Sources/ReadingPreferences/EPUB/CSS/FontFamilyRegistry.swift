/// The font families an app offers, with their alternates and optional `@font-face` rules,
/// used to build `--USER__fontFamily` stacks (SPEC 8).
///
/// ```swift
/// var fonts = FontFamilyRegistry()
/// fonts.register(.init(name: "Literata", alternates: ["Georgia"]))
/// fonts.register(.init(name: "Georgia", alternates: ["serif"]))
/// fonts.stack(for: "Literata")   // ["Literata", "Georgia", "serif"]
/// ```
///
/// No family is registered by default: with an empty registry the stack is the chosen name alone.
public struct FontFamilyRegistry: Sendable, Hashable, Codable {
    /// A registered family.
    public struct Entry: Sendable, Hashable, Codable {
        /// The family name.
        public var name: String
        /// Families to fall back to, in order; each may have its own alternates.
        public var alternates: [String]
        /// An optional `@font-face` rule that provides the family.
        public var fontFace: String?

        /// Creates an entry.
        public init(name: String, alternates: [String] = [], fontFace: String? = nil) {
            self.name = name
            self.alternates = alternates
            self.fontFace = fontFace
        }
    }

    /// The entries, in registration order.
    public private(set) var entries: [Entry]

    /// Creates a registry.
    public init(_ entries: [Entry] = []) {
        self.entries = []
        for entry in entries { register(entry) }
    }

    /// Registers a family, replacing an earlier entry of the same name.
    public mutating func register(_ entry: Entry) {
        if let index = entries.firstIndex(where: { $0.name == entry.name }) {
            entries[index] = entry
        } else {
            entries.append(entry)
        }
    }

    /// The entry of a family.
    public func entry(named name: String) -> Entry? {
        entries.first { $0.name == name }
    }

    /// The family followed by its alternates, resolved recursively depth-first; each name appears
    /// once, so a cycle cannot loop.
    public func stack(for family: String) -> [String] {
        var result: [String] = []
        var pending = [family]
        // An explicit stack (last in, first out) keeps the depth-first order without recursion.
        while let name = pending.popLast() {
            guard !result.contains(name) else { continue }
            result.append(name)
            if let alternates = entry(named: name)?.alternates {
                pending.append(contentsOf: alternates.reversed())
            }
        }
        return result
    }

    /// The `--USER__fontFamily` value for a family: its stack, quoted where needed, joined by `", "`.
    public func cssValue(for family: String) -> String {
        // With no alternates registered for it, the stack is the name alone.
        guard let entry = entry(named: family), !entry.alternates.isEmpty else { return Self.cssName(family) }
        return stack(for: family).map(Self.cssName).joined(separator: ", ")
    }

    /// The `@font-face` rules of the registered families, joined by newlines.
    public var fontFaceCSS: String {
        entries.compactMap(\.fontFace).joined(separator: "\n")
    }

    static let genericFamilies: Set<String> = [
        "serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui",
    ]

    /// A family name as CSS: bare when generic or an identifier (`-?[A-Za-z_][A-Za-z0-9_-]*`),
    /// otherwise in double quotes with `\` and `"` escaped.
    static func cssName(_ name: String) -> String {
        if isIdentifier(name) || genericFamilies.contains(name) { return name }
        var quoted = "\""
        for character in name.unicodeScalars {
            if character == "\\" || character == "\"" { quoted.unicodeScalars.append("\\") }
            quoted.unicodeScalars.append(character)
        }
        return quoted + "\""
    }

    private static func isIdentifier(_ name: String) -> Bool {
        var bytes = name.utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard let first = bytes.first, isLetter(first) || first == UInt8(ascii: "_") else { return false }
        return bytes.dropFirst().allSatisfy {
            isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
