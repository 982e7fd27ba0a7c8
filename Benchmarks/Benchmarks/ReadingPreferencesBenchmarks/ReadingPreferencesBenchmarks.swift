// The ReadingPreferences benchmark suite (issues 7, 11 to 14, 19, 21, 27, 29, 35): run with `swift package benchmark`
// from Benchmarks/. See Benchmarks/README.md for the tables and how to check the thresholds.
import Benchmark
import Workloads

let benchmarks: @Sendable () -> Void = {
    // Paired ratios against A. Operations that resolve run against real books (en, ar-rtl,
    // ja-rtl), and against no publication as in issue 7; decode and encode do not resolve.
    for document in Document.all {
        for operation in MeasuredOperation.measured {
            let publications: [BenchmarkPublication] =
                operation.resolves ? [.none, .english, .arabic, .japanese] : [.none]
            for publication in publications {
                registerPaired(operation, document, publication)
            }
        }
    }
    // Large documents: 27 keys plus 100, 1,000 and 10,000 unknown keys (issue 14).
    for document in Document.wide {
        for operation in [MeasuredOperation.decode, .decodeResolveCSS, .encode] {
            registerPaired(operation, document, operation.resolves ? .english : .none)
        }
    }
    // The back end's form route on a stored document of about 1 MiB (issue 29): at most 3× A.
    registerPaired(.form, Document.megabyte, .english)
    // A hostile 1 MB upload (issue 11): decoding and validating it stay linear.
    for operation in [MeasuredOperation.decode, .validate] {
        registerPaired(operation, Document.adversarial)
    }
    // The store (issue 12) and sync (issue 13).
    registerStoreBenchmarks()
    // Why and history, read from the change journal (issue 35).
    registerJournalBenchmarks()
    registerSyncBenchmarks()
    registerLargeSyncBenchmarks()
    // Profile rules (issue 36): evaluating 20 rules allocates nothing.
    registerRuleBenchmarks()
    // Allocation counts, unpaired: one call per iteration.
    for document in Document.all {
        for operation in [MeasuredOperation.jsonSerialization] + MeasuredOperation.measured {
            let publications: [BenchmarkPublication] =
                operation.resolves ? [.none, .english, .arabic, .japanese] : [.none]
            for publication in publications {
                registerAllocations(operation, document, publication)
            }
        }
    }
}
