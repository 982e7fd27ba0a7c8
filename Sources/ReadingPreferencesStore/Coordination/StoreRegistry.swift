import Foundation

/// One beacon per storage identity in the process, so that a sync through one store is heard by
/// every store on the same storage (Specs/Store.md §9.7: every store hears it).
final class StoreRegistry: @unchecked Sendable {
    /// The process's registry.
    static let shared = StoreRegistry()

    private let lock = NSLock()
    private var beacons: [String: SyncBeacon] = [:]

    /// The beacon of a storage identity, made on first use and kept for the process's life (it
    /// is a few words).
    func beacon(for identity: String) -> SyncBeacon {
        lock.withLock {
            if let beacon = beacons[identity] { return beacon }
            let beacon = SyncBeacon()
            beacons[identity] = beacon
            return beacon
        }
    }
}

/// What the stores on one storage share: a count of the syncs run through any of them, which
/// every store checks before it uses its cached documents, and the stores with change streams,
/// which are told at once.
///
/// A store with no stream costs the beacon nothing but a look at the count: no reference to it is
/// kept.
final class SyncBeacon: @unchecked Sendable {
    private struct Listener {
        weak var store: (any SyncListener)?
    }

    private let lock = NSLock()
    private var count: UInt64 = 0
    private var listeners: [ObjectIdentifier: Listener] = [:]

    /// The number of syncs run through stores of this storage.
    var generation: UInt64 { lock.withLock { count } }

    /// Adds a store to tell at once (a store with change streams).
    func listen(_ store: any SyncListener) {
        lock.withLock {
            listeners = listeners.filter { $0.value.store != nil }
            listeners[ObjectIdentifier(store)] = Listener(store: store)
        }
    }

    /// Counts a sync; returns the stores to tell, but `syncing`.
    func didSync(by syncing: any SyncListener) -> (generation: UInt64, listeners: [any SyncListener]) {
        lock.withLock {
            count &+= 1
            let others = listeners.values.compactMap(\.store).filter {
                ObjectIdentifier($0) != ObjectIdentifier(syncing)
            }
            return (count, others)
        }
    }
}

/// A store that hears syncs of its storage made by other stores of the process.
protocol SyncListener: AnyObject, Sendable {
    /// Reads the documents a sync changed again and reports the changes (cause `sync`).
    func storageDidSync() async
}
