// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ReadingPreferences",
    platforms: [
        .iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1),
    ],
    products: [
        .library(name: "ReadingPreferences", targets: ["ReadingPreferences"]),
        .executable(name: "readingprefs", targets: ["readingprefs"]),
    ],
    targets: [
        .target(name: "ReadingPreferences"),
        .executableTarget(name: "readingprefs", dependencies: ["ReadingPreferences"]),
        .testTarget(
            name: "ReadingPreferencesTests",
            dependencies: ["ReadingPreferences"],
            exclude: ["Conformance/Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
