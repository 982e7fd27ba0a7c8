/// A description of a configurable's editor state as data, from which an app renders a settings
/// screen in SwiftUI or HTML, and the CLI a table (Specs/Resolution.md §9.4).
///
/// ```swift
/// let form = editor.form()
/// for section in form.sections {
///     for row in section.rows where row.isEffective { print(row.title, row.formattedValue ?? "") }
/// }
/// let json = try JSONEncoder().encode(form)   // Codable
/// ```
///
/// Hidden settings (those without a title) are absent.
public struct SettingsForm: Sendable, Hashable, Codable {
    /// The configurable's identifier, such as `epub`.
    public var configurable: String
    /// The sections, in catalogue order.
    public var sections: [Section]

    /// Creates a form.
    public init(configurable: String, sections: [Section]) {
        self.configurable = configurable
        self.sections = sections
    }

    /// Every row of every section, in order.
    public var rows: [Row] { sections.flatMap(\.rows) }

    /// A group of rows (an app feature and its options, for example).
    public struct Section: Sendable, Hashable, Codable {
        /// A stable identifier.
        public var id: String
        /// The title, when the section has one.
        public var title: String?
        /// The rows.
        public var rows: [Row]

        /// Creates a section.
        public init(id: String, title: String?, rows: [Row]) {
            self.id = id
            self.title = title
            self.rows = rows
        }

        /// The identifier of the section of the settings that cannot apply to this publication
        /// (``PreferenceHandle/isOutsidePublication``): a settings screen shows it collapsed.
        public static let outsidePublicationID = "notForThisPublication"

        /// Whether this is the section of the settings that cannot apply to this publication.
        public var isOutsidePublication: Bool { id == Self.outsidePublicationID }
    }

    /// One setting.
    public struct Row: Sendable, Hashable, Codable {
        /// The preference key.
        public var key: String
        /// A localization key for the title (`settings.<key>.title`).
        public var titleKey: String
        /// The English title.
        public var title: String
        /// The optional description.
        public var summary: String?
        /// The control to show.
        public var control: Control
        /// Inline or on a detail screen.
        public var presentation: SettingPresentation
        /// The stored preference, verbatim; `nil` when unset.
        public var storedValue: JSONValue?
        /// The effective value in its JSON form; `nil` when none.
        public var effectiveValue: JSONValue?
        /// The formatted effective value.
        public var formattedValue: String?
        /// The accessibility label of the effective value.
        public var accessibilityLabel: String?
        /// Whether the setting takes effect.
        public var isEffective: Bool
        /// Whether activating the setting would make it take effect (a settings screen can offer
        /// an "Apply" button); `false` when it is effective or cannot be made so.
        public var canActivate: Bool
        /// Why not, when it does not.
        public var reasons: [Reason]

        /// Creates a row.
        public init(
            key: String, titleKey: String, title: String, summary: String?, control: Control,
            presentation: SettingPresentation, storedValue: JSONValue?, effectiveValue: JSONValue?,
            formattedValue: String?, accessibilityLabel: String?, isEffective: Bool,
            canActivate: Bool = false,
            reasons: [Reason]
        ) {
            self.key = key
            self.titleKey = titleKey
            self.title = title
            self.summary = summary
            self.control = control
            self.presentation = presentation
            self.storedValue = storedValue
            self.effectiveValue = effectiveValue
            self.formattedValue = formattedValue
            self.accessibilityLabel = accessibilityLabel
            self.isEffective = isEffective
            self.canActivate = canActivate
            self.reasons = reasons
        }
    }

    /// A control kind with what it needs to render.
    public enum Control: Sendable, Hashable, Codable {
        /// An on/off switch.
        case toggle
        /// Minus and plus buttons over a range, by `step` or through `steps`.
        case stepper(range: ClosedRange<Double>, step: Double?, steps: [Double]?)
        /// A slider over a range.
        case slider(range: ClosedRange<Double>, step: Double?)
        /// A choice among options; an option whose value is `nil` clears the preference.
        case picker(options: [Option])
        /// A choice among suggested options that also takes a value of the reader's own (a
        /// font the app ships, or another): the stored value is among the options even when it is
        /// not suggested; an option whose value is `nil` clears the preference.
        case suggestions(options: [Option])
        /// A color well.
        case color
        /// A text field.
        case text
        /// A control the app renders itself.
        case custom(identifier: String)

        /// A short name: `toggle`, `stepper`, `slider`, `picker`, `suggestions`, `color`, `text`
        /// or `custom`.
        public var name: String {
            switch self {
            case .toggle: return "toggle"
            case .stepper: return "stepper"
            case .slider: return "slider"
            case .picker: return "picker"
            case .suggestions: return "suggestions"
            case .color: return "color"
            case .text: return "text"
            case .custom: return "custom"
            }
        }
    }

    /// One entry of a picker.
    public struct Option: Sendable, Hashable, Codable {
        /// The value to store, or `nil` for the entry that clears the preference.
        public var value: JSONValue?
        /// The label.
        public var label: String

        /// Creates an option.
        public init(value: JSONValue?, label: String) {
            self.value = value
            self.label = label
        }
    }

    /// Why a setting is not effective: a code with arguments, and an English text.
    public struct Reason: Sendable, Hashable, Codable {
        /// The stable code, such as `requiresPreference`.
        public var code: String
        /// The code's arguments.
        public var arguments: [String]
        /// An English sentence.
        public var text: String

        /// Creates a reason from an ``IneffectiveReason``, with its English default text.
        ///
        /// - Parameter reason: The reason.
        public init(_ reason: IneffectiveReason) {
            code = reason.code
            arguments = reason.arguments
            text = reason.defaultText
        }

        /// Creates a reason whose text names settings by their titles in `catalogue`
        /// (``IneffectiveReason/text(in:)``).
        ///
        /// - Parameters:
        ///   - reason: The reason.
        ///   - catalogue: The catalogue of the form's configurable.
        public init(_ reason: IneffectiveReason, catalogue: SettingCatalogue) {
            code = reason.code
            arguments = reason.arguments
            text = reason.text(in: catalogue)
        }
    }
}
