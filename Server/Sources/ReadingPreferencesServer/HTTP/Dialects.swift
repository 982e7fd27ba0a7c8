import Foundation
import ReadingPreferences

/// The Readium dialects by the names the HTTP contract gives them (`?dialect=`, and the
/// `dialect` parameter of a merge patch's content type).
enum Dialects {
    static let byName: [String: ReadiumDialect] = [
        "readium-swift": .readiumSwift, "readium-kotlin": .readiumKotlin, "readium-ts": .readiumTypeScript,
    ]

    static func name(_ dialect: ReadiumDialect) -> String {
        byName.first { $0.value == dialect }?.key ?? dialect.rawValue
    }

    /// The dialect a request names; `nil` for none (ours), 400 for one the server does not know.
    static func named(_ name: String?) throws -> ReadiumDialect? {
        guard let name, !name.isEmpty else { return nil }
        guard let dialect = byName[name] else {
            throw Problem(
                .badRequest, "unknownDialect",
                "no dialect \(name): use " + byName.keys.sorted().joined(separator: ", ")
                    + ", or none for ours")
        }
        return dialect
    }

    /// The `dialect` parameter of a content type
    /// (`application/merge-patch+json; dialect=readium-ts`), or `nil`.
    static func parameter(ofContentType header: String?) throws -> ReadiumDialect? {
        guard let header else { return nil }
        for parameter in header.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2,
                parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "dialect"
            else { continue }
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            return try named(value.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
        }
        return nil
    }
}
