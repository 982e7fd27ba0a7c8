/// One edit of preferences by key and JSON value, as tools, servers and conformance vectors
/// describe it (Specs/Settings.md §5, Specs/README.md §3).
///
/// An edit is data, so a web client can send it, a vector can list it, and the CLI can build it
/// from its arguments. Apply it with ``PreferencesEditor/apply(_:)``:
///
/// ```swift
/// var editor = EPUB.Editor(resolver: EPUB.Resolver())
/// try editor.apply(.set(key: "wordSpacing", value: 0.5))   // also writes publisherStyles: false
/// try editor.apply(.increment(key: "fontSize"))
/// try editor.apply(.toggleValue(key: "theme", value: "dark"))
/// ```
public enum PreferenceEdit: Sendable, Hashable, CustomStringConvertible {
    /// Sets a key from a JSON value; `nil` or `null` clears it. With `activate` (the default),
    /// the setting's automatic requirements are written too when it would not take effect.
    case set(key: String, value: JSONValue?, activate: Bool = true)
    /// Removes one declared key.
    case clear(key: String)
    /// Removes every key the configurable declares; unknown and reserved `$` keys stay.
    case clearAll
    /// Flips a toggle setting.
    case toggle(key: String)
    /// Removes an enum or color preference stored as `value`, or sets it to `value`.
    case toggleValue(key: String, value: JSONValue)
    /// Moves a range setting to its next step or by its increment (Specs/Settings.md §6).
    case increment(key: String)
    /// Moves a range setting to its previous step or back by its increment (Specs/Settings.md §6).
    case decrement(key: String)
    /// Adds `amount` to a range setting, ignoring steps, rounded like an increment.
    case adjustBy(key: String, amount: Double)
    /// Makes a setting effective by writing every requirement it can, or fails with
    /// `notActivatable` (Specs/Settings.md §4).
    case activate(key: String)

    /// The name of an edit's operation, as written in vectors and on the command line.
    ///
    /// ```swift
    /// PreferenceEdit.Operation(rawValue: "toggleValue")   // .toggleValue
    /// PreferenceEdit.Operation.adjustBy.needsValue        // true (the amount)
    /// ```
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        /// ``PreferenceEdit/set(key:value:activate:)``.
        case set
        /// ``PreferenceEdit/clear(key:)``.
        case clear
        /// ``PreferenceEdit/clearAll``.
        case clearAll
        /// ``PreferenceEdit/toggle(key:)``.
        case toggle
        /// ``PreferenceEdit/toggleValue(key:value:)``.
        case toggleValue
        /// ``PreferenceEdit/increment(key:)``.
        case increment
        /// ``PreferenceEdit/decrement(key:)``.
        case decrement
        /// ``PreferenceEdit/adjustBy(key:amount:)``.
        case adjustBy
        /// ``PreferenceEdit/activate(key:)``.
        case activate

        /// Whether the operation names a key (every operation except `clearAll`).
        public var needsKey: Bool { self != .clearAll }

        /// Whether the operation takes a value: `set` and `toggleValue` a JSON value, `adjustBy`
        /// its amount.
        public var needsValue: Bool { self == .set || self == .toggleValue || self == .adjustBy }

        /// The names of every operation, in declaration order, for messages and usage text.
        public static var allNames: [String] { allCases.map(\.rawValue) }
    }

    /// The edit's operation.
    public var operation: Operation {
        switch self {
        case .set: return .set
        case .clear: return .clear
        case .clearAll: return .clearAll
        case .toggle: return .toggle
        case .toggleValue: return .toggleValue
        case .increment: return .increment
        case .decrement: return .decrement
        case .adjustBy: return .adjustBy
        case .activate: return .activate
        }
    }

    /// The key the edit is about, or `nil` for `clearAll`.
    public var key: String? {
        switch self {
        case .set(let key, _, _), .clear(let key), .toggle(let key), .toggleValue(let key, _),
            .increment(let key), .decrement(let key), .adjustBy(let key, _), .activate(let key):
            return key
        case .clearAll:
            return nil
        }
    }

    /// A short form for messages: `set wordSpacing 0.5`, `set theme null (activate: false)`,
    /// `adjustBy fontSize -0.1`, `clearAll`.
    public var description: String {
        switch self {
        case .set(let key, let value, let activate):
            let text = "set \(key) \((value ?? .null).jsonString())"
            return activate ? text : text + " (activate: false)"
        case .toggleValue(let key, let value):
            return "toggleValue \(key) \(value.jsonString())"
        case .adjustBy(let key, let amount):
            return "adjustBy \(key) \(JSONNumber(amount).text)"
        case .clearAll:
            return "clearAll"
        case .clear(let key), .toggle(let key), .increment(let key), .decrement(let key), .activate(let key):
            return "\(operation.rawValue) \(key)"
        }
    }
}
