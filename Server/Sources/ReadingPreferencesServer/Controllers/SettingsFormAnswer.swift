import Foundation
import ReadingPreferences

/// The form answer: the library's settings form as JSON, each row with where its value comes
/// from (`source`, and `from` for a derived one), as the settings answer says it, and what an edit
/// of it turns on or off first (`activates`: the automatic activation of `Specs/Settings.md` §4
/// that its reasons say is needed), so a page can say so before the edit is made.
enum SettingsFormAnswer {
    static func json(
        _ form: SettingsForm, sources: [String: [JSONObject.Member]], catalogue: SettingCatalogue
    )
        throws -> JSONValue
    {
        let value: JSONValue
        do {
            value = try JSONValue(json: try form.jsonData(prettyPrinted: false))
        } catch {
            throw Problem(.internalServerError, "internal", "the form could not be written: \(error)")
        }
        guard var object = value.objectValue, let sections = object["sections"]?.arrayValue else {
            return value
        }
        object["sections"] = .array(
            sections.map { section -> JSONValue in
                guard var section = section.objectValue, let rows = section["rows"]?.arrayValue else {
                    return section
                }
                section["rows"] = .array(
                    rows.map { row -> JSONValue in
                        guard var row = row.objectValue, let key = row["key"]?.stringValue else { return row }
                        for member in sources[key] ?? [] { row[member.key] = member.value }
                        row["activates"] = .array(activations(of: key, reasons: row["reasons"], catalogue))
                        return .object(row)
                    })
                return .object(section)
            })
        return .object(object)
    }

    /// A setting value as the JSON a client sends back.
    static func json(_ value: SettingValue) -> JSONValue {
        switch value {
        case .bool(let flag): return .bool(flag)
        case .number(let number): return .number(JSONNumber(number))
        case .integer(let number): return .number(JSONNumber(number))
        case .string(let text): return .string(text)
        case .color(let color): return .string(color.hexString)
        case .json(let json): return json
        }
    }

    /// The automatic requirements of a setting that its reasons say are not met now: what an
    /// edit of it will also write.
    static func activations(of key: String, reasons: JSONValue?, _ catalogue: SettingCatalogue) -> [JSONValue]
    {
        guard let descriptor = catalogue.descriptor(forKey: key) else { return [] }
        let unmet = Set(
            (reasons?.arrayValue ?? []).compactMap { reason -> String? in
                guard reason.objectValue?["code"] == .string("requiresPreference") else { return nil }
                return reason.objectValue?["arguments"]?.arrayValue?.first?.stringValue
            })
        return descriptor.activator.parts.compactMap { part -> JSONValue? in
            guard case .requiresPreference(let required, let value, automatic: true) = part,
                unmet.contains(required),
                let settingDescriptor = catalogue.descriptor(forKey: required)
            else { return nil }
            return .object([
                "key": .string(required), "value": json(value),
                "title": .string(settingDescriptor.title ?? required),
                "formattedValue": .string(settingDescriptor.format(value)),
            ])
        }
    }
}
