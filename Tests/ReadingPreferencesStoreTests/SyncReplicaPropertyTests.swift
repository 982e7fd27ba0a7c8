import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// A scenario of 3 to 5 devices: each a storage in memory, wrapped to inject faults, with stores
/// on it, syncing through an exchange of replica files. Every step goes through the path an app
/// runs: store writes, `store.sync(with:)`, the storage protocol, the file format.
struct SyncWorldScenario: CustomStringConvertible, Sendable {
    enum Fault: Sendable, CustomStringConvertible {
        /// The storage fails after this many writes of the sync.
        case failAfter(Int)
        /// Another process of the device sets a key while the sync writes.
        case editDuring(scope: Int, key: Int, value: Int)
        /// The exchange hands the files over in reverse order.
        case reversed

        var description: String {
            switch self {
            case .failAfter(let count): return "fail after \(count)"
            case .editDuring(let s, let k, let v): return "edit s\(s).k\(k)=\(v) during"
            case .reversed: return "reversed"
            }
        }
    }

    enum Operation: Sendable, CustomStringConvertible {
        case set(replica: Int, scope: Int, key: Int, value: Int)
        case remove(replica: Int, scope: Int, key: Int)
        case sync(replica: Int, fault: Fault?)
        /// A document's sync snapshot is lost.
        case loseSnapshot(replica: Int, scope: Int)

        var description: String {
            switch self {
            case .set(let r, let s, let k, let v): return "r\(r) set s\(s).k\(k)=\(v)"
            case .remove(let r, let s, let k): return "r\(r) remove s\(s).k\(k)"
            case .sync(let r, let fault): return "r\(r) sync" + (fault.map { " (\($0))" } ?? "")
            case .loseSnapshot(let r, let s): return "r\(r) loses s\(s)'s snapshot"
            }
        }
    }

    var skews: [Int64]
    var operations: [Operation]
    var faults = true

    var description: String {
        "skews \(skews.map { "\($0 / 60_000)min" }), ops [\(operations.map(\.description).joined(separator: ", "))]"
    }

    static func generate(_ random: inout PropertyRandom, skewed: Bool = true, faults: Bool = true)
        -> SyncWorldScenario
    {
        let count = random.int(in: 3...5)
        let skews: [Int64] = (0..<count).map { _ in skewed ? random.pick([-3_600_000, 0, 0, 3_600_000]) : 0 }
        var operations: [Operation] = []
        for _ in 0..<random.int(in: 0...24) {
            let replica = random.below(count)
            switch random.below(20) {
            case 0..<8:
                operations.append(
                    .set(
                        replica: replica, scope: random.below(3), key: random.below(4), value: random.below(5)
                    ))
            case 8..<11:
                operations.append(.remove(replica: replica, scope: random.below(3), key: random.below(4)))
            case 11 where faults:
                operations.append(.loseSnapshot(replica: replica, scope: random.below(3)))
            default:
                var fault: Fault?
                if faults {
                    switch random.below(6) {
                    case 0: fault = .failAfter(random.below(4))
                    case 1:
                        fault = .editDuring(
                            scope: random.below(3), key: random.below(4), value: 10 + random.below(5))
                    case 2: fault = .reversed
                    default: fault = nil
                    }
                }
                operations.append(.sync(replica: replica, fault: fault))
            }
        }
        return SyncWorldScenario(skews: skews, operations: operations, faults: faults)
    }

    static func shrink(_ scenario: SyncWorldScenario) -> [SyncWorldScenario] {
        scenario.operations.indices.reversed().map { index in
            var smaller = scenario
            smaller.operations.remove(at: index)
            return smaller
        }
    }
}

/// The devices of a scenario.
final class SyncWorld: @unchecked Sendable {
    struct Device {
        let storage: FaultyStorage
        let epub: PreferencesStore<EPUB>
        let pdf: PreferencesStore<PDF>
        /// Another process on the same storage, for edits that land during a sync.
        let other: PreferencesStore<EPUB>
        let otherPDF: PreferencesStore<PDF>
    }

    static let layers: [(configurable: String, layer: StoreLayer)] = [
        ("epub", .shared), ("epub", .publication("urn:x/1")), ("pdf", .profile("night")),
    ]

    let clock = ManualClock()
    let exchange = MemoryExchange()
    var devices: [Device] = []
    var skews: [Int64]

    init(skews: [Int64]) {
        self.skews = skews
        for _ in skews.indices { addDevice() }
    }

