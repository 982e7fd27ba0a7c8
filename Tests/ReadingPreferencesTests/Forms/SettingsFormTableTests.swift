import Foundation
import Testing

@testable import ReadingPreferences

@Suite("A settings form as an aligned text table (Specs/Resolution.md §9.4 inspect)")
struct SettingsFormTableTests {
    static let pdf = PDF.Editor(
        preferences: ["scroll": true, "pageSpacing": 12, "myApp.zoom": 2],
        resolver: PDF.Resolver(readingProgression: .rtl))

    @Test("the PDF table has a header, a rule, its groups' titles and one row per setting with every column")
    func pdfTable() {
        let lines = Self.pdf.form().tableLines()
        #expect(lines.count == 2 + PDF.catalogue.groups.count + PDF.catalogue.count)
        #expect(lines.filter { $0.hasPrefix("[") } == ["[Theme and colors]", "[Layout]"])
        #expect(lines[0].hasPrefix("KEY "))
        #expect(lines[1].allSatisfy { $0 == "-" || $0 == " " })
        let pageSpacing = lines.first { $0.hasPrefix("pageSpacing ") } ?? ""
        #expect(columns(pageSpacing) == ["pageSpacing", "stepper 0...200 by 4", "12", "12", "12 pt", "yes"])
        let readingProgression = lines.first { $0.hasPrefix("readingProgression ") } ?? ""
        #expect(
            columns(readingProgression) == [
                "readingProgression", "picker ltr|rtl", "-", "\"rtl\"", "Right to left", "no",
                "Only when Scroll is Off",
            ])
    }

    @Test("every column starts at the same offset on every line")
    func aligned() {
        let lines = Self.pdf.form().tableLines()
        let header = lines[0]
        for title in SettingsForm.tableHeader.dropFirst() {
            guard let start = header.range(of: title)?.lowerBound else {
                Issue.record("\(title) missing from the header")
                continue
            }
            let offset = header.distance(from: header.startIndex, to: start)
            for line in lines.dropFirst() where line.count > offset {
                let index = line.index(line.startIndex, offsetBy: offset - 2)
                #expect(line[index...].hasPrefix("  "), "\(title) misaligned in: \(line)")
            }
        }
    }

    @Test("a form with several sections prints each section's title before its rows")
    func sections() {
        var editor = PreferencesEditor<Labs>(resolver: FeatureResolver())
        #expect(!editor.form().tableLines().contains { $0.hasPrefix("[") })
        var form = editor.form()
        form.sections.append(SettingsForm.Section(id: "more", title: nil, rows: []))
        let lines = form.tableLines()
        #expect(lines[2] == "[Sidebar]")
        #expect(lines.last == "[more]")
        editor = PreferencesEditor<Labs>(preferences: ["sidebar.width": 500], resolver: FeatureResolver())
        let width = editor.form().tableLines().first { $0.hasPrefix("sidebar.width") } ?? ""
        #expect(columns(width).suffix(3) == ["400", "no", "Requires Sidebar to be On"])
    }

    @Test("control summaries name the kind, its range and step, or its options")
    func controlSummaries() {
        typealias Control = SettingsForm.Control
        #expect(Control.toggle.summary == "toggle")
        #expect(Control.slider(range: 0...1, step: 0.1).summary == "slider 0...1 by 0.1")
        #expect(
            Control.stepper(range: 1...2, step: nil, steps: [1, 1.5, 2]).summary == "stepper 1...2 (3 steps)")
        #expect(Control.custom(identifier: "voices").summary == "custom(voices)")
        let many = (1...8).map { SettingsForm.Option(value: .string("v\($0)"), label: "V\($0)") }
        #expect(Control.picker(options: many).summary == "picker v1|v2|v3|v4|v5|v6|+2")
        #expect(Control.picker(options: []).summary == "picker")
    }

    /// The cells of a line: runs separated by two spaces or more.
    private func columns(_ line: String) -> [String] {
        line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
    }
}
