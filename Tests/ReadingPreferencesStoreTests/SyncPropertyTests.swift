import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// A sync scenario: replicas with clock skews, and operations in order. Each operation happens
/// at a moment a little after the previous one; each replica's clock is off by its skew.
struct SyncScenario: CustomStringConvertible, Sendable {
    enum Operation: CustomStringConvertible, Sendable {
        /// A replica sets a key (an edit through the store or a hand edit: the document changes).
        case set(replica: Int, scope: Int, key: Int, value: Int)
        /// A replica removes a key.
        case remove(replica: Int, scope: Int, key: Int)
        /// A replica reconciles with the mirror.
        case reconcile(replica: Int)

        var description: String {
            switch self {
            case .set(let r, let s, let k, let v): return "r\(r) set s\(s).k\(k)=\(v)"
            case .remove(let r, let s, let k): return "r\(r) remove s\(s).k\(k)"
            case .reconcile(let r): return "r\(r) reconcile"
            }
        }
    }

    var skews: [Int64]
    var operations: [Operation]
    /// A random order of the replicas, for the final rounds.
    var order: [Int] = []
    /// How old a removal must be to be forgotten: tiny, so compaction runs all the time.
    var horizon: Int64 = 3

    var description: String {
        "skews \(skews.map { "\($0 / 60_000)min" }), order \(order), ops [\(operations.map(\.description).joined(separator: ", "))]"
    }

    static let scopes = [
        SyncScope(configurable: "epub", layer: .shared),
        SyncScope(configurable: "epub", layer: .publication("urn:x/1")),
        SyncScope(configurable: "pdf", layer: .profile("night")),
    ]

    static func key(_ index: Int) -> String { "k\(index)" }

    static func generate(_ random: inout PropertyRandom, skewed: Bool = false) -> SyncScenario {
        let count = random.int(in: 3...5)
        let skews: [Int64] = (0..<count).map { _ in skewed ? random.pick([-3_600_000, 0, 3_600_000]) : 0 }
        var operations: [Operation] = []
        for _ in 0..<random.int(in: 0...30) {
            let replica = random.below(count)
            switch random.below(10) {
            case 0..<4:
                operations.append(
                    .set(
                        replica: replica, scope: random.below(3), key: random.below(4), value: random.below(5)
                    ))
            case 4..<6:
                operations.append(.remove(replica: replica, scope: random.below(3), key: random.below(4)))
            default: operations.append(.reconcile(replica: replica))
            }
        }
        let keys = (0..<count).map { _ in random.below(1000) }
        let order = (0..<count).sorted { (keys[$0], $0) < (keys[$1], $1) }
        return SyncScenario(skews: skews, operations: operations, order: order)
    }

    static func shrink(_ scenario: SyncScenario) -> [SyncScenario] {
        scenario.operations.indices.reversed().map { index in
            var smaller = scenario
            smaller.operations.remove(at: index)
            return smaller
        }
    }
}

/// Runs scenarios on in-memory replicas and a mirror of their states.
struct SyncSimulation {
    var replicas: [LocalReplica]
    var mirror: [String: ReplicaState] = [:]
    var skews: [Int64]
    var horizon: Int64
    var time: Int64 = 1_764_000_000_000
    var ignored: [IgnoredStamp] = []

    init(_ scenario: SyncScenario) {
        replicas = scenario.skews.indices.map { LocalReplica(replica: "r\($0)") }
        skews = scenario.skews
        horizon = scenario.horizon
    }

    mutating func run(_ operation: SyncScenario.Operation) {
        time += 7
        switch operation {
        case .set(let r, let s, let k, let v):
            replicas[r].documents[SyncScenario.scopes[s], default: Preferences()][SyncScenario.key(k)] =
                .number(JSONNumber(v))
        case .remove(let r, let s, let k):
            replicas[r].documents[SyncScenario.scopes[s]]?[SyncScenario.key(k)] = nil
        case .reconcile(let r):
            reconcile(r)
        }
    }

    mutating func reconcile(_ r: Int) {
        let outcome = replicas[r].reconcile(
            with: Array(mirror.values), now: time + skews[r], tombstoneHorizon: horizon)
        ignored += outcome.ignored
        mirror[replicas[r].replica] = replicas[r].state
    }

    /// Every replica reads every file: twice round, in the given order.
    mutating func settle(order: [Int]) {
        for _ in 0..<2 {
            for r in order {
                time += 7
                reconcile(r)
            }
        }
    }

