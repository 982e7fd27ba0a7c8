// Runs one operation N times, for `valgrind --tool=callgrind` (see ../../callgrind.sh):
//
//     CallgrindProbe <operation> <document> <iterations> [--paired]
//
// e.g. `CallgrindProbe decode+resolve+css 12-key.en 1000`. Operations: A, decode,
// decode+resolve, decode+resolve+css, css, edit, resolve, values+resolve, encode, validate;
// documents: 12-key, 2-key, 27+100, 27+1000, 27+10000, adversarial-1MB, each optionally
// followed by the publication the resolver knows: .en, .ar-rtl or .ja-rtl. Warm-up runs outside `probeMeasuredLoop`, which callgrind.sh collects alone
// (`--toggle-collect`), so instructions per iteration = collected / iterations.
//
// With `--paired`, it times <iterations> rounds of A against the operation instead (the same
// PairedTimer as the benchmarks) and prints both per-call times and the ratio: a check of the
// benchmark ratios in a process without package-benchmark's malloc interposer.
import Foundation
import ReadingPreferencesStore
import Workloads

/// A line of `/proc/self/status` (`VmRSS`, `VmHWM`), in kilobytes; 0 where there is none.
func residentKilobytes(_ field: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
}

@inline(never)
func probeMeasuredLoop(_ workload: inout Workload, _ operation: MeasuredOperation, _ iterations: Int) {
    workload.run(operation, count: iterations)
}

let arguments = CommandLine.arguments

// `CallgrindProbe store-open-resolve <iterations>`: the store row that opens a 10,000-book store
// and resolves one book, for a profiler (it does I/O, so callgrind.sh leaves it out).
@inline(never)
func probeMeasuredStoreLoop(_ workload: StoreWorkload, _ iterations: Int) async throws -> Int {
    var sum = 0
    for _ in 0..<iterations { sum &+= try await workload.openAndResolve() }
    return sum
}

/// The store row's paired ratio, measured off the main actor as the benchmark does.
nonisolated func probePairedStoreRatio(_ workload: StoreWorkload, _ iterations: Int) async throws
    -> AsyncPairedTimer
{
    var timer = AsyncPairedTimer()
    var sink = 0
    try await timer.measure(rounds: max(iterations / 16, 1), batch: 16) {
        sink &+= workload.bareRead()
    } operation: {
        sink &+= try await workload.openAndResolve()
    }
    blackHoleProbe(sink)
    return timer
}

@inline(never) func blackHoleProbe(_ value: Int) { if value == -1 { print(value) } }

/// Runs `body` on the global executor while the main thread waits on a semaphore, and returns
/// the exit status. Under valgrind 3.19 a main thread that `await`s is parked by libdispatch in
/// `sigsuspend`, whose wrapper writes into libdispatch's read-only signal mask, and valgrind
/// crashes (SIGSEGV inside valgrind); a main thread blocked on a semaphore never gets there.
func runOffMain(_ body: @escaping @Sendable () async throws -> Void) -> Int32 {
    final class Outcome: @unchecked Sendable { var status: Int32 = 0 }
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do { try await body() } catch {
            print("error: \(error)")
            outcome.status = 1
        }
        done.signal()
    }
    done.wait()
    return outcome.status
}

/// What `store-loop` runs: a store edit on one kind of root, or the bare write(s) it is paired with.
enum StoreLoop: String {
    case bare, bareTwo = "bare-two", noJournal = "no-journal", journal, journalAtBound = "journal-at-bound"
    case twoDocuments = "two-documents", twoDocumentsNoJournal = "two-documents.no-journal"
    case inMemory = "in-memory", bareHop = "bare-hop"

    /// The store's root for this kind: a replica or not, its journal filled or not.
    func prepare() async throws -> StoreWorkload {
        let workload = try StoreWorkload()
        switch self {
        case .journal, .twoDocuments:
            try await workload.makeReplica()
        case .journalAtBound:
            try await workload.makeReplica()
            try await workload.fillSharedJournal()
        case .bare, .bareTwo, .noJournal, .twoDocumentsNoJournal, .inMemory, .bareHop: break
        }
        try await workload.verifyJournal(
            replica: self == .journal || self == .twoDocuments || self == .journalAtBound)
        return workload
    }

    /// The bare write(s) an edit of this kind is paired with.
    var bare: StoreLoop { self == .twoDocuments || self == .twoDocumentsNoJournal ? .bareTwo : .bare }

