// swift-tools-version: 6.1
// Benchmarks for ReadingPreferences (issue 7). A separate package so that the root package keeps
// no dependencies: `cd Benchmarks && swift package benchmark`. See README.md.
import PackageDescription

let package = Package(
    name: "ReadingPreferencesBenchmarks",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        .package(name: "ReadingPreferences", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The measured operations and the two documents, shared by the benchmarks and the probe.
        .target(
            name: "Workloads",
            dependencies: [
                .product(name: "ReadingPreferences", package: "ReadingPreferences"),
                .product(name: "ReadingPreferencesStore", package: "ReadingPreferences"),
            ],
            path: "Sources/Workloads"
        ),
        // package-benchmark suite: paired ratios against JSONSerialization, allocation counts.
        .executableTarget(
            name: "ReadingPreferencesBenchmarks",
            dependencies: [
                "Workloads",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ReadingPreferences", package: "ReadingPreferences"),
            ],
            path: "Benchmarks/ReadingPreferencesBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // A plain executable for `valgrind --tool=callgrind` (see callgrind.sh): no malloc
        // interposer, no benchmark harness, just N iterations of one operation.
        .executableTarget(
            name: "CallgrindProbe",
            dependencies: [
                "Workloads", .product(name: "ReadingPreferencesStore", package: "ReadingPreferences"),
            ],
            path: "Sources/CallgrindProbe"
        ),
    ],
    swiftLanguageModes: [.v6]
)
