/// What a schema's resolution derives besides the setting values, such as EPUB's stylesheet
/// variant and whether scroll is forced (Specs/Resolution.md §4 steps 4 and 5).
///
/// Activators read it through ``SettingCondition/derived(_:)`` conditions, so the generic
/// editor evaluates a configurable's own conditions without knowing its words. A schema that
/// derives nothing uses ``NoDerivedSettings``, the default.
///
/// ```swift
/// struct ReaderDerived: DerivedSettings {
///     var isNightShift = false
///     func holds(_ condition: DerivedCondition) -> Bool {
///         condition.name == "nightShift" && condition.values.contains(String(isNightShift))
///     }
///     func reason(_ condition: DerivedCondition) -> IneffectiveReason {
///         .custom(code: "needsNightShift", arguments: condition.values, text: "Only during night shift")
///     }
/// }
/// ```
public protocol DerivedSettings: Sendable, Hashable {
    /// The state before anything is resolved.
    init()

    /// Whether a condition on the derived state holds; a condition the schema does not know does
    /// not hold.
    ///
    /// - Parameter condition: The condition.
    /// - Returns: `true` when the condition holds.
    func holds(_ condition: DerivedCondition) -> Bool

    /// Why a condition that does not hold is not met, for a handle's reasons (Specs/Settings.md §8).
    ///
    /// - Parameter condition: The condition that does not hold.
    /// - Returns: The reason, with a stable code and arguments.
    func reason(_ condition: DerivedCondition) -> IneffectiveReason

    /// Whether a condition is decided by the publication (EPUB's stylesheet variant follows the
    /// book's language and direction), so that a setting that needs it cannot apply to this
    /// publication and a form puts it apart (Specs/Resolution.md §9.4). `false` by default.
    ///
    /// - Parameter condition: A condition that does not hold.
    /// - Returns: `true` when the publication decides it.
    func isDecidedByPublication(_ condition: DerivedCondition) -> Bool
}

extension DerivedSettings {
    /// No derived condition is decided by the publication unless the schema says so.
    ///
    /// - Parameter condition: A condition.
    /// - Returns: `false`.
    public func isDecidedByPublication(_ condition: DerivedCondition) -> Bool { false }
}

/// A named condition on a schema's derived settings and the values it accepts, as data, so
/// catalogues stay comparable and inspectable (Specs/Settings.md §1).
///
/// ```swift
/// let condition = DerivedCondition("stylesheets", values: ["default", "rtl"])
/// condition.description   // stylesheets(default, rtl)
/// ```
public struct DerivedCondition: Sendable, Hashable, CustomStringConvertible {
    /// The name of the derived value, such as `stylesheets`.
    public var name: String
    /// The values that satisfy the condition, as strings.
    public var values: [String]

    /// Creates a condition.
    ///
    /// - Parameters:
    ///   - name: The name of the derived value.
    ///   - values: The values that satisfy the condition.
    public init(_ name: String, values: [String]) {
        self.name = name
        self.values = values
    }

    /// `name(value, value)`.
    public var description: String { "\(name)(\(values.joined(separator: ", ")))" }
}

/// The derived settings of a schema that derives nothing: every derived condition fails.
public struct NoDerivedSettings: DerivedSettings {
    /// Creates the empty state.
    public init() {}

    /// Never holds: nothing is derived.
    ///
    /// - Parameter condition: The condition.
    /// - Returns: `false`.
    public func holds(_ condition: DerivedCondition) -> Bool { false }

    /// A reason named after the condition.
    ///
    /// - Parameter condition: The condition.
    /// - Returns: A custom reason whose code is the condition's name.
    public func reason(_ condition: DerivedCondition) -> IneffectiveReason {
        .custom(code: condition.name, arguments: condition.values, text: "Requires \(condition)")
    }
}
