// swift-tools-version: 6.1
// The reading back end (Specs/Server.md §1, issue 22): the library's store on PostgreSQL or an embedded
// SQLite database, behind Hummingbird routes, and a sync replica devices sync through. A
// separate package, so the root package keeps no dependencies. See README.md.
import PackageDescription

let package = Package(
    name: "ReadingPreferencesServer",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ReadingPreferencesServer", targets: ["ReadingPreferencesServer"]),
        .executable(name: "readingprefs-server", targets: ["readingprefs-server"]),
    ],
    dependencies: [
        .package(name: "ReadingPreferences", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        // Already in the graph through PostgresNIO; the server hashes tokens with its SHA-256.
        .package(url: "https://github.com/apple/swift-crypto.git", "3.9.0"..<"6.0.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // Graceful shutdown: the application's services (already in the graph through Hummingbird).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        // The executable's options: the ecosystem's parser, with help and errors users know.
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        // TLS to PostgreSQL (`sslmode` in the address); already in the graph through PostgresNIO.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.27.0"),
        // The HTTP parts a connection's deadlines watch; already in the graph through Hummingbird.
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
    ],
    targets: [
        .target(
            name: "ReadingPreferencesServer",
            dependencies: [
                .product(name: "ReadingPreferences", package: "ReadingPreferences"),
                .product(name: "ReadingPreferencesStore", package: "ReadingPreferences"),
                .product(name: "ReadingPreferencesSQL", package: "ReadingPreferences"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            // The HTTP contract, served at GET /openapi.json byte for byte; the settings page's
            // files (PageController.assets).
            resources: [
                .embedInCode("Contract/openapi.json"), .embedInCode("Page/settings.html"),
                .embedInCode("Page/settings.css"), .embedInCode("Page/settings.js"), .embedInCode("Page/page.js"),
                .embedInCode("Page/form.js"), .embedInCode("Page/controls.js"), .embedInCode("Page/edits.js"),
                .embedInCode("Page/conflicts.js"), .embedInCode("Page/preview.js"), .embedInCode("Page/live.js"),
                .embedInCode("Page/history.js"),
                .embedInCode("Page/passage.svg"), .embedInCode("Page/favicon.ico"),
            ]
        ),
        .executableTarget(
            name: "readingprefs-server",
            dependencies: [
                "ReadingPreferencesServer", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "ReadingPreferencesServerTests",
            dependencies: [
                "ReadingPreferencesServer",
                .product(name: "ReadingPreferencesConformance", package: "ReadingPreferences"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
