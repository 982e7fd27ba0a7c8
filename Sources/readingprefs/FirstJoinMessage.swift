import ReadingPreferences
import ReadingPreferencesStore

/// What `readingprefs sync` says of a first sync whose documents differed from the synced ones
/// (Specs/Sync.md §5.9): without `--first`, the differing keys per document and the three choices,
/// on stderr; with it, what the choice did.
enum FirstJoinMessage {
    /// The differences and the choices, when the sync stopped and wrote nothing.
    static func print(_ error: FirstJoinError) {
        Console.error(
            "readingprefs: this device's first sync found documents that differ from the synced ones; "
                + "nothing was written")
        for difference in error.differences {
            Console.error("  \(difference.scope): \(difference.keys.joined(separator: ", "))")
        }
        Console.error(
            """
            readingprefs: sync again with one of:
              --first keep-mine     this device's documents win, on every device
              --first take-theirs   the synced documents replace this device's, which are set aside
                                    in an export file first
              --first merge         key by key, the later change wins
            """)
    }

    /// What the choice did, before the report's other lines.
    static func print(_ outcome: FirstJoinOutcome) {
        let documents = outcome.differences.map(\.scope.description).joined(separator: ", ")
        Console.out("first sync: \(outcome.choice.argument) for \(documents)")
        if let export = outcome.export {
            Console.out("this device's documents were set aside in \(export.path)")
        }
    }

    /// `--json` when the sync stopped: `{"firstJoin": {"choice": null, "differences": [{"scope",
    /// "keys"}], "choices": ["keep-mine", "take-theirs", "merge"]}}`, nothing written.
    static func json(_ error: FirstJoinError) -> JSONValue {
        [
            "firstJoin": [
                "choice": .null, "differences": differences(error.differences),
                "choices": ["keep-mine", "take-theirs", "merge"],
            ]
        ]
    }

    static func differences(_ differences: [FirstJoinDifference]) -> JSONValue {
        .array(
            differences.map {
                ["scope": .string($0.scope.description), "keys": .array($0.keys.map(JSONValue.string))]
            })
    }

    /// `{"choice", "differences": [{"scope", "keys"}], "export"?}`.
    static func json(_ outcome: FirstJoinOutcome) -> JSONValue {
        var object: JSONObject = [
            "choice": .string(outcome.choice.argument),
            "differences": differences(outcome.differences),
        ]
        if let export = outcome.export { object["export"] = .string(export.path) }
        return .object(object)
    }
}
