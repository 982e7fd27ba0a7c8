import TestSupport
import Testing

@testable import ReadingPreferences

@Suite("Laws: progression and rejected edits (Specs/Settings.md §5, §6)")
struct ProgressionLaws {
    @Test(
        "from a start inside the range, increment never decreases and decrement never increases, both in range",
        arguments: LawConfigurable.allCases)
    func monotonic(_ configurable: LawConfigurable) {
        Self.monotonic(configurable.subject)
    }

    static func monotonic<Subject: LawSubject>(_ subject: Subject) {
        let ranges = subject.catalogue.descriptors.filter(\.kind.isRange)
        forAll("increment and decrement are monotonic and stay in range", subject) { input in
            guard let descriptor = input.pick(ranges), let range = descriptor.range else { return }
            var preferences = try input.document.preferences
            var random = PropertyRandom(seed: input.choice)
            if !random.oneIn(4) {
                preferences[descriptor.key] = Self.start(in: range, of: descriptor, &random)
            }
            let editor = subject.editor(preferences, input.context)
            let handle = editor.handle(forKey: descriptor.key)
            guard let start = (handle?.value ?? handle?.effectiveValue)?.doubleValue, range.contains(start)
            else { return }
            for up in [true, false] {
                var stepped = editor
                try stepped.apply(up ? .increment(key: descriptor.key) : .decrement(key: descriptor.key))
                guard let after = stepped.handle(forKey: descriptor.key)?.value?.doubleValue else {
                    throw PropertyFailure(description: "\(descriptor.key): nothing stored after the step")
                }
                try ensure(range.contains(after), "\(descriptor.key): \(after) is outside \(range)")
                try ensure(
                    up ? after >= start : after <= start,
                    "\(descriptor.key): \(up ? "increment" : "decrement") moved \(start) to \(after)")
            }
        }
    }

    /// A start value inside the range: anywhere, on a step, or just beside one (the 0.001
    /// tolerance of Specs/Settings.md §6).
    static func start(
        in range: ClosedRange<Double>, of descriptor: SettingDescriptor, _ random: inout PropertyRandom
    ) -> JSONValue {
        var value = random.double(in: range)
        if let steps = descriptor.suggestedSteps, !steps.isEmpty, random.oneIn(2) {
            value = random.pick(steps) + random.pick([0, 0.0004, -0.0004, 0.0011, -0.0011, 1e-12])
        }
        if case .integer = descriptor.coder { value = value.rounded() }
        value = min(max(value, range.lowerBound), range.upperBound)
        return .number(JSONNumber(value))
    }

    @Test("a rejected edit leaves the preferences unchanged", arguments: LawConfigurable.allCases)
    func rejectedEdits(_ configurable: LawConfigurable) {
        Self.rejectedEdits(configurable.subject)
    }

    static func rejectedEdits(_ subject: some LawSubject) {
        forAll("a rejected edit changes nothing", subject) { input in
            var editor = subject.editor(try input.document.preferences, input.context)
            for edit in input.edits + input.other.members.map({ .toggleValue(key: $0.key, value: $0.value) })
            {
                let before = editor
                do throws(PreferenceError) {
                    try editor.apply(edit)
                } catch {
                    try ensure(
                        LawCheck.identical(before.preferences, editor.preferences),
                        "\(edit) failed with \(error.code) but changed \(before.preferences) to \(editor.preferences)"
                    )
                    try ensure(before.settings == editor.settings, "\(edit) failed but changed the settings")
                }
            }
        }
    }
}