    func run(_ workload: StoreWorkload) async throws {
        switch self {
        case .bare: workload.bareDurableWrite(workload.editBytes)
        case .bareTwo:
            workload.bareDurableWrite(workload.editBytes)
            workload.bareDurableWrite(workload.editBytes, second: true)
        case .noJournal, .journal, .journalAtBound: try await workload.storeEdit()
        case .twoDocuments, .twoDocumentsNoJournal: try await workload.storeEditOfTwoDocuments()
        case .inMemory: try await workload.inMemoryEdit()
        case .bareHop: await workload.bareDurableWriteOnBlockingThread(workload.editBytes)
        }
    }
}

@inline(never)
func probeMeasuredStoreEditLoop(_ workload: StoreWorkload, _ kind: StoreLoop, _ calls: Int) async throws {
    for _ in 0..<calls { try await kind.run(workload) }
}

@inline(never)
func probeMeasuredJournalLoop(_ workload: JournalWorkload, why: Bool, bare: Bool, _ calls: Int) async throws
    -> Int
{
    var sum = 0
    for _ in 0..<calls {
        if bare {
            sum &+= try workload.bareParse()
        } else {
            sum &+= why ? try await workload.explain() : try await workload.history()
        }
    }
    return sum
}

/// Reconciles `iterations` times: what callgrind.sh's sync rows collect.
@inline(never)
func probeMeasuredSyncLoop(_ workload: LargeReplicaWorkload, _ iterations: Int) async throws -> Int {
    var sum = 0
    for _ in 0..<iterations { sum &+= try await workload.reconcile() }
    return sum
}

/// Parses the file with JSONSerialization `iterations` times: the rows' baseline.
@inline(never)
func probeMeasuredParseLoop(_ workload: LargeReplicaWorkload, _ iterations: Int) throws -> Int {
    var sum = 0
    for _ in 0..<iterations { sum &+= try workload.bareParse() }
    return sum
}

// `CallgrindProbe sync-loop|parse-loop keys|high-water-marks COUNT ITERATIONS`: the loops
// callgrind.sh collects for the sync rows (instructions grow linearly, whatever the caches do).
if arguments.count == 5, arguments[1] == "sync-loop" || arguments[1] == "parse-loop",
    let shape = LargeReplicaWorkload.Shape(rawValue: arguments[2]), let count = Int(arguments[3]),
    let iterations = Int(arguments[4])
{
    do {
        let workload = try await LargeReplicaWorkload(count: count, shape: shape)
        let sum =
            arguments[1] == "sync-loop"
            ? try await probeMeasuredSyncLoop(workload, iterations)
            : try probeMeasuredParseLoop(workload, iterations)
        print(sum)
        exit(0)
    } catch {
        print("error: \(error)")
        exit(1)
    }
}

// `CallgrindProbe write-large keys|high-water-marks COUNT FILE`, then `CallgrindProbe read-large
// FILE` in a fresh process: the memory reading a replica file takes (the peak resident size's
// growth while it is read, against the file's size; sync-memory.sh runs both).
if arguments.count == 5, arguments[1] == "write-large",
    let shape = LargeReplicaWorkload.Shape(rawValue: arguments[2]), let count = Int(arguments[3])
{
    try LargeReplicaWorkload.bigFile(count: count, shape: shape).write(to: URL(fileURLWithPath: arguments[4]))
    exit(0)
}
if arguments.count == 3, arguments[1] == "read-large" {
    let before = residentKilobytes("VmRSS")
    let data = try Data(contentsOf: URL(fileURLWithPath: arguments[2]))
    let state = try ReplicaState.read(data).state
    let peak = residentKilobytes("VmHWM")
    print(
        "file \(data.count) bytes, \(state.entryCount) entries, \(state.merged.count) merged;"
            + " peak growth \((peak - before) * 1024) bytes, \(Double((peak - before) * 1024) / Double(data.count))× the file"
    )
    exit(0)
}

