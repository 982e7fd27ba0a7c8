import TestSupport
import Testing

@testable import ReadingPreferences

/// Everything a law may need, generated for one configurable: documents, a context, edits, a
/// set of keys and a choice (which setting or value a law picks).
struct LawInput: CustomStringConvertible, Sendable {
    var document = Document()
    var other = Document()
    var third = Document()
    var context = ReadingContext()
    var edits: [PreferenceEdit] = []
    var keys: [String] = []
    var choice: UInt64 = 0

    var description: String {
        """
          document: \(document.text)
          other: \(other.text)
          third: \(third.text)
          context: \(context)
          edits: \(edits.map(\.description))
          keys: \(keys.map { JSONValue.string($0).jsonString() })
          choice: \(choice)
        """
    }

    static func generate(for catalogue: SettingCatalogue, _ random: inout PropertyRandom) -> LawInput {
        var input = LawInput()
        input.document = Gen.document(for: catalogue, &random)
        input.other = Gen.document(for: catalogue, &random)
        input.third = Gen.document(for: catalogue, &random, maxMembers: 3)
        input.context = Gen.context(for: catalogue, &random)
        input.edits = Gen.edits(for: catalogue, &random)
        let pool = catalogue.keys + input.document.members.map(\.key) + ["zz", "$version"]
        input.keys = (0..<random.below(5)).map { _ in random.pick(pool) }
        input.choice = random.next()
        return input
    }

    /// Picks one of `choices` with the input's choice (stable under shrinking of other fields).
    func pick<T>(_ choices: [T], salt: UInt64 = 0) -> T? {
        guard !choices.isEmpty else { return nil }
        return choices[Int((choice ^ salt) % UInt64(choices.count))]
    }

    // MARK: Shrinking

    /// Smaller inputs: fewer members, edits and keys, simpler values and context, choice 0.
    var shrunk: [LawInput] {
        var result: [LawInput] = []
        func with(_ change: (inout LawInput) -> Void) {
            var copy = self
            change(&copy)
            result.append(copy)
        }
        for candidate in Shrink.document(document) { with { $0.document = candidate } }
        for candidate in Shrink.list(edits, Shrink.edit) { with { $0.edits = candidate } }
        for candidate in Shrink.document(other) { with { $0.other = candidate } }
        for candidate in Shrink.document(third) { with { $0.third = candidate } }
        for candidate in Shrink.list(keys, Shrink.string) { with { $0.keys = candidate } }
        for candidate in Shrink.context(context) { with { $0.context = candidate } }
        if choice != 0 { with { $0.choice = choice / 2 } }
        return result
    }
}

/// Simple shrinkers: drop members and elements, move numbers toward 0 and strings toward empty.
enum Shrink {
    /// Without each element in turn, then with each element shrunk.
    static func list<T>(_ list: [T], _ element: (T) -> [T]) -> [[T]] {
        var result: [[T]] = []
        if list.count > 1 { result.append([]) }
        for index in list.indices {
            var copy = list
            copy.remove(at: index)
            result.append(copy)
        }
        for index in list.indices {
            for smaller in element(list[index]) {
                var copy = list
                copy[index] = smaller
                result.append(copy)
            }
        }
        return result
    }

    static func document(_ document: Document) -> [Document] {
        var result: [Document] = []
        if !document.spacing.isEmpty {
            var copy = document
            copy.spacing = ""
            result.append(copy)
        }
        for members in list(document.members, member) {
            var copy = document
            copy.members = members
            result.append(copy)
        }
        return result
    }

    static func member(_ member: Document.Member) -> [Document.Member] {
        var result: [Document.Member] = []
        if member.escapedKey {
            var copy = member
            copy.escapedKey = false
            result.append(copy)
        }
        for value in value(member.value) {
            var copy = member
            copy.value = value
            result.append(copy)
        }
        return result
    }

    static func value(_ value: JSONValue) -> [JSONValue] {
        switch value {
        case .null: return []
        case .bool(let flag): return flag ? [.bool(false)] : []
        case .number(let number): return self.number(number).map(JSONValue.number)
        case .string(let text): return string(text).map(JSONValue.string)
        case .array(let elements):
            return elements.map { $0 } + list(elements, self.value).map(JSONValue.array)
        case .object(let object):
            return object.members.map(\.value)
                + list(object.members) { member in
                    self.value(member.value).map { JSONObject.Member(key: member.key, value: $0) }
                }.map { .object(JSONObject(members: $0)) }
        }
    }

    static func number(_ number: JSONNumber) -> [JSONNumber] {
        let value = number.doubleValue
        guard value != 0 || number.text != "0" else { return [] }
        var result = [JSONNumber(0)]
        if value.isFinite {
            if value.rounded(.towardZero) != value { result.append(JSONNumber(value.rounded(.towardZero))) }
            if abs(value) >= 2 { result.append(JSONNumber((value / 2).rounded(.towardZero))) }
            if number.text != JSONNumber(value).text { result.append(JSONNumber(value)) }
        }
        return result
    }

    static func string(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        var scalars = text.unicodeScalars
        scalars.removeLast()
        return ["", String(scalars)]
    }

    static func edit(_ edit: PreferenceEdit) -> [PreferenceEdit] {
        switch edit {
        case .set(let key, let value?, let activate):
            return [.set(key: key, value: nil)]
                + self.value(value).map { .set(key: key, value: $0, activate: activate) }
                + (activate ? [] : [.set(key: key, value: value)])
        case .toggleValue(let key, let value):
            return self.value(value).map { .toggleValue(key: key, value: $0) }
        case .adjustBy(let key, let amount):
            return amount == 0
                ? [] : [.adjustBy(key: key, amount: 0), .adjustBy(key: key, amount: amount / 2)]
        default:
            return []
        }
    }

    static func context(_ context: ReadingContext) -> [ReadingContext] {
        var result: [ReadingContext] = []
        func with(_ change: (inout ReadingContext) -> Void) {
            var copy = context
            change(&copy)
            result.append(copy)
        }
        for candidate in document(context.defaults) { with { $0.defaults = candidate } }
        for candidate in list(context.languages, string) { with { $0.languages = candidate } }
        if context.layout != .reflowable { with { $0.layout = .reflowable } }
        if context.readingProgression != .auto { with { $0.readingProgression = .auto } }
        if context.environment.forceScroll { with { $0.environment.forceScroll = false } }
        if context.environment.appearance != .light { with { $0.environment.appearance = .light } }
        return result
    }
}

/// Runs a law for one configurable on generated ``LawInput``s.
func forAll<Subject: LawSubject>(
    _ law: String, _ subject: Subject,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ property: (LawInput) throws -> Void
) {
    forAll(
        "\(law) [\(Subject.Schema.identifier)]", sourceLocation: sourceLocation,
        generate: { LawInput.generate(for: Subject.Schema.catalogue, &$0) },
        shrink: \.shrunk, property)
}
