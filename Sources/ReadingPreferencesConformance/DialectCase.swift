import Foundation
import ReadingPreferences

/// A dialect vector (Specs/README.md §7, `Specs/Conformance/dialects/`): preferences read from a
/// Readium toolkit's JSON, or written for it, and what that must give.
///
/// ```json
/// {
///   "name": "a font weight of 700 is 1.75 of ours",
///   "configurable": "epub",
///   "dialect": "readium-ts",
///   "import": {"fontWeight": 700},
///   "expect": {"preferences": {"fontWeight": 1.75}, "diagnostics": [], "roundTrip": true}
/// }
/// ```
///
/// An `import` case reads the object into ours: `expect.preferences` is the whole result (keys
/// in order with `keyOrder`), `expect.diagnostics` the exact multiset of `{"key", "code"}`
/// reported, `expect.mergePatch` the merge patch, and `expect.roundTrip: true` asks that writing
/// the result back gives the object again: every member, the navigator's own byte for byte. An
/// `export` case writes our preferences: `expect.output` is the whole object, `expect.dropped`
/// the keys dropped (in order), `expect.changed` the `{"key", "code"}` of the values changed.
public struct DialectCase: Sendable, Hashable {
    /// Which way the case converts.
    public enum Direction: String, Sendable, Hashable {
        /// The toolkit's object read into ours.
        case `import`
        /// Our preferences written for the toolkit.
        case export
    }

    /// The toolkit.
    public var dialect: ReadiumDialect
    /// Which way the case converts.
    public var direction: Direction
    /// The object converted: the toolkit's for an import, ours for an export.
    public var input: JSONObject
    /// The expected result: our preferences for an import, the toolkit's object for an export.
    var output: JSONObject?
    var keyOrder: [String]?
    var dropped: [String]?
    var diagnostics: [String]?
    var mergePatch: JSONObject?
    var roundTrip = false
    var keptAside: [String]?

    init(_ reader: JSONMemberReader) throws(JSONMemberError) {
        // The dialects' names are their raw values, as the back end's `?dialect=` spells them.
        let name = try reader.string("dialect") ?? ""
        guard let dialect = ReadiumDialect(name: name) else {
            throw JSONMemberError(
                path: "dialect",
                message: "unknown dialect \(JSONMemberReader.quoted(name)) (expected one of "
                    + ReadiumDialect.names.joined(separator: ", ") + ")")
        }
        self.dialect = dialect
        if let object = try reader.object("import") {
            direction = .import
            input = object
        } else if let object = try reader.object("export") {
            direction = .export
            input = object
        } else {
            throw JSONMemberError(path: "import", message: "missing (a dialect case has import or export)")
        }
        let expect = try JSONMemberReader(reader.value("expect") ?? .object(JSONObject()), path: "expect")
        output = try expect.object(direction == .import ? "preferences" : "output")
        keyOrder = try expect.strings("keyOrder")
        dropped = try expect.strings("dropped")
        mergePatch = try expect.object("mergePatch")
        roundTrip = try expect.bool("roundTrip") ?? false
        if let items = try expect.array("keptAside") {
            var kept: [String] = []
            for (index, item) in items.enumerated() {
                let entry = try JSONMemberReader(
                    item, path: JSONMemberReader.join(expect.path("keptAside"), index: index))
                kept.append("\(try entry.string("key") ?? "") \(try entry.string("keptAs") ?? "")")
            }
            keptAside = kept.sorted()
        }
        let listed = direction == .import ? "diagnostics" : "changed"
        if let items = try expect.array(listed) {
            var codes: [String] = []
            for (index, item) in items.enumerated() {
                let entry = try JSONMemberReader(
                    item, path: JSONMemberReader.join(expect.path(listed), index: index))
                codes.append("\(try entry.string("key") ?? "") \(try entry.string("code") ?? "")")
            }
            diagnostics = codes.sorted()
        }
    }

    func failures<Schema: SettingsSchema>(_ schema: Schema.Type) -> [String] {
        var failures: [String] = []
        let result: JSONObject
        let reported: [PreferenceDiagnostic]
        switch direction {
        case .import:
            let read = Preferences.imported(input, dialect: dialect, for: schema)
            result = read.preferences.jsonObject
            reported = read.diagnostics
            if let mergePatch, !Self.same(read.mergePatch, mergePatch) {
                failures.append(
                    "mergePatch: expected \(JSONValue.object(mergePatch)), got \(JSONValue.object(read.mergePatch))"
                )
            }
            if roundTrip {
                failures += Self.roundTripFailures(
                    input, read.preferences.exported(dialect: dialect, for: schema).object)
            }
            if let keptAside {
                let got = read.keptAside.map { "\($0.key) \($0.keptAs)" }.sorted()
                if got != keptAside { failures.append("keptAside: expected \(keptAside), got \(got)") }
            }
        case .export:
            let written = Preferences(input).exported(dialect: dialect, for: schema)
            result = written.object
            reported = written.changed
            let keys = written.dropped.map(\.key)
            if let dropped, dropped != keys {
                failures.append("dropped: expected \(dropped), got \(keys)")
            }
        }
        let name = direction == .import ? "preferences" : "output"
        if let output, !Self.same(result, output) {
            failures.append("\(name): expected \(JSONValue.object(output)), got \(JSONValue.object(result))")
        }
        if let keyOrder, keyOrder != result.keys {
            failures.append("keyOrder: expected \(keyOrder), got \(result.keys)")
        }
        if let diagnostics {
            let got = reported.map { "\($0.key) \($0.code.rawValue)" }.sorted()
            if got != diagnostics {
                failures.append(
                    "\(direction == .import ? "diagnostics" : "changed"): expected \(diagnostics), got \(got)"
                )
            }
        }
        return failures
    }

    /// The same members, in any order, with equal values: numbers by value, the rest exactly.
    static func same(_ lhs: JSONObject, _ rhs: JSONObject) -> Bool {
        lhs.count == rhs.count
            && lhs.members.allSatisfy { member in rhs[member.key].map { equal(member.value, $0) } ?? false }
    }

    static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): return a.doubleValue == b.doubleValue
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)): return same(a, b)
        default: return lhs == rhs
        }
    }

    /// Writing back what was read gives the object again: the members the dialect translates
    /// with equal values, every other member byte for byte, `null` members as `null`.
    static func roundTripFailures(_ original: JSONObject, _ back: JSONObject) -> [String] {
        var failures: [String] = []
        for member in original.members {
            guard let value = back[member.key] else {
                failures.append("roundTrip: \(member.key) did not come back")
                continue
            }
            let exact =
                EPUB.catalogue.descriptor(forKey: member.key) == nil
                && member.key != "darkenFilter" && member.key != "invertFilter"
            let same = exact ? member.value.jsonData() == value.jsonData() : equal(member.value, value)
            if !same {
                failures.append("roundTrip: \(member.key) came back as \(value), not \(member.value)")
            }
        }
        for member in back.members where original[member.key] == nil {
            failures.append("roundTrip: \(member.key) came back, but was not there")
        }
        return failures
    }
}