// `CallgrindProbe sync-large keys|high-water-marks COUNT [ROUNDS]`: issue 19's sync rows, timed
// in one process: reconcile against a bare parse of the same file, medians of ROUNDS.
if arguments.count >= 4, arguments[1] == "sync-large",
    let shape = LargeReplicaWorkload.Shape(rawValue: arguments[2]), let count = Int(arguments[3])
{
    do {
        let workload = try await LargeReplicaWorkload(count: count, shape: shape)
        let rounds = arguments.count > 4 ? Int(arguments[4]) ?? 5 : 5
        var parse: [UInt64] = []
        var reconcile: [UInt64] = []
        for round in 0..<rounds {
            for first in [round % 2 == 0, round % 2 != 0] {
                let start = monotonicNanoseconds()
                if first { _ = try workload.bareParse() } else { _ = try await workload.reconcile() }
                let elapsed = monotonicNanoseconds() - start
                if first { parse.append(elapsed) } else { reconcile.append(elapsed) }
            }
        }
        let medianParse = parse.sorted()[parse.count / 2]
        let medianReconcile = reconcile.sorted()[reconcile.count / 2]
        print(
            "sync-large \(shape.rawValue) \(count): file \(workload.fileBytes) bytes, parse \(medianParse / 1000) µs,"
                + " reconcile \(medianReconcile / 1000) µs, ratio \(Double(medianReconcile) / Double(medianParse))"
        )
        exit(0)
    } catch {
        print("error: \(error)")
        exit(1)
    }
}

// `CallgrindProbe layered 12-key.en CALLS` (and `layered-bare`): resolution with the device-class
// and this-device layers and 20 profile rules (`LayeredWorkload`), or the bare parse of the same
// three documents, CALLS times after a warm-up; callgrind.sh's `rules` row collects
// `probeMeasuredLoopLayered` alone.
@inline(never)
func probeMeasuredLoopLayered(_ workload: LayeredWorkload, bare: Bool, _ calls: Int) -> Int {
    bare ? workload.bare(count: calls) : workload.run(count: calls)
}

/// `CallgrindProbe rules-only 20-rules CALLS`: the 20 rules alone, for callgrind.sh's count of
/// the allocator's instructions inside the loop (none).
@inline(never)
func probeMeasuredLoopRules(_ workload: RulesWorkload, _ calls: Int) -> Int { workload.run(count: calls) }

if arguments.count == 4, arguments[1] == "rules-only", let calls = Int(arguments[3]) {
    do {
        let workload = try RulesWorkload()
        blackHoleProbe(probeMeasuredLoopRules(workload, 8))
        blackHoleProbe(probeMeasuredLoopRules(workload, calls))
        exit(0)
    } catch {
        print("error: \(error)")
        exit(1)
    }
}

if arguments.count == 4, arguments[1] == "layered" || arguments[1] == "layered-bare",
    let calls = Int(arguments[3])
{
    do {
        let workload = try LayeredWorkload()
        let bare = arguments[1] == "layered-bare"
        blackHoleProbe(probeMeasuredLoopLayered(workload, bare: bare, 8))
        blackHoleProbe(probeMeasuredLoopLayered(workload, bare: bare, calls))
        exit(0)
    } catch {
        print("error: \(error)")
        exit(1)
    }
}

// `CallgrindProbe store-loop KIND CALLS`: CALLS store edits (or bare durable writes) after a
// warm-up, for callgrind.sh's store table (instructions of every thread, start-up removed by
// running two counts and taking the difference) and for counting flushes with strace
// (flushes.sh). KIND: bare, bare-two, no-journal, journal, journal-at-bound, two-documents,
// two-documents.no-journal; and two parts of an edit's cost, paired with the bare write:
// in-memory (the same edit on a store on memory) and bare-hop (the bare write on a blocking
// thread). With `--paired`, times the edit against its bare write(s) instead.
if arguments.count >= 4, arguments[1] == "store-loop", let kind = StoreLoop(rawValue: arguments[2]),
    let calls = Int(arguments[3])
{
    exit(
        runOffMain { () async throws -> Void in
            let workload = try await kind.prepare()
            if arguments.count > 4, arguments[4] == "--paired" {
                var timer = AsyncPairedTimer()
                try await timer.measure(rounds: max(calls / 4, 1), batch: 4, settle: StoreWorkload.settle) {
                    try await kind.bare.run(workload)
                } operation: {
                    try await kind.run(workload)
                }
                print(
                    "\(kind.rawValue): bare \(Int(timer.baselinePerCall)) ns/call, store \(Int(timer.operationPerCall)) ns/call,"
                        + " ratio \(timer.ratio)")
            } else {
                for _ in 0..<8 { try await kind.run(workload) }
                try await probeMeasuredStoreEditLoop(workload, kind, calls)
                print("\(kind.rawValue) \(calls) journal \(workload.sharedJournalBytes ?? 0) bytes")
            }
        })
}

