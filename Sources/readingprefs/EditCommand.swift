import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// `readingprefs edit FILE OP [KEY] [VALUE]`: one edit of a preferences file, written atomically.
enum EditCommand {
    static func run(_ tokens: [String]) throws(ToolError) -> Int32 {
        let spec = OptionSpec(valued: ["defaults", "publication", "environment"], flags: ["no-activate"])
        let arguments = try Arguments.parse(tokens, command: "edit", spec: spec)
        if arguments.wantsHelp {
            Console.out(Usage.text(for: .edit))
            return 0
        }
        try arguments.requirePositionals(
            2, Int.max, command: "edit", usage: "a FILE and an OP (e.g. edit prefs.json set theme dark)")
        let path = arguments.positionals[0]
        let kind = try arguments.configurable()
        let edit = try parseEdit(
            Array(arguments.positionals.dropFirst()), activate: !arguments.flags.contains("no-activate"),
            catalogue: kind.catalogue)
        let inputs = try InputFiles.load(arguments, catalogue: kind.catalogue).inputs
        // Read, edit and write under the file's lock, so concurrent edits never lose an update.
        var edited = Preferences()
        var original = Preferences()
        do throws(DurableFile.UpdateError<ToolError>) {
            // The lock is the file's folder itself, so nothing is left beside the user's file.
            try DurableFile.update(at: path, placement: .folder) {
                (current: Data?) throws(ToolError) -> Data? in
                var preferences = Preferences()
                if let current {
                    do throws(JSONDecodingError) {
                        preferences = try Preferences(json: current)
                    } catch {
                        throw .failure("preferences file \(path): \(error); \(path) is unchanged")
                    }
                }
                original = preferences
                var editor = kind.makeEditor(preferences: preferences, inputs: inputs)
                do throws(PreferenceError) {
                    try editor.apply(edit)
                } catch {
                    let hint = PreferenceErrorHint.text(for: error, catalogue: editor.catalogue)
                    throw .failure(
                        "\(edit.operation.rawValue) failed: \(error.code.rawValue): \(error)\(hint); \(path) is unchanged"
                    )
                }
                edited = editor.preferences
                // A one-line file stays on one line; a new or multi-line file is pretty-printed.
                let options =
                    current.map { JSONEncodingOptions(matchingLayoutOf: $0) } ?? .init(prettyPrinted: true)
                var bytes = editor.preferences.jsonBytes(options: options)
                if current.map(JSONEncodingOptions.endsWithNewline) ?? true { bytes.append(0x0A) }
                return Data(bytes)
            }
        } catch {
            switch error {
            case .file(let failure): throw .failure("\(failure); \(path) is unchanged")
            case .transform(let failure): throw failure
            }
        }
        Console.out(edited.jsonString(options: .init(prettyPrinted: true)))
        // As `store set` says it: a value kept within its range, a key written for activation.
        if let key = edit.key {
            var requested: JSONValue?
            if case .set(_, let value?, _) = edit { requested = value }
            for member in edited.members where original[member.key] != member.value {
                guard
                    let note = EditNote.text(
                        written: member.key, value: member.value, edited: key, requested: requested,
                        descriptor: kind.catalogue.descriptor(forKey: key))
                else { continue }
                Console.error("readingprefs: note: \(member.key): \(note)")
            }
        }
        return 0
    }

    /// Builds the edit from `OP [KEY] [VALUE]`.
    static func parseEdit(_ words: [String], activate: Bool, catalogue: SettingCatalogue) throws(ToolError)
        -> PreferenceEdit
    {
        let name = words[0]
        guard let operation = PreferenceEdit.Operation(rawValue: name) else {
            throw .usage(
                "unknown edit operation '\(name)' (expected one of \(PreferenceEdit.Operation.allNames.joined(separator: ", ")))"
            )
        }
        let expected = (operation.needsKey ? 1 : 0) + (operation.needsValue ? 1 : 0)
        let rest = Array(words.dropFirst())
        guard rest.count == expected else {
            var message = shape(of: operation)
            if rest.count > expected {
                message += "; got an extra argument '\(rest[expected])'"
                if operation.needsValue { message += " (quote a VALUE that has spaces)" }
            }
            throw .usage(message)
        }
        if !activate && operation != .set { throw .usage("--no-activate applies to set only") }
        guard operation.needsKey else { return .clearAll }
        let key = rest[0]
        switch operation {
        case .set:
            return .set(
                key: key, value: value(rest[1], for: catalogue.descriptor(forKey: key)), activate: activate)
        case .toggleValue:
            return .toggleValue(key: key, value: value(rest[1], for: catalogue.descriptor(forKey: key)))
        case .adjustBy:
            guard case .number(let amount) = jsonOrString(rest[1]), amount.isFinite else {
                throw .usage("adjustBy needs a number AMOUNT, got '\(rest[1])'")
            }
            return .adjustBy(key: key, amount: amount.doubleValue)
        case .clear: return .clear(key: key)
        case .toggle: return .toggle(key: key)
        case .increment: return .increment(key: key)
        case .decrement: return .decrement(key: key)
        case .activate: return .activate(key: key)
        case .clearAll: return .clearAll
        }
    }

    /// What an operation takes: `set needs a KEY and a VALUE (edit FILE set KEY VALUE)`.
    private static func shape(of operation: PreferenceEdit.Operation) -> String {
        let name = operation.rawValue
        switch operation {
        case .clearAll: return "clearAll takes no KEY (edit FILE clearAll)"
        case .set, .toggleValue: return "\(name) needs a KEY and a VALUE (edit FILE \(name) KEY VALUE)"
        case .adjustBy: return "adjustBy needs a KEY and an AMOUNT (edit FILE adjustBy KEY AMOUNT)"
        default: return "\(name) needs a KEY and no VALUE (edit FILE \(name) KEY)"
        }
    }

    /// A command-line value: JSON when it parses, otherwise the plain string (`dark`). For a
    /// setting stored as a string (an enumeration such as `columnCount`, a language, a font), a
    /// value that parses as a number or a Boolean is taken as its text: `set columnCount 2`.
    static func value(_ text: String, for descriptor: SettingDescriptor?) -> JSONValue {
        let parsed = jsonOrString(text)
        switch (descriptor?.coder, parsed) {
        case (.enumeration?, .number), (.enumeration?, .bool), (.string?, .number), (.string?, .bool),
            (.language?, .number):
            return .string(text)
        default:
            return parsed
        }
    }

    /// A command-line value: JSON when it parses, otherwise the plain string (`dark`).
    static func jsonOrString(_ text: String) -> JSONValue {
        (try? JSONValue(json: text)) ?? .string(text)
    }
}
