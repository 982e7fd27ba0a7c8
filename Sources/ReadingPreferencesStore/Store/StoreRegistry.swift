import Foundation

/// The stores open in this process, by their storage's identity, so that a sync through one
/// is heard by every store on the same storage (SPEC 10.1: every store hears it).
final class StoreRegistry: @unchecked Sendable {
    /// The process's registry.
    static let shared = StoreRegistry()

    private struct Entry {
        weak var listener: (any SyncListener)?
    }

    private let lock = NSLock()
    private var entries: [String: [ObjectIdentifier: Entry]] = [:]

    /// Registers a store under its storage's identity (once).
    func register(_ listener: any SyncListener, identity: String) {
        lock.withLock {
            var group = entries[identity] ?? [:]
            group = group.filter { $0.value.listener != nil }
            group[ObjectIdentifier(listener)] = Entry(listener: listener)
            entries[identity] = group
        }
    }

    /// The stores registered under an identity, but `except`.
    func listeners(of identity: String, except: (any SyncListener)?) -> [any SyncListener] {
        lock.withLock {
            (entries[identity] ?? [:]).values.compactMap(\.listener).filter { listener in
                except.map { ObjectIdentifier($0) != ObjectIdentifier(listener) } ?? true
            }
        }
    }
}

/// A store that hears syncs of its storage made by other stores of the process.
protocol SyncListener: AnyObject, Sendable {
    /// Reads the documents a sync changed again and reports the changes (cause `sync`).
    func storageDidSync() async
}