    /// The documents of a replica, empty ones left out.
    func documents(_ r: Int) -> [SyncScope: Preferences] {
        replicas[r].documents.filter { !$0.value.isEmpty }
    }
}

/// The properties of SPEC 10 on the pure merge and on in-memory replicas: seeded, 1,000 cases
/// each, the seed printed on failure and replayable with `RP_PROPERTY_SEED`.
@Suite("Sync properties")
struct SyncPropertyTests {
    // MARK: The pure merge

    static func randomState(_ random: inout PropertyRandom, replica: String) -> ReplicaState {
        var state = ReplicaState(replica: replica)
        for _ in 0..<random.int(in: 0...8) {
            let scope = random.pick(SyncScenario.scopes)
            let stamp = SyncStamp(
                time: 1_764_000_000_000 + Int64(random.below(4)), counter: random.below(3),
                replica: random.pick(["a", "b", "c"]))
            let entry = SyncEntry(
                value: random.oneIn(3) ? nil : .number(JSONNumber(random.below(4))), stamp: stamp)
            state.documents[scope, default: [:]][SyncScenario.key(random.below(3))] = entry
            if state.merged[stamp.replica].map({ $0 < stamp }) ?? true { state.merged[stamp.replica] = stamp }
        }
        return state
    }

    struct States: CustomStringConvertible {
        var a: ReplicaState
        var b: ReplicaState
        var c: ReplicaState
        var description: String { "\(a.jsonValue)\n\(b.jsonValue)\n\(c.jsonValue)" }
    }

    static func contents(_ state: ReplicaState) -> ReplicaState {
        var copy = state
        copy.replica = "x"
        copy.writer = ""
        copy.documents = copy.documents.filter { !$0.value.isEmpty }
        return copy
    }

    @Test("the merge is commutative, associative and idempotent")
    func mergeLaws() {
        forAll(
            "merge laws",
            generate: { random in
                States(
                    a: Self.randomState(&random, replica: "a"), b: Self.randomState(&random, replica: "b"),
                    c: Self.randomState(&random, replica: "c"))
            }
        ) { states in
            let (a, b, c) = (states.a, states.b, states.c)
            func merge(_ x: ReplicaState, _ y: ReplicaState) -> ReplicaState {
                Self.contents(ReplicaState.merged(x, y))
            }
            try ensure(merge(a, b) == merge(b, a), "not commutative")
            try ensure(merge(merge(a, b), c) == merge(a, merge(b, c)), "not associative")
            try ensure(merge(a, a) == Self.contents(a), "not idempotent")
            try ensure(merge(merge(a, b), b) == merge(a, b), "merging again changes it")
        }
    }

    @Test("a replica state survives its JSON form")
    func stateRoundTrip() throws {
        forAll("replica state JSON round trip", generate: { Self.randomState(&$0, replica: "r") }) { state in
            let again = try ReplicaState(json: state.jsonValue.jsonData())
            try ensure(again == state, "\(again.jsonValue) != \(state.jsonValue)")
        }
    }

    // MARK: Replicas

    @Test("convergence: 3 to 5 replicas edit, remove and reconcile in random orders, then agree")
    func convergence() {
        forAll(
            "sync convergence", generate: { random in SyncScenario.generate(&random) },
            shrink: SyncScenario.shrink
        ) { scenario in
            var simulation = SyncSimulation(scenario)
            scenario.operations.forEach { simulation.run($0) }
            simulation.settle(order: scenario.order)
            for r in simulation.replicas.indices.dropFirst() {
                try ensure(simulation.documents(r) == simulation.documents(0), "r\(r) differs from r0")
            }
        }
    }

    @Test(
        "clock skew: replicas an hour fast or slow converge, and an edit made after reading another's state wins"
    )
    func clockSkew() {
        forAll(
            "sync clock skew", generate: { random in SyncScenario.generate(&random, skewed: true) },
            shrink: SyncScenario.shrink
        ) { scenario in
            var simulation = SyncSimulation(scenario)
            scenario.operations.forEach { simulation.run($0) }
            // Everyone settles; then the slowest-clocked replica edits after reading everything.
            let all = Array(simulation.replicas.indices)
            simulation.settle(order: all)
            let slow = simulation.skews.indices.min { simulation.skews[$0] < simulation.skews[$1] } ?? 0
            simulation.run(.set(replica: slow, scope: 0, key: 0, value: 99))
            simulation.settle(order: all.reversed())
            for r in all {
                try ensure(simulation.documents(r) == simulation.documents(0), "r\(r) differs from r0")
                try ensure(
                    simulation.replicas[r].documents[SyncScenario.scopes[0]]?["k0"] == 99,
                    "r\(r) lost the edit made after reading: \(String(describing: simulation.replicas[r].documents[SyncScenario.scopes[0]]))"
                )
            }
        }
    }

