/// One CSS custom property or declaration, such as `--USER__fontSize: 150%`.
public struct CSSProperty: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The property name, such as `--USER__fontSize`.
    public var name: String
    /// The property value, such as `150%`.
    public var value: String

    /// Creates a property.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// `name: value !important;`, as written in an inline style.
    public var declaration: String { name + ": " + value + " !important;" }

    /// `name: value`.
    public var description: String { name + ": " + value }
}
