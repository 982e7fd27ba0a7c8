import Benchmark
import Foundation
import Workloads

/// The store's rows (issue 12), paired like the engine's: each iteration alternates the bare
/// operation and the store's, and records the ratio (× 1000).
func registerStoreBenchmarks() {
    let metrics: [BenchmarkMetric] = [PairedMetric.baseline, PairedMetric.operation, PairedMetric.ratio]
    let configuration = Benchmark.Configuration(
        metrics: metrics, timeUnits: .nanoseconds,
        units: [PairedMetric.baseline: .count, PairedMetric.operation: .count, PairedMetric.ratio: .count],
        warmupIterations: 2, maxDuration: .seconds(5), maxIterations: 50, thresholds: noThresholds(metrics))

    // One edit through a store on files (read, apply, durable write) against a bare durable
    // write of the same bytes (Specs/Store.md §14.1). On a replica (`store.device.keepHistory()`)
    // the edit is also stamped from the replica clock and appended to the document's change
    // journal, unflushed: goal ≤ 1.4×. On a root that is no replica (never synced, named or told
    // to keep history) it records no journal: goal ≤ 1.3×.
    let plain = PreparedAsync { () async throws -> StoreWorkload in
        let workload = try StoreWorkload()
        try await workload.verifyJournal(replica: false)
        return workload
    }
    let replica = PreparedAsync { () async throws -> StoreWorkload in
        let workload = try StoreWorkload()
        try await workload.makeReplica()
        try await workload.verifyJournal(replica: true)
        return workload
    }
    // The same edit on a replica whose journal of shared is at its 1 MiB bound (Specs/Store.md
    // §15.4): every append passes the bound, so every edit compacts the journal.
    let full = PreparedAsync { () async throws -> StoreWorkload in
        let workload = try StoreWorkload()
        try await workload.makeReplica()
        try await workload.fillSharedJournal()
        try await workload.verifyJournal(replica: true)
        return workload
    }
    let singleRows = [
        ("paired.store-edit.file", replica), ("paired.store-edit.file.no-journal", plain),
        ("paired.store-edit.file.journal-at-bound", full),
    ]
    for (name, prepared) in singleRows {
        Benchmark(name, configuration: configuration) { benchmark in
            let workload = try await prepared.value()
            var timer = AsyncPairedTimer()
            let bytes = workload.editBytes
            try await timer.measure(rounds: 4, batch: 4, settle: StoreWorkload.settle) {
                workload.bareDurableWrite(bytes)
            } operation: {
                try await workload.storeEdit()
            }
            recordPaired(timer, benchmark)
        }
    }

    // One edit of shared and a book's document, in one batch (all or none: Specs/Store.md §6.3,
    // six flushes), against two bare durable writes (four). Goal: ≤ 1.75×. On a replica (the
    // change of each document journalled), on a root that keeps no journal, and conditional on
    // the ETag read just before it, as a server's `If-Match`.
    let twoDocumentRows: [(String, PreparedAsync<StoreWorkload>, Bool)] = [
        ("paired.store-edit.two-documents", replica, false),
        ("paired.store-edit.two-documents.no-journal", plain, false),
        ("paired.store-edit.two-documents.conditional", replica, true),
    ]
    for (name, prepared, conditional) in twoDocumentRows {
        Benchmark(name, configuration: configuration) { benchmark in
            let workload = try await prepared.value()
            var timer = AsyncPairedTimer()
            let bytes = workload.editBytes
            try await timer.measure(rounds: 4, batch: 4, settle: StoreWorkload.settle) {
                workload.bareDurableWrite(bytes)
                workload.bareDurableWrite(bytes, second: true)
            } operation: {
                try await workload.storeEditOfTwoDocuments(conditional: conditional)
            }
            recordPaired(timer, benchmark)
        }
    }

    // Open a store of 10,000 publications and resolve one, against a bare durable read of that one
    // publication's file. Goal: ≤ 2×.
    let books = Prepared { try StoreWorkload(publications: 10_000) }
    Benchmark("paired.store-open-resolve.10000-books", configuration: configuration) { benchmark in
        let library = try books.value()
        var timer = AsyncPairedTimer()
        var sink = 0
        try await timer.measure(rounds: 16, batch: 16) {
            sink &+= library.bareRead()
        } operation: {
            sink &+= try await library.openAndResolve()
        }
        blackHole(sink)
        recordPaired(timer, benchmark)
    }

    // 10,000 edits through a coalescing store, then flush(): the writes it takes, and whether
    // the last value was kept. Goal: far fewer writes than edits, nothing lost.
    let writes = BenchmarkMetric.custom("writes for 10,000 edits", useScalingFactor: false)
    Benchmark(
        "store.coalesced-10000-edits",
        configuration: .init(
            metrics: [.wallClock, writes], units: [writes: .count], warmupIterations: 0,
            maxDuration: .seconds(10),
            maxIterations: 3, thresholds: noThresholds([.wallClock, writes]))
    ) { benchmark in
        let (saves, kept) = try await StoreWorkload.coalescedEdits()
        guard kept else { throw StoreBenchmarkError.lostEdit }
        benchmark.measurement(writes, saves)
    }
}

