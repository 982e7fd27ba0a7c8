import Benchmark
import Workloads

/// The custom metrics a paired benchmark reports, once per iteration.
enum PairedMetric {
    /// Nanoseconds per A call (`JSONSerialization.jsonObject(with:)`), in this iteration.
    static let baseline = BenchmarkMetric.custom("A (ns/call)", useScalingFactor: false)
    /// Nanoseconds per call of the operation, in this iteration.
    static let operation = BenchmarkMetric.custom("operation (ns/call)", useScalingFactor: false)
    /// The operation's time over A's, × 1000 (so 500 means 0.5× A).
    static let ratio = BenchmarkMetric.custom("ratio to A (x1000)", useScalingFactor: false)
}

/// Rounds per iteration: each round is one block of A and one block of the operation.
private let roundsPerIteration = 16

/// Registers `paired.<operation>.<document>`: each iteration alternates A and the operation on
/// the same bytes (``PairedTimer``) and records both per-call times and their ratio, so a
/// change of machine speed cannot bias the ratio. Thresholds: none (timing is not checked).
func registerPaired(
    _ operation: MeasuredOperation, _ document: Document, _ publication: BenchmarkPublication = .none
) {
    let box = WorkloadBox(document, publication)
    let metrics: [BenchmarkMetric] = [
        .wallClock, PairedMetric.baseline, PairedMetric.operation, PairedMetric.ratio,
    ]
    Benchmark(
        "paired.\(operation.rawValue).\(document.name)\(publication.suffix)",
        configuration: .init(
            metrics: metrics,
            timeUnits: .nanoseconds,
            units: [
                PairedMetric.baseline: .count, PairedMetric.operation: .count, PairedMetric.ratio: .count,
            ],
            warmupIterations: 10,
            maxDuration: .seconds(2),
            maxIterations: 5_000,
            thresholds: noThresholds(metrics)
        )
    ) { benchmark in
        var timer = PairedTimer()
        box.withWorkload(benchmark) { workload in
            timer.measure(operation, on: &workload, rounds: roundsPerIteration)
        }
        benchmark.measurement(PairedMetric.baseline, Int(timer.baselinePerCall.rounded()))
        benchmark.measurement(PairedMetric.operation, Int(timer.operationPerCall.rounded()))
        benchmark.measurement(PairedMetric.ratio, Int((timer.ratio * 1000).rounded()))
    } setup: {
        try box.prepare()
    }
}

/// Explicitly no thresholds, so that `baseline check` ignores a metric (metrics without an
/// entry would get package-benchmark's default 5 % relative tolerance on timing).
func noThresholds(_ metrics: [BenchmarkMetric]) -> [BenchmarkMetric: BenchmarkThresholds] {
    Dictionary(uniqueKeysWithValues: metrics.map { ($0, BenchmarkThresholds()) })
}
