// swift-tools-version:6.0
import PackageDescription

// The modules draw the layers; each one only imports those below it:
//
//   readingprefs (CLI)  →  ReadingPreferencesConformance  →  ReadingPreferencesStore  →  ReadingPreferences
//   ReadingPreferencesSQL (a storage over any SQL client)  →  ReadingPreferencesStore
//
// ReadingPreferences is the engine apps import: no I/O, Foundation only.
let package = Package(
    name: "ReadingPreferences",
    platforms: [
        .iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1),
    ],
    products: [
        .library(name: "ReadingPreferences", targets: ["ReadingPreferences"]),
        .library(name: "ReadingPreferencesStore", targets: ["ReadingPreferencesStore"]),
        .library(name: "ReadingPreferencesObservation", targets: ["ReadingPreferencesObservation"]),
        .library(name: "ReadingPreferencesConformance", targets: ["ReadingPreferencesConformance"]),
        .library(name: "ReadingPreferencesSQL", targets: ["ReadingPreferencesSQL"]),
        .executable(name: "readingprefs", targets: ["readingprefs"]),
    ],
    targets: [
        // The engine: preferences, settings, resolution, editors, Readium CSS, forms.
        .target(name: "ReadingPreferences"),
        // Keeping preferences: durable plain files (the store's own files in one hidden folder),
        // profiles, observation, the change journal (provenance, history, revert), sync.
        .target(name: "ReadingPreferencesStore", dependencies: ["ReadingPreferences"]),
        // The @Observable model for SwiftUI (iOS 17 / macOS 14); everything else keeps iOS 15.
        .target(
            name: "ReadingPreferencesObservation", dependencies: ["ReadingPreferences", "ReadingPreferencesStore"]),
        // The store's documents in a SQL table, over any database client (the back end's storage),
        // and a user's sync log: the server replica, its changes feed and the change journal.
        .target(name: "ReadingPreferencesSQL", dependencies: ["ReadingPreferences", "ReadingPreferencesStore"]),
        // The conformance runner and its case model, for the CLI and for apps' own test suites.
        .target(name: "ReadingPreferencesConformance", dependencies: ["ReadingPreferences", "ReadingPreferencesStore"]),
        // The CLI: parsing and printing only.
        .executableTarget(
            name: "readingprefs",
            dependencies: ["ReadingPreferences", "ReadingPreferencesStore", "ReadingPreferencesConformance"]
        ),
        // Helpers every test target shares: seeded properties, hostile inputs.
        .target(name: "TestSupport", dependencies: ["ReadingPreferences"], path: "Tests/TestSupport"),
        .testTarget(name: "ReadingPreferencesTests", dependencies: ["ReadingPreferences", "TestSupport"]),
        .testTarget(
            name: "ReadingPreferencesConformanceTests",
            dependencies: ["ReadingPreferencesConformance", "ReadingPreferences"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "readingprefsTests", dependencies: ["ReadingPreferences", "TestSupport"]),
        .testTarget(
            name: "ReadingPreferencesStoreTests",
            dependencies: [
                "ReadingPreferencesStore", "ReadingPreferencesConformance", "ReadingPreferencesSQL", "ReadingPreferences",
                "TestSupport",
            ]
        ),
        .testTarget(
            name: "ReadingPreferencesObservationTests",
            dependencies: ["ReadingPreferencesObservation", "ReadingPreferencesStore", "ReadingPreferences"]
        ),
        // Writes documents in a loop for the crash-safety test, which kills it at random.
        .executableTarget(
            name: "DurableWriteProbe", dependencies: ["ReadingPreferencesStore", "ReadingPreferences"],
            path: "Tests/DurableWriteProbe"),
    ],
    swiftLanguageModes: [.v6]
)
