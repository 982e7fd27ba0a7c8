import Foundation
import ReadingPreferences

/// The form answer: the library's settings form as JSON, each row with where its value comes
/// from (`source`, and `from` for a derived one), as the settings answer says it.
enum SettingsFormAnswer {
    static func json(_ form: SettingsForm, sources: [String: [JSONObject.Member]]) throws -> JSONValue {
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
                        return .object(row)
                    })
                return .object(section)
            })
        return .object(object)
    }
}
