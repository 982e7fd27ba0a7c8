import TestSupport
import Testing

@testable import ReadingPreferences

@Suite("Laws: toggles (Specs/Settings.md §5)")
struct ToggleLaws {
    @Test(
        "toggle twice restores the toggled key; other keys differ only by activation writes",
        arguments: LawConfigurable.allCases)
    func toggleTwice(_ configurable: LawConfigurable) {
        Self.toggleTwice(configurable.subject)
    }

    static func toggleTwice<Subject: LawSubject>(_ subject: Subject) {
        let toggles = subject.catalogue.descriptors.filter { $0.kind == .toggle }
        forAll("toggle twice restores the key", subject) { input in
            guard let descriptor = input.pick(toggles) else { return }
            var editor = subject.editor(try input.document.preferences, input.context)
            editor.applyIgnoringErrors(input.edits)
            let before = editor.preferences
            let handle = editor.handle(forKey: descriptor.key)
            // An unset or undecodable value starts from the effective value (Specs/Settings.md §5).
            let expected = (handle?.value ?? handle?.effectiveValue)?.boolValue ?? false
            try editor.apply(.toggle(key: descriptor.key))
            try editor.apply(.toggle(key: descriptor.key))
            try ensure(
                editor.preferences[descriptor.key] == .bool(expected),
                "\(descriptor.key) is \(editor.preferences[descriptor.key]?.description ?? "unset"), expected \(expected)"
            )
            try LawCheck.onlyActivationWrites(
                before, editor.preferences, besides: descriptor, catalogue: subject.catalogue)
        }
    }

    @Test(
        "toggleValue(v) twice restores the key when it was unset or equal to v",
        arguments: LawConfigurable.allCases)
    func toggleValueTwice(_ configurable: LawConfigurable) {
        Self.toggleValueTwice(configurable.subject)
    }

    static func toggleValueTwice<Subject: LawSubject>(_ subject: Subject) {
        let choices = subject.catalogue.descriptors.filter(\.kind.isChoice)
        forAll("toggleValue twice restores the key", subject) { input in
            guard let descriptor = input.pick(choices) else { return }
            var editor = subject.editor(try input.document.preferences, input.context)
            editor.applyIgnoringErrors(input.edits)
            let candidates =
                (descriptor.supportedValues ?? []).map { descriptor.coder.encode($0) }
                + ["#FF0000", "#f00", "red", "transparent", 16_711_680, "nope", 1, true]
                + input.document.members.map(\.value)
            guard let value = input.pick(candidates, salt: 0x5EED), value != .null else { return }
            let before = editor.preferences
            let stored = before[descriptor.key]
            let storedValue = editor.handle(forKey: descriptor.key)?.value
            do throws(PreferenceError) {
                try editor.apply(.toggleValue(key: descriptor.key, value: value))
            } catch {
                try ensure(
                    LawCheck.identical(before, editor.preferences), "a rejected toggleValue changed \(before)"
                )
                return
            }
            let accepted = editor.handle(forKey: descriptor.key)?.value
            let wasEqual = storedValue != nil && accepted == nil  // the first toggle removed it
            guard stored == nil || wasEqual else { return }
            try editor.apply(.toggleValue(key: descriptor.key, value: value))
            if stored == nil {
                try ensure(
                    editor.preferences[descriptor.key] == nil,
                    "\(descriptor.key) was unset, now \(editor.preferences)")
            } else {
                let restored = editor.handle(forKey: descriptor.key)?.value
                try ensure(
                    restored.map { storedValue?.matches($0) ?? false } ?? false,
                    "\(descriptor.key) was \(stored?.description ?? "?"), now \(restored?.description ?? "unset")"
                )
            }
            try LawCheck.onlyActivationWrites(
                before, editor.preferences, besides: descriptor, catalogue: subject.catalogue)
        }
    }
}