func recordPaired(_ timer: AsyncPairedTimer, _ benchmark: Benchmark) {
    benchmark.measurement(PairedMetric.baseline, Int(timer.baselinePerCall.rounded()))
    benchmark.measurement(PairedMetric.operation, Int(timer.operationPerCall.rounded()))
    benchmark.measurement(PairedMetric.ratio, Int((timer.ratio * 1000).rounded()))
}

/// The sync row (issue 13): reconcile replica b of three sharing N publications of five keys,
/// after one key changed on replica a, paired with a bare JSONSerialization parse of the three
/// replica files. Goal: linear in the number of entries, ≤ 3× the parse.
func registerSyncBenchmarks() {
    let metrics: [BenchmarkMetric] = [PairedMetric.baseline, PairedMetric.operation, PairedMetric.ratio]
    for publications in [1_000, 10_000] {
        let replicas = PreparedAsync { try await SyncWorkload(publications: publications) }
        Benchmark(
            "paired.sync-reconcile.\(publications)-books",
            configuration: .init(
                metrics: metrics, timeUnits: .nanoseconds,
                units: [
                    PairedMetric.baseline: .count, PairedMetric.operation: .count, PairedMetric.ratio: .count,
                ],
                warmupIterations: 1, maxDuration: .seconds(20), maxIterations: 5,
                thresholds: noThresholds(metrics))
        ) { benchmark in
            let workload = try await replicas.value()
            try await measurePairedRounds(benchmark) {
                try await workload.changeOneKey()  // untimed: replica a writes its file
            } baseline: {
                _ = try workload.parseReplicaFiles()
            } operation: {
                _ = try await workload.sync(1)
            }
        }
    }
}

/// Issue 19's rows: one reconciliation with a replica file of N keys (or of N high-water marks)
/// that the store is already in step with, paired with a bare JSONSerialization parse of the same
/// file, from 1,000 to 100,000. Goal: ≤ 3× the parse, growing with it; reading the file takes at
/// most 4× its size in memory (`./sync-memory.sh`).
func registerLargeSyncBenchmarks() {
    let metrics: [BenchmarkMetric] = [PairedMetric.baseline, PairedMetric.operation, PairedMetric.ratio]
    for shape in LargeReplicaWorkload.Shape.allCases {
        for count in [1_000, 10_000, 100_000] {
            let prepared = PreparedAsync { try await LargeReplicaWorkload(count: count, shape: shape) }
            Benchmark(
                "paired.sync-large.\(shape.rawValue).\(count)",
                configuration: .init(
                    metrics: metrics, timeUnits: .nanoseconds,
                    units: [
                        PairedMetric.baseline: .count, PairedMetric.operation: .count,
                        PairedMetric.ratio: .count,
                    ],
                    warmupIterations: 1, maxDuration: .seconds(20), maxIterations: count >= 100_000 ? 3 : 10,
                    thresholds: noThresholds(metrics))
            ) { benchmark in
                let workload = try await prepared.value()
                try await measurePairedRounds(benchmark) {
                } baseline: {
                    _ = try workload.bareParse()
                } operation: {
                    _ = try await workload.reconcile()
                }
            }
        }
    }
}

/// Two rounds of a sync row, each running the baseline and the operation once, in alternating
/// order, after an untimed preparation; records their mean times and the ratio (× 1000).
private func measurePairedRounds(
    _ benchmark: Benchmark, prepare: () async throws -> Void, baseline: () throws -> Void,
    operation: () async throws -> Void
) async throws {
    var baselineTotal: UInt64 = 0
    var operationTotal: UInt64 = 0
    for round in 0..<2 {
        try await prepare()
        for first in [round % 2 == 0, round % 2 != 0] {
            let start = monotonicNanoseconds()
            if first { try baseline() } else { try await operation() }
            let elapsed = monotonicNanoseconds() - start
            if first { baselineTotal += elapsed } else { operationTotal += elapsed }
        }
    }
    benchmark.measurement(PairedMetric.baseline, Int(baselineTotal / 2))
    benchmark.measurement(PairedMetric.operation, Int(operationTotal / 2))
    benchmark.measurement(
        PairedMetric.ratio, Int((Double(operationTotal) / Double(max(baselineTotal, 1)) * 1000).rounded()))
}

enum StoreBenchmarkError: Error {
    case lostEdit
}

/// A value made on first use, in the benchmark's own process: registration runs in every
/// process of the suite, so a folder of 10,000 files must not be made there.
final class Prepared<Value>: @unchecked Sendable {
    private var made: Value?
    private let make: () throws -> Value

    init(_ make: @escaping () throws -> Value) { self.make = make }

    func value() throws -> Value {
        if let made { return made }
        let value = try make()
        made = value
        return value
    }
}

/// ``Prepared`` for a value made asynchronously.
final class PreparedAsync<Value>: @unchecked Sendable {
    private var made: Value?
    private let make: () async throws -> Value

    init(_ make: @escaping () async throws -> Value) { self.make = make }

    func value() async throws -> Value {
        if let made { return made }
        let value = try await make()
        made = value
        return value
    }
}
