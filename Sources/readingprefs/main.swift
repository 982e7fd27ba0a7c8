import Foundation

// The `readingprefs` command: argument parsing and printing only; the logic lives in the
// ReadingPreferences library (SPEC 11).
exit(await ReadingPrefsTool.run(Array(CommandLine.arguments.dropFirst())))
