/// A settings form as an aligned plain-text table (Specs/Resolution.md §9.4): what `readingprefs inspect`
/// prints, and what a server log or a test can show of any configurable's editor state.
extension SettingsForm {
    /// The column titles of ``table()``.
    public static let tableHeader = [
        "KEY", "CONTROL", "STORED", "EFFECTIVE VALUE", "FORMATTED", "EFFECTIVE", "WHY NOT",
    ]

    /// The form as an aligned table, one row per setting: its key, its control, the stored
    /// value (JSON, `-` when unset), the effective value (JSON, `-` when none), the formatted
    /// effective value, `yes` or `no`, and why not. A form with several sections prints each
    /// section's title (or identifier) in brackets before its rows.
    ///
    /// ```swift
    /// print(PDF.Editor(resolver: PDF.Resolver()).form().table())
    /// // KEY                 CONTROL                     STORED  EFFECTIVE VALUE  FORMATTED  ...
    /// // ------------------  --------------------------  ------  ---------------  ---------  ...
    /// // backgroundColor     color                       -       -                           ...
    /// // fit                 picker auto|page|width      -       "auto"           Auto       ...
    /// // pageSpacing         stepper 0...200 by 4        -       0                0 pt       ...
    /// ```
    ///
    /// The function is pure: the same form gives the same text, whatever the process locale.
    ///
    /// - Returns: The lines joined with newlines, without a trailing newline.
    public func table() -> String {
        tableLines().joined(separator: "\n")
    }

    /// The lines of ``table()``.
    public func tableLines() -> [String] {
        var table = TextTable(header: Self.tableHeader)
        let showsSections = sections.count > 1
        for section in sections {
            if showsSections { table.lines.append(.heading("[\(section.title ?? section.id)]")) }
            for row in section.rows { table.lines.append(.cells(row.tableCells)) }
        }
        return table.rendered
    }
}

extension SettingsForm.Row {
    /// The cells of the row in ``SettingsForm/table()``.
    var tableCells: [String] {
        [
            key,
            control.summary,
            storedValue?.jsonString() ?? "-",
            effectiveValue?.jsonString() ?? "-",
            formattedValue ?? "",
            isEffective ? "yes" : "no",
            reasons.map(\.text).joined(separator: "; "),
        ]
    }
}

extension SettingsForm.Control {
    /// A one-cell summary: `toggle`, `stepper 0...200 by 4`, `stepper 1...2 (7 steps)`,
    /// `slider 0...1 by 0.1`, `picker auto|page|width`, `color`, `text`, `custom(id)`. A
    /// picker's entry that clears the preference shows as `(none)`; long pickers are cut after
    /// six entries.
    public var summary: String {
        switch self {
        case .toggle, .color, .text:
            return name
        case .stepper(let range, let step, let steps):
            let bounds = Self.bounds(range)
            if let steps { return "stepper \(bounds) (\(steps.count) steps)" }
            return step.map { "stepper \(bounds) by \(NumberFormatting.decimal($0))" } ?? "stepper \(bounds)"
        case .slider(let range, let step):
            let bounds = Self.bounds(range)
            return step.map { "slider \(bounds) by \(NumberFormatting.decimal($0))" } ?? "slider \(bounds)"
        case .picker(let options), .suggestions(let options):
            let shown = 6
            var entries = options.prefix(shown).map { option in
                option.value.map { $0.stringValue ?? $0.jsonString() } ?? "(none)"
            }
            if options.count > shown { entries.append("+\(options.count - shown)") }
            return entries.isEmpty ? name : name + " " + entries.joined(separator: "|")
        case .custom(let identifier):
            return "custom(\(identifier))"
        }
    }

    private static func bounds(_ range: ClosedRange<Double>) -> String {
        NumberFormatting.decimal(range.lowerBound) + "..." + NumberFormatting.decimal(range.upperBound)
    }
}

extension SettingsForm.Reason: CustomStringConvertible {
    /// The code with its arguments, such as `requiresPreference(publisherStyles, false)`.
    public var description: String {
        arguments.isEmpty ? code : "\(code)(\(arguments.joined(separator: ", ")))"
    }
}
