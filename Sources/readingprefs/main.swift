import Foundation

// The `readingprefs` command: argument parsing and printing only; the logic lives in the
// ReadingPreferences library (Specs/README.md §1).
exit(await ReadingPrefsTool.run(Array(CommandLine.arguments.dropFirst())))