    func addDevice() {
        let storage = FaultyStorage()
        if skews.count <= devices.count { skews.append(0) }
        // Edits take their stamps from the device's clock, as its syncs do.
        let skew = skews[devices.count]
        let clock = clock
        let options = PreferencesStore<EPUB>.Options(now: { clock.date(skew: skew) })
        let pdfOptions = PreferencesStore<PDF>.Options(now: { clock.date(skew: skew) })
        devices.append(
            Device(
                storage: storage, epub: PreferencesStore(storage: storage, options: options),
                pdf: PreferencesStore(storage: storage, options: pdfOptions),
                other: PreferencesStore(storage: storage, options: options),
                otherPDF: PreferencesStore(storage: storage, options: pdfOptions)))
    }

    static func key(_ index: Int) -> String { "k\(index)" }

    func options(_ replica: Int) -> SyncOptions {
        let skew = skews[replica]
        let clock = clock
        // A device's first sync merges key by key (Specs/Sync.md §5.9): the rule these properties
        // check.
        return SyncOptions(
            replica: ReplicaID("r\(replica)"), tombstoneHorizon: 0.003, firstJoin: .merge,
            now: { clock.date(skew: skew) })
    }

    /// Sets (or removes, with `nil`) a key through a store of the device.
    func write(_ replica: Int, scope: Int, key: Int, value: JSONValue?, other: Bool = false) async throws {
        let (configurable, layer) = Self.layers[scope]
        let device = devices[replica]
        let values: [String: JSONValue?] = [Self.key(key): value]
        if configurable == "epub" {
            try await (other ? device.other : device.epub).write(values, to: layer)
        } else {
            try await (other ? device.otherPDF : device.pdf).write(values, to: layer)
        }
    }

    func run(_ operation: SyncWorldScenario.Operation) async throws {
        clock.advance(by: 7)
        switch operation {
        case .set(let r, let s, let k, let v):
            try await write(r, scope: s, key: k, value: .number(JSONNumber(v)))
        case .remove(let r, let s, let k):
            try await write(r, scope: s, key: k, value: nil)
        case .sync(let r, let fault):
            try await sync(r, fault: fault)
        case .loseSnapshot(let r, let s):
            let (configurable, layer) = Self.layers[s]
            await devices[r].storage.lose(.syncSnapshot(configurable: configurable, layer))
        }
    }

    /// Syncs a device, with a fault; a sync that fails because of an injected fault is expected.
    func sync(_ replica: Int, fault: SyncWorldScenario.Fault? = nil) async throws {
        let device = devices[replica]
        switch fault {
        case .failAfter(let count): await device.storage.failAfter(count)
        case .editDuring(let s, let k, let v):
            await device.storage.beforeNextLayerSave { [self] in
                try? await self.write(replica, scope: s, key: k, value: .number(JSONNumber(v)), other: true)
            }
        case .reversed: await exchange.setReversed(true)
        case nil: break
        }
        defer { if case .reversed = fault { Task { await exchange.setReversed(false) } } }
        do {
            try await device.epub.sync(with: MemoryTransport(exchange: exchange), options: options(replica))
        } catch let error as StorageError where error.message == "injected failure" {
            // Expected: the next sync picks up from what was saved.
        }
        await device.storage.failAfter(nil)
        await device.storage.beforeNextLayerSave {}
        await exchange.setReversed(false)
    }

    /// Every device syncs, in order, twice round, with no fault: afterwards all have read the
    /// same files.
    func settle(order: [Int]? = nil) async throws {
        for _ in 0..<2 {
            for replica in order ?? Array(devices.indices) {
                clock.advance(by: 7)
                try await sync(replica)
            }
        }
    }

    /// What a device stores in each synced document.
    func documents(_ replica: Int) async throws -> [Preferences] {
        var result: [Preferences] = []
        for (configurable, layer) in Self.layers {
            let device = devices[replica]
            result.append(
                configurable == "epub"
                    ? try await device.epub.storedPreferences(in: layer)
                    : try await device.pdf.storedPreferences(in: layer))
        }
        return result
    }
}

/// The laws of Specs/Sync.md §6 on whole devices: stores over storages that fail, interleave
/// edits with a sync, lose snapshots, see files in any order, with clocks an hour off. Seeded,
/// 1,000 cases each by default, the seed printed on failure and replayable with
/// `RP_PROPERTY_SEED`.
@Suite("Sync properties of whole devices, with faults")
struct SyncReplicaPropertyTests {
    @Test("convergence: 3 to 5 devices edit, remove, fail and sync in any order, then agree")
    func convergence() async {
        await forAllAsync(
            "devices converge", generate: { SyncWorldScenario.generate(&$0) },
            shrink: SyncWorldScenario.shrink
        ) { scenario in
            let world = SyncWorld(skews: scenario.skews)
            for operation in scenario.operations { try await world.run(operation) }
            try await world.settle()
            let first = try await world.documents(0)
            for replica in world.devices.indices.dropFirst() {
                let documents = try await world.documents(replica)
                try ensure(documents == first, "r\(replica) holds \(documents), r0 \(first)")
            }
        }
    }

