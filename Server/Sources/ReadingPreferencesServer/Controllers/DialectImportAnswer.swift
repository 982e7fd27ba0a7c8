import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// The answer to a merge patch read in a Readium dialect (Specs/Server.md §8.1): the document as
/// stored after it, and what the import did not take as it came, so a web reader is told rather
/// than finding out on the next read.
///
/// ```json
/// {"preferences": {...},
///  "coerced": [{"key": "wordSpacing", "value": 1.5, "coercedTo": 1}],
///  "keptAside": [{"key": "wordSpacing", "keptAs": "readium-ts:wordSpacing", "reason": "..."}],
///  "dropped": []}
/// ```
enum DialectImportAnswer {
    static func answer(_ read: DialectImport, document: StoredDocument?) -> JSONAnswer {
        let coerced = read.coerced.map { diagnostic -> JSONValue in
            var members: [JSONObject.Member] = [.init(key: "key", value: .string(diagnostic.key))]
            if let value = diagnostic.value { members.append(.init(key: "value", value: value)) }
            if let coercedTo = diagnostic.coercedTo {
                members.append(.init(key: "coercedTo", value: coercedTo))
            }
            if let note = diagnostic.note { members.append(.init(key: "reason", value: .string(note))) }
            return .object(JSONObject(members: members))
        }
        let kept = read.keptAside.map { item -> JSONValue in
            .object([
                "key": .string(item.key), "keptAs": .string(item.keptAs), "reason": .string(item.reason),
            ])
        }
        let dropped = read.dropped.map { item -> JSONValue in
            .object(["key": .string(item.key), "reason": .string(item.reason)])
        }
        let body: JSONValue = .object([
            "preferences": .object(document?.preferences.jsonObject ?? JSONObject()),
            "coerced": .array(coerced), "keptAside": .array(kept), "dropped": .array(dropped),
        ])
        return JSONAnswer(body, etag: document.map { EntityTags.tag($0.version) })
    }
}
