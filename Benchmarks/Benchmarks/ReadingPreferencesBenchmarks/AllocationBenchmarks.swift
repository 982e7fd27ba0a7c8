import Benchmark
import Workloads

/// Registers `allocations.<operation>.<document>`: one call per iteration, measured alone, with
/// the malloc count checked against the baseline (exact: allocation counts are deterministic).
/// A's count is reported for reference only; Foundation's allocations are not ours to check.
///
/// Names use dots, not slashes or spaces: package-benchmark writes a static threshold file as
/// `Target.name.p90.json` with `/` and ` ` replaced by `_`, but reads it back by the raw name.
func registerAllocations(
    _ operation: MeasuredOperation, _ document: Document, _ publication: BenchmarkPublication = .none
) {
    let box = WorkloadBox(document, publication)
    let mallocThreshold =
        operation == .jsonSerialization
        ? BenchmarkThresholds()
        : BenchmarkThresholds(absolute: [.p0: 0, .p50: 0, .p90: 0, .p100: 0])
    Benchmark(
        "allocations.\(operation.rawValue).\(document.name)\(publication.suffix)",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal],
            timeUnits: .nanoseconds,
            warmupIterations: 10,
            maxDuration: .milliseconds(500),
            maxIterations: 2_000,
            thresholds: [.wallClock: BenchmarkThresholds(), .mallocCountTotal: mallocThreshold]
        )
    ) { benchmark in
        box.withWorkload(benchmark) { workload in
            benchmark.startMeasurement()
            workload.run(operation, count: 1)
            benchmark.stopMeasurement()
        }
    } setup: {
        try box.prepare()
    }
}
