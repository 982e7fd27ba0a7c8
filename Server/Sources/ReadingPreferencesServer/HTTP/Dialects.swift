import Foundation
import ReadingPreferences

/// The Readium dialects by the names the HTTP contract gives them (`?dialect=`, and the
/// `dialect` parameter of a merge patch's content type): the library's names
/// (`ReadiumDialect.name`).
enum Dialects {
    static func name(_ dialect: ReadiumDialect) -> String { dialect.name }

    /// The dialect a request names; `nil` for none (ours), 400 for one the server does not know.
    static func named(_ name: String?) throws -> ReadiumDialect? {
        guard let name, !name.isEmpty else { return nil }
        guard let dialect = ReadiumDialect(name: name) else {
            throw Problem(
                .badRequest, "unknownDialect",
                "no dialect \(name): use " + ReadiumDialect.names.joined(separator: ", ")
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
