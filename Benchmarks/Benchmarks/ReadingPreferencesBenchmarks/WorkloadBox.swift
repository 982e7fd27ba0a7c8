import Benchmark
import Workloads

/// Holds one benchmark's workload across its iterations, so state (the editor, reused settings)
/// carries over and no copy-on-write copy lands in a measured region. Each benchmark runs in
/// its own process, on one thread, hence `@unchecked Sendable`.
final class WorkloadBox: @unchecked Sendable {
    private let document: Document
    private let publication: BenchmarkPublication
    private var workload: Workload?

    init(_ document: Document, _ publication: BenchmarkPublication = .none) {
        self.document = document
        self.publication = publication
    }

    /// Creates and verifies the workload, then warms every operation up once (lazy catalogue
    /// set-up, the editor's first copy), before the benchmark's first iteration.
    func prepare() throws {
        var workload = try Workload(document: document, publication: publication)
        try workload.verify()
        for operation in MeasuredOperation.allCases { workload.run(operation, count: 2) }
        self.workload = workload
    }

    /// Runs `body` on the prepared workload, or fails the benchmark when there is none.
    func withWorkload(_ benchmark: Benchmark, _ body: (inout Workload) -> Void) {
        guard var workload else {
            benchmark.error("workload for \(document.name)\(publication.suffix) was not prepared")
            return
        }
        // Take the value out so it is uniquely referenced: mutating it copies nothing.
        self.workload = nil
        body(&workload)
        self.workload = workload
    }
}
