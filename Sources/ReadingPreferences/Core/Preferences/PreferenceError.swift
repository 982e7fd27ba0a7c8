/// A typed error from an edit (Specs/Settings.md §8). Edits never crash on bad input; they throw this and
/// leave the preferences unchanged.
///
/// ```swift
/// do {
///     try editor.set(key: "theme", json: "purple")
/// } catch {
///     error.code  // .unsupportedValue
/// }
/// ```
public struct PreferenceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable error codes.
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        /// The value has a JSON type the setting's coder never accepts.
        case typeMismatch
        /// The value has the right type but is not accepted (unknown enum string, bad color,
        /// a value outside an allowlist).
        case unsupportedValue
        /// NaN or an infinity for a number setting.
        case notANumber
        /// The configurable declares no such key.
        case unknownKey
        /// The operation does not apply to the setting's kind.
        case wrongKind
        /// An explicit `activate` could not make the setting active.
        case notActivatable
    }

    /// The code.
    public var code: Code
    /// The key the edit was about.
    public var key: String

    /// Creates an error.
    public init(_ code: Code, key: String) {
        self.code = code
        self.key = key
    }

    /// A one-line English message.
    public var description: String {
        switch code {
        case .typeMismatch: return "\(key): the value has the wrong JSON type"
        case .unsupportedValue: return "\(key): the value is not supported"
        case .notANumber: return "\(key): the value is not a finite number"
        case .unknownKey: return "\(key): no such setting"
        case .wrongKind: return "\(key): this operation does not apply to this kind of setting"
        case .notActivatable: return "\(key): the setting cannot be made active"
        }
    }
}