    @Test("an edit that lands while its device syncs is never lost, even over an earlier edit elsewhere")
    func editDuringSync() async {
        await forAllAsync(
            "edits during a sync survive", generate: { SyncWorldScenario.generate(&$0) },
            shrink: SyncWorldScenario.shrink
        ) { scenario in
            let world = SyncWorld(skews: scenario.skews)
            for operation in scenario.operations { try await world.run(operation) }
            // r0's documents have their history (a document that lost its snapshot yields to
            // stamped entries, as Specs/Sync.md §5.4 says, whenever its edit was made).
            try await world.sync(0)
            // Another device sets k7 first; then r0 syncs, and k7 is set on r0 while it writes.
            try await world.write(1, scope: 0, key: 7, value: 1)
            try await world.sync(1)
            world.clock.advance(by: 7)
            try await world.sync(0, fault: .editDuring(scope: 0, key: 7, value: 2))
            try await world.settle()
            for replica in world.devices.indices {
                let shared = try await world.documents(replica)[0]
                try ensure(shared["k7"] == 2, "r\(replica) has k7 = \(String(describing: shared["k7"]))")
            }
        }
    }

    @Test("independence: concurrent edits of different keys on different devices all survive")
    func independence() async {
        await forAllAsync(
            "edits of different keys survive", generate: { SyncWorldScenario.generate(&$0) },
            shrink: SyncWorldScenario.shrink
        ) { scenario in
            let world = SyncWorld(skews: scenario.skews)
            for operation in scenario.operations { try await world.run(operation) }
            for replica in world.devices.indices {
                try await world.write(
                    replica, scope: 1, key: 10 + replica, value: .number(JSONNumber(replica)))
            }
            try await world.settle()
            for replica in world.devices.indices {
                let book = try await world.documents(replica)[1]
                for other in world.devices.indices {
                    try ensure(
                        book[SyncWorld.key(10 + other)] == .number(JSONNumber(other)),
                        "r\(replica) lost r\(other)'s edit")
                }
            }
        }
    }

    @Test("no resurrection: a removal is never undone by a stale device, a failure or a lost snapshot")
    func noResurrection() async {
        await forAllAsync(
            "removals stay removed", generate: { SyncWorldScenario.generate(&$0) },
            shrink: SyncWorldScenario.shrink
        ) { scenario in
            let world = SyncWorld(skews: scenario.skews)
            try await world.write(0, scope: 0, key: 9, value: 1)
            try await world.settle()
            try await world.write(0, scope: 0, key: 9, value: nil)
            try await world.sync(0)
            for operation in scenario.operations { try await world.run(operation) }
            try await world.settle(order: world.devices.indices.reversed())
            for replica in world.devices.indices {
                let shared = try await world.documents(replica)[0]
                try ensure(shared["k9"] == nil, "k9 came back on r\(replica)")
            }
        }
    }

    @Test("clock skew: an edit made after reading every other device wins, on the slowest clock too")
    func clockSkew() async {
        await forAllAsync(
            "a later edit wins", generate: { SyncWorldScenario.generate(&$0) },
            shrink: SyncWorldScenario.shrink
        ) { scenario in
            let world = SyncWorld(skews: scenario.skews)
            for operation in scenario.operations { try await world.run(operation) }
            try await world.settle()
            let slowest = world.skews.indices.min { world.skews[$0] < world.skews[$1] } ?? 0
            try await world.write(slowest, scope: 0, key: 0, value: 99)
            try await world.settle(order: world.devices.indices.reversed())
            for replica in world.devices.indices {
                let shared = try await world.documents(replica)[0]
                try ensure(shared["k0"] == 99, "r\(replica) has k0 = \(String(describing: shared["k0"]))")
            }
        }
    }

    @Test("a new device with no choices never overwrites a choice made elsewhere")
    func newDevice() async {
        await forAllAsync(
            "a newcomer changes nothing", generate: { SyncWorldScenario.generate(&$0) },
            shrink: SyncWorldScenario.shrink
        ) { scenario in
            let world = SyncWorld(skews: scenario.skews)
            for operation in scenario.operations { try await world.run(operation) }
            try await world.settle()
            let before = try await world.documents(0)
            world.addDevice()
            try await world.settle(order: [world.devices.count - 1] + Array(world.devices.indices.dropLast()))
            for replica in world.devices.indices {
                let documents = try await world.documents(replica)
                try ensure(
                    documents == before,
                    "r\(replica) changed after a new device joined: \(documents) vs \(before)")
            }
        }
    }
}
