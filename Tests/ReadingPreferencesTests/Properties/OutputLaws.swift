import Foundation
import TestSupport
import Testing

@testable import ReadingPreferences

@Suite("Laws: settings form and CSS output (Specs/Resolution.md §9.4, Specs/CSS.md §1)")
struct OutputLaws {
    @Test(
        "the settings form never holds NaN or infinities and encodes to JSON that parses",
        arguments: LawConfigurable.allCases)
    func form(_ configurable: LawConfigurable) {
        Self.form(configurable.subject)
    }

    static func form(_ subject: some LawSubject) {
        forAll("the form is finite and encodes", subject) { input in
            var editor = subject.editor(try input.document.preferences, input.context)
            editor.applyIgnoringErrors(input.edits)
            let form = editor.form()
            for row in form.rows {
                switch row.control {
                case .stepper(let range, let step, let steps):
                    try ensure(finite(range, step, steps ?? []), "\(row.key): stepper \(row.control)")
                case .slider(let range, let step):
                    try ensure(finite(range, step, []), "\(row.key): slider \(row.control)")
                default: break
                }
                if row.effectiveValue?.numberValue != nil {
                    for label in [row.formattedValue, row.accessibilityLabel].compactMap({ $0 }) {
                        try ensure(!Self.showsNonFinite(label), "\(row.key): label \(label)")
                    }
                }
            }
            // The form's JSON never throws (a stored 1e400 is shown as text); it must be JSON our
            // parser reads.
            let data: Data
            do {
                data = try form.jsonData()
            } catch {
                throw PropertyFailure(description: "the form does not encode: \(error)")
            }
            _ = try JSONValue(json: data)
        }
    }

    private static func finite(_ range: ClosedRange<Double>, _ step: Double?, _ steps: [Double]) -> Bool {
        ([range.lowerBound, range.upperBound] + [step].compactMap { $0 } + steps).allSatisfy(\.isFinite)
    }

    static func showsNonFinite(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.contains("nan") || lower.contains("inf")
    }

    @Test("Readium CSS never holds NaN or infinities, and its quotes are balanced")
    func css() {
        let subject = EPUBSubject()
        let options = ReadiumCSSOptions(
            fonts: FontFamilyRegistry([
                .init(name: "Literata", alternates: ["Times \"New\" Roman", "serif", "Literata"]),
                .init(name: "Times \"New\" Roman", alternates: ["a\\b", "caf\u{E9}"]),
            ]))
        forAll("CSS is finite and balanced", subject) { input in
            var editor = subject.editor(try input.document.preferences, input.context)
            editor.applyIgnoringErrors(input.edits)
            let css = editor.settings.readiumCSS(options: options)
            try ensure(Self.quotesBalanced(css.inlineStyle), "unbalanced quotes in \(css.inlineStyle)")
            for property in css where property.name != "--USER__fontFamily" {
                try ensure(!Self.showsNonFinite(property.value), "\(property.name): \(property.value)")
            }
            if let family = css["--USER__fontFamily"] {
                try ensure(Self.quotesBalanced(family), "unbalanced quotes in the font stack \(family)")
            }
        }
    }

    /// Whether every `"` opens or closes a string, a `\` escaping the next character.
    static func quotesBalanced(_ text: String) -> Bool {
        var open = false
        var escaped = false
        for scalar in text.unicodeScalars {
            if escaped {
                escaped = false
            } else if scalar == "\\" {
                escaped = open
            } else if scalar == "\"" {
                open.toggle()
            }
        }
        return !open && !escaped
    }
}
