import Foundation

@testable import ReadingPreferences

/// Readium CSS 2's own data files (`settings.json`, `i18n.json`), read in place: never copied into
/// the package (Specs/Resolution.md §5.2, Specs/CSS.md §4.3).
///
/// Where they are, first found wins:
/// 1. the folder `RP_READIUM_CSS_DATA` names;
/// 2. `shared/readium-css/` beside the package's root (a checkout next to the project's shared
///    folder, as on the developers' machines and in CI);
/// 3. `/work/shared/readium-css/`, for a clone made anywhere else on those machines.
///
/// When none has them, the tests that need them are skipped (and say so), unless
/// `RP_REQUIRE_READIUM_CSS_DATA=1`, which CI sets: then they run and fail, naming the folders
/// looked in.
enum ReadiumCSSData {
    static let environmentVariable = "RP_READIUM_CSS_DATA"
    static let requirementVariable = "RP_REQUIRE_READIUM_CSS_DATA"

    /// The folders looked in, in order.
    static var candidates: [URL] {
        var folders: [URL] = []
        if let named = ProcessInfo.processInfo.environment[environmentVariable], !named.isEmpty {
            folders.append(URL(fileURLWithPath: named, isDirectory: true))
        }
        // Tests/ReadingPreferencesTests/Support/<this file> → the package root → its parent.
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        folders.append(root.deletingLastPathComponent().appendingPathComponent("shared/readium-css"))
        folders.append(URL(fileURLWithPath: "/work/shared/readium-css", isDirectory: true))
        return folders
    }

    /// The first folder holding `settings.json`, or `nil`.
    static var folder: URL? {
        candidates.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("settings.json").path)
        }
    }

    /// Whether the data must be there (CI): then a missing file fails instead of skipping.
    static var isRequired: Bool { ProcessInfo.processInfo.environment[requirementVariable] == "1" }

    /// Whether the tests that read the data run: the data is there, or it is required.
    static var shouldRun: Bool { folder != nil || isRequired }

    struct Missing: Error, CustomStringConvertible {
        var file: String
        var description: String {
            "Readium CSS's \(file) is not in any of "
                + ReadiumCSSData.candidates.map(\.path).joined(separator: ", ")
                + " (set \(ReadiumCSSData.environmentVariable) to its folder)"
        }
    }

    /// A data file, parsed.
    static func json(_ name: String) throws -> JSONValue {
        guard let folder else { throw Missing(file: name) }
        return try JSONValue(json: try Data(contentsOf: folder.appendingPathComponent(name)))
    }
}
