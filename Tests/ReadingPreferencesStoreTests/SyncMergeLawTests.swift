import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// Three replica states of random entries: stamps that collide often (the tie rule), keys that
/// differ only by canonical equivalence, removals, values written with different number texts.
struct ReplicaStates: CustomStringConvertible {
    var a: ReplicaState
    var b: ReplicaState
    var c: ReplicaState

    var description: String { "\(a)\n\(b)\n\(c)" }

    static let keys = ["k", "caf\u{E9}", "cafe\u{301}", "\u{212A}", "K"]
    static let values: [JSONValue?] = [
        nil, 1, .number(JSONNumber(text: "1.50") ?? JSONNumber(1.5)), 1.5, "dark", ["b": 1, "a": [true]],
    ]

    static func state(_ random: inout PropertyRandom, replica: String) throws -> ReplicaState {
        var documents: [SyncScope: SyncDocument] = [:]
        var scopes: [SyncScope] = []
        for text in ["epub/shared", "epub/publication/caf\u{E9}", "epub/publication/cafe\u{301}"] {
            scopes.append(try scope(text))
        }
        for _ in 0..<random.int(in: 0...8) {
            let entry = SyncEntry(
                value: random.pick(values),
                stamp: try stamp(
                    1_764_000_000_000 + UInt64(random.below(3)), UInt64(random.below(2)),
                    random.pick(["a", "b"])))
            documents[random.pick(scopes), default: SyncDocument()].merge(entry, forKey: random.pick(keys))
        }
        return ReplicaState(replica: try replicaID(replica), documents: documents)
    }

    static func generate(_ random: inout PropertyRandom) -> ReplicaStates {
        // The scopes and ids above are valid: a failure to make them fails the law below.
        let states = (try? ["a", "b", "c"].map { try state(&random, replica: $0) }) ?? []
        let empty = ReplicaState(replica: ReplicaID.random())
        return ReplicaStates(
            a: states.first ?? empty, b: states.dropFirst().first ?? empty, c: states.last ?? empty)
    }
}

/// The laws of the one merge sync runs (Specs/Sync.md §3), on generated states: seeded, 1,000 cases
/// each, the seed printed on failure and replayable with `RP_PROPERTY_SEED`.
@Suite("The sync merge's laws")
struct SyncMergeLawTests {
    /// A state's contents, apart from who wrote it.
    static func contents(_ state: ReplicaState) -> ReplicaState {
        var copy = state
        copy.replica = ReplicaID("x") ?? state.replica
        copy.writer = ""
        return copy
    }

    static func merge(_ x: ReplicaState, _ y: ReplicaState) -> ReplicaState {
        contents(ReplicaState.merged(x, y))
    }

    @Test("the merge is commutative, associative and idempotent, and merged covers every entry")
    func laws() {
        forAll("sync merge laws", generate: ReplicaStates.generate) { states in
            let (a, b, c) = (states.a, states.b, states.c)
            try ensure(Self.merge(a, b) == Self.merge(b, a), "not commutative")
            try ensure(Self.merge(Self.merge(a, b), c) == Self.merge(a, Self.merge(b, c)), "not associative")
            try ensure(Self.merge(a, a) == Self.contents(a), "not idempotent")
            try ensure(Self.merge(Self.merge(a, b), b) == Self.merge(a, b), "merging again changes it")
            let merged = ReplicaState.merged(a, b)
            for document in merged.documents.values {
                for (_, entry) in document.all {
                    try ensure(
                        merged.merged[entry.stamp.replica].map { !($0 < entry.stamp) } ?? false,
                        "merged misses \(entry.stamp)")
                }
            }
        }
    }

    @Test("a replica state survives its file, byte for byte and key for key")
    func fileRoundTrip() {
        forAll("replica file round trip", generate: ReplicaStates.generate) { states in
            let data = states.a.jsonData()
            let again = try ReplicaState.read(data)
            try ensure(again.skipped.isEmpty, "skipped \(again.skipped)")
            try ensure(again.state == states.a, "\(again.state) != \(states.a)")
            try ensure(again.state.jsonData() == data, "the file is not written alike again")
        }
    }
}
