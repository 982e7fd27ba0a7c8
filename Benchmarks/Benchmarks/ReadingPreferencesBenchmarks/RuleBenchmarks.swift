import Benchmark
import Workloads

/// Registers `allocations.profile-rules.20-rules`: evaluating 20 profile rules where only the last
/// holds (Specs/Store.md §4.5), one evaluation per iteration, with its malloc count checked
/// against 0: rule evaluation allocates nothing per rule.
func registerRuleBenchmarks() {
    let workload = Prepared { try RulesWorkload() }
    Benchmark(
        "allocations.profile-rules.20-rules",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal],
            timeUnits: .nanoseconds,
            warmupIterations: 10,
            maxDuration: .milliseconds(500),
            maxIterations: 2_000,
            thresholds: [
                .wallClock: BenchmarkThresholds(),
                .mallocCountTotal: BenchmarkThresholds(absolute: [.p0: 0, .p50: 0, .p90: 0, .p100: 0]),
            ]
        )
    ) { benchmark in
        let rules = try workload.value()
        benchmark.startMeasurement()
        blackHole(rules.run(count: 1))
        benchmark.stopMeasurement()
    }
}