// `CallgrindProbe journal-loop why|history COUNT CALLS` (and `journal-bare`, the bare parse of
// the same journal): `why fontSize` with COUNT entries of the key, or the history of a document
// that had COUNT changes, CALLS times.
if arguments.count == 5, arguments[1] == "journal-loop" || arguments[1] == "journal-bare",
    let count = Int(arguments[3]), let calls = Int(arguments[4]),
    arguments[2] == "why" || arguments[2] == "history"
{
    exit(
        runOffMain { () async throws -> Void in
            let workload = try await JournalWorkload(arguments[2] == "why" ? .why(count) : .history(count))
            let bare = arguments[1] == "journal-bare"
            let sum = try await probeMeasuredJournalLoop(
                workload, why: arguments[2] == "why", bare: bare, calls)
            print(
                "\(arguments[1]) \(arguments[2]) \(count): \(workload.entries) entries, \(workload.journalBytes) bytes (\(sum))"
            )
        })
}

if arguments.count == 3, arguments[1] == "store-open-resolve", let iterations = Int(arguments[2]) {
    do {
        let workload = try StoreWorkload(publications: 10_000)
        var early = 0
        let earlyStart = monotonicNanoseconds()
        for _ in 0..<iterations { early &+= workload.bareRead() }
        let earlyEnd = monotonicNanoseconds()
        print("bare read before any store call \((earlyEnd - earlyStart) / UInt64(iterations)) (\(early))")
        _ = try await probeMeasuredStoreLoop(workload, 16)
        let start = monotonicNanoseconds()
        let sum = try await probeMeasuredStoreLoop(workload, iterations)
        let main = monotonicNanoseconds()
        let detached = try await Task.detached { try await probeMeasuredStoreLoop(workload, iterations) }
            .value
        let end = monotonicNanoseconds()
        var bare = 0
        for _ in 0..<iterations { bare &+= workload.bareRead() }
        let bareEnd = monotonicNanoseconds()
        // Then paired as the benchmark row pairs them: blocks of 16, alternating which runs first.
        let timer = try await probePairedStoreRatio(workload, iterations)
        print(
            "store-open-resolve ns/call from the main thread \((main - start) / UInt64(iterations)),"
                + " from a task \((end - main) / UInt64(iterations)), bare read \((bareEnd - end) / UInt64(iterations)),"
                + " paired ratio \(timer.ratio)"
                + " (\(sum &+ detached &+ bare))")
        exit(0)
    } catch {
        print("error: \(error)")
        exit(1)
    }
}
let paired = arguments.count == 5 && arguments[4] == "--paired"
guard arguments.count == 4 || paired,
    let operation = MeasuredOperation(rawValue: arguments[1]),
    case let (documentName, publication) = BenchmarkPublication.split(arguments[2]),
    let document = Document.named(documentName),
    let iterations = Int(arguments[3]), iterations > 0
else {
    let operations = MeasuredOperation.allCases.map(\.rawValue).joined(separator: ", ")
    print("usage: CallgrindProbe <operation> <document> <iterations> [--paired]")
    print("operations: \(operations); documents: \(Document.every.map(\.name).joined(separator: ", "))")
    print("publications (a suffix of the document): .en, .ar-rtl, .ja-rtl")
    exit(2)
}

do {
    var workload = try Workload(document: document, publication: publication)
    try workload.verify()
    workload.run(operation, count: 16)  // warm-up: lazy set-up, first copies
    if paired {
        var timer = PairedTimer()
        timer.measure(operation, on: &workload, rounds: iterations)
        let line = [
            operation.rawValue, workload.name, String(Int(timer.baselinePerCall.rounded())),
            String(Int(timer.operationPerCall.rounded())), String(Int((timer.ratio * 1000).rounded())),
        ]
        print("operation document A-ns/call operation-ns/call ratio-x1000")
        print(line.joined(separator: " "))
    } else {
        probeMeasuredLoop(&workload, operation, iterations)
        print("\(operation.rawValue) \(workload.name) \(iterations) checksum \(workload.checksum)")
    }
} catch {
    print("error: \(error)")
    exit(1)
}
