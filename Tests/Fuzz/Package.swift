// swift-tools-version:6.0
import PackageDescription

// The libFuzzer harness, a package of its own so that the root build never sees sanitizer
// flags. Build and run it with `Tests/Fuzz/run.sh` (see the README's "Fuzzing" section).
let package = Package(
    name: "ReadingPreferencesFuzz",
    dependencies: [
        .package(name: "ReadingPreferences", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "ReadingPreferencesFuzzer",
            dependencies: [.product(name: "ReadingPreferences", package: "ReadingPreferences")]
        )
    ],
    swiftLanguageModes: [.v6]
)
