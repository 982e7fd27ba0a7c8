// The ReadingPreferences benchmark suite (issue 7): run with `swift package benchmark` from
// Benchmarks/. See Benchmarks/README.md for the table and how to check the baseline.
import Benchmark
import Workloads

let benchmarks: @Sendable () -> Void = {
    // Paired ratios: every goal row against A, for both documents.
    for operation in MeasuredOperation.measured {
        for document in Document.all {
            registerPaired(operation, document)
        }
    }
    // A hostile 1 MB upload (issue 11): decoding and validating it stay linear.
    for operation in [MeasuredOperation.decode, .validate] {
        registerPaired(operation, Document.adversarial)
    }
    // The store (issue 12): an edit on files, opening a large library, coalesced edits.
    registerStoreBenchmarks()
    registerSyncBenchmarks()
    // Allocation counts, unpaired: one call per iteration.
    for operation in [MeasuredOperation.jsonSerialization] + MeasuredOperation.measured {
        for document in Document.all {
            registerAllocations(operation, document)
        }
    }
}
