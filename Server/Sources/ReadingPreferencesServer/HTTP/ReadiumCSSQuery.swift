import Foundation
import Hummingbird
import ReadingPreferences

extension Request {
    /// The Readium CSS the `readiumCSS` query names (`1`, the default, or `2`); 400
    /// (`unknownReadiumCSS`) for anything else (Specs/Server.md §5.3).
    func readiumCSSVersion() throws -> ReadiumCSSVersion {
        guard let text = uri.queryParameters.get("readiumCSS").map({ String($0) }), !text.isEmpty else {
            return .v1
        }
        guard let number = Int(text), let version = ReadiumCSSVersion(rawValue: number) else {
            throw Problem(
                .badRequest, "unknownReadiumCSS",
                "readiumCSS is "
                    + ReadiumCSSVersion.allCases.map { String($0.rawValue) }.joined(separator: " or ")
                    + " (the Readium CSS the navigator ships), not \(text)")
        }
        return version
    }
}
