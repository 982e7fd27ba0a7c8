import Benchmark
import Workloads

/// Issue 35's reading rows, on a replica's file storage, each paired with a bare read of the
/// same journal file parsed line by line by `JSONSerialization`: `why` of a key journalled 20,
/// 200 and 2,000 times, and the history of a document that had 100, 1,000 and 10,000 changes
/// (its journal bounded at 1 MiB, Specs/Store.md §15.4). Goal: linear in the entries read, which
/// the per-entry cost at each size shows (`entries` is what the journal held).
func registerJournalBenchmarks() {
    let entries = BenchmarkMetric.custom("entries", useScalingFactor: false)
    let metrics: [BenchmarkMetric] = [
        PairedMetric.baseline, PairedMetric.operation, PairedMetric.ratio, entries,
    ]
    func configuration(_ count: Int) -> Benchmark.Configuration {
        .init(
            metrics: metrics, timeUnits: .nanoseconds,
            units: [
                PairedMetric.baseline: .count, PairedMetric.operation: .count, PairedMetric.ratio: .count,
                entries: .count,
            ],
            warmupIterations: 1, maxDuration: .seconds(5), maxIterations: count >= 1_000 ? 10 : 30,
            thresholds: noThresholds(metrics))
    }

    for count in [20, 200, 2_000] {
        let prepared = PreparedAsync { try await JournalWorkload(.why(count)) }
        Benchmark("paired.why.\(count)-entries", configuration: configuration(count)) { benchmark in
            let workload = try await prepared.value()
            var timer = AsyncPairedTimer()
            var sink = 0
            try await timer.measure(rounds: 4, batch: count >= 2_000 ? 1 : 8) {
                sink &+= try workload.bareParse()
            } operation: {
                sink &+= try await workload.explain()
            }
            blackHole(sink)
            recordPaired(timer, benchmark)
            benchmark.measurement(entries, workload.entries)
        }
    }

    for count in [100, 1_000, 10_000] {
        let prepared = PreparedAsync { try await JournalWorkload(.history(count)) }
        Benchmark("paired.history.\(count)-changes", configuration: configuration(count)) { benchmark in
            let workload = try await prepared.value()
            var timer = AsyncPairedTimer()
            var sink = 0
            try await timer.measure(rounds: 4, batch: count >= 1_000 ? 1 : 8) {
                sink &+= try workload.bareParse()
            } operation: {
                sink &+= try await workload.history()
            }
            blackHole(sink)
            recordPaired(timer, benchmark)
            benchmark.measurement(entries, workload.entries)
        }
    }
}