    @Test("no resurrection: a removal is never undone by a stale replica, even once tombstones are forgotten")
    func noResurrection() {
        forAll(
            "sync no resurrection", generate: { random in SyncScenario.generate(&random) },
            shrink: SyncScenario.shrink
        ) { scenario in
            var simulation = SyncSimulation(scenario)
            // Everyone holds k9 = 1 first.
            simulation.run(.set(replica: 0, scope: 0, key: 9, value: 1))
            simulation.settle(order: Array(simulation.replicas.indices))
            // Replica 0 removes it; the others may stay stale for a while; nobody sets it again.
            simulation.run(.remove(replica: 0, scope: 0, key: 9))
            simulation.run(.reconcile(replica: 0))
            scenario.operations.forEach { simulation.run($0) }
            simulation.settle(order: Array(simulation.replicas.indices).reversed())
            for r in simulation.replicas.indices {
                try ensure(
                    simulation.replicas[r].documents[SyncScenario.scopes[0]]?["k9"] == nil,
                    "k9 came back on r\(r)")
            }
        }
    }

    @Test("independence: concurrent edits of different keys on different replicas all survive")
    func independence() {
        forAll(
            "sync independence", generate: { random in SyncScenario.generate(&random) },
            shrink: SyncScenario.shrink
        ) { scenario in
            var simulation = SyncSimulation(scenario)
            scenario.operations.forEach { simulation.run($0) }
            // Each replica edits a key of its own, concurrently, before anyone reconciles.
            for r in simulation.replicas.indices {
                simulation.run(.set(replica: r, scope: 1, key: 10 + r, value: r))
            }
            simulation.settle(order: scenario.order)
            for r in simulation.replicas.indices {
                for other in simulation.replicas.indices {
                    let value = simulation.replicas[r].documents[SyncScenario.scopes[1]]?[
                        SyncScenario.key(10 + other)]
                    try ensure(value == .number(JSONNumber(other)), "r\(r) lost r\(other)'s edit")
                }
            }
        }
    }

    @Test("a new replica with no choices never overwrites a choice made elsewhere")
    func newReplica() {
        forAll(
            "sync new replica", generate: { random in SyncScenario.generate(&random) },
            shrink: SyncScenario.shrink
        ) { scenario in
            var simulation = SyncSimulation(scenario)
            scenario.operations.forEach { simulation.run($0) }
            simulation.settle(order: Array(simulation.replicas.indices))
            let before = simulation.documents(0)
            simulation.replicas.append(LocalReplica(replica: "newcomer"))
            simulation.skews.append(0)
            simulation.settle(
                order: [simulation.replicas.count - 1] + Array(simulation.replicas.indices.dropLast()))
            for r in simulation.replicas.indices {
                try ensure(simulation.documents(r) == before, "r\(r) changed after a new replica joined")
            }
        }
    }

    @Test("a stamp a year ahead is ignored and reported")
    func farFuture() {
        var replica = LocalReplica(replica: "local")
        let now: Int64 = 1_764_000_000_000
        replica.documents[SyncScenario.scopes[0]] = ["fontSize": 1.2]
        var remote = ReplicaState(replica: "broken")
        remote.documents[SyncScenario.scopes[0]] = [
            "fontSize": SyncEntry(
                value: 3.0, stamp: SyncStamp(time: now + 365 * 86_400_000, counter: 0, replica: "broken")),
            "theme": SyncEntry(value: "dark", stamp: SyncStamp(time: now - 5, counter: 0, replica: "broken")),
        ]
        let outcome = replica.reconcile(with: [remote], now: now)
        #expect(outcome.ignored.map(\.key) == ["fontSize"])
        #expect(replica.documents[SyncScenario.scopes[0]] == ["fontSize": 1.2, "theme": "dark"])
        // The broken clock does not pin this replica's clock either.
        #expect(replica.clock.last.time < now + 86_400_000)
    }
}
