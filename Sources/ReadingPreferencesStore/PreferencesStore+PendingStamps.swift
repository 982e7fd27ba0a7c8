import Foundation
import ReadingPreferences

/// One key an edit changed, with when it was made: what a pending stamp is taken for.
struct EditToStamp: Sendable {
    var key: String
    /// The new value; `nil` when the key was removed.
    var value: JSONValue?
    /// When the edit was made, in milliseconds since 1970.
    var time: UInt64
}

// Edits take their sync stamps when they are made (Specs/Sync.md §5.4): after a document is
// written, every key the edit changed in a synced layer gets a pending stamp with the value it
// was taken for, in the document's sync sidecar (a file storage appends them beside it), after
// the document and not flushed: a crash may lose a pending stamp, which only makes the edit
// younger (the next sync stamps it), never loses it. So recording stamps keeps an edit near the
// cost of one durable write.

extension PreferencesStore {
    /// The wall clock of ``Options/now``, in milliseconds since 1970.
    var editTime: UInt64 {
        UInt64(max(0, min((options.now().timeIntervalSince1970 * 1000).rounded(), Double(SyncStamp.maximum))))
    }

    /// The edits a list of stored changes made, at `time`.
    static func edits(_ written: [StoredChange], at time: UInt64) -> [StoreLayer: [EditToStamp]] {
        var edits: [StoreLayer: [EditToStamp]] = [:]
        for change in written where change.layer.isSynced {
            edits[change.layer, default: []].append(
                EditToStamp(key: change.key, value: change.newValue, time: time))
        }
        return edits
    }

    /// Records pending stamps for edits written to synced layers. Failing to record one is
    /// reported (``problems``), never a failed edit: the document is written already.
    func recordPendingStamps(_ edits: [StoreLayer: [EditToStamp]]) async {
        guard options.stampsEdits else { return }
        for (layer, keys) in edits where layer.isSynced && !keys.isEmpty {
            do {
                try await recordPendingStamps(keys, in: layer)
            } catch let error as StorageError {
                problems.append(error)
            } catch {
                problems.append(
                    StorageError(
                        .io, location: .syncSnapshot(configurable: configurable, layer),
                        message: "pending stamps not recorded: \(error)"))
            }
        }
    }

    /// Records one layer's pending stamps: every key gets a stamp above every stamp the sidecar
    /// holds and every stamp this store made, in one step under the sidecar's lock (a sync may
    /// write it meanwhile), unflushed. A file storage appends them beside the sidecar (no file is
    /// replaced, so nothing is flushed); when it cannot, or its appendix is full, the sidecar is
    /// rewritten with every pending stamp folded in.
    private func recordPendingStamps(_ edits: [EditToStamp], in layer: StoreLayer) async throws {
        let start = try await pendingStampClock()
        let after = ClockAfter()
        let location = StorageLocation.syncSnapshot(configurable: configurable, layer)
        let files = storage as? FileStorage
        if let files {
            let outcome = try await files.appendRecord(
                beside: location, reading: .syncLease, since: appendixMarks[layer]
            ) { found, lease in
                var sidecar = SyncSnapshot.Sidecar()
                if case .read(let stored, let records) = found {
                    // Unchanged since this store's last append, its clock has seen every stamp.
                    guard let read = Self.sidecar(stored) else { return nil }
                    sidecar = read
                    // The last record holds the latest stamps: each append saw those before it.
                    SyncSnapshot.merge(records: records, into: &sidecar.pending)
                }
                var clock = start
                Self.observeRunningSync(lease, &clock)
                let stamped = Self.stamp(edits, after: sidecar, clock: &clock)
                after.set(clock)
                return stamped.isEmpty ? nil : SyncSnapshot.pendingRecord(stamped)
            }
            switch outcome {
            case .appended(let mark):
                appendixMarks[layer] = mark
                editClock = after.clock ?? start
                return
            case .nothing:
                return
            case .unavailable:
                appendixMarks[layer] = nil
            }
        }
        var clock = start
        Self.observeRunningSync(try? await storage.load(.syncLease)?.preferences, &clock)
        let observed = clock
        let fold: @Sendable (Preferences?, [Preferences]) throws -> Preferences? = { stored, records in
            guard var sidecar = Self.sidecar(stored) else { return nil }
            SyncSnapshot.merge(records: records, into: &sidecar.pending)
            var clock = observed
            let stamped = Self.stamp(edits, after: sidecar, clock: &clock)
            after.set(clock)
            guard !stamped.isEmpty || !records.isEmpty else { return nil }
            for (key, entry) in stamped { sidecar.pending.merge(entry, forKey: key) }
            return SyncSnapshot.document(sidecar)
        }
        // A full appendix is folded into the sidecar under its lock; another storage keeps its
        // pending stamps in the sidecar itself.
        if let files, try await files.foldAppendix(beside: location, fold) {
            editClock = after.clock ?? start
            return
        }
        try await storage.updateUnflushed(location) { stored in try fold(stored, []) }
        editClock = after.clock ?? start
    }

    /// A sync running now has read other replicas' states, and written its clock into its lease:
    /// an edit made now comes after them.
    private static func observeRunningSync(_ lease: Preferences?, _ clock: inout HybridClock) {
        guard let lease, let running = SyncLease(document: lease)?.clock else { return }
        clock.observe(SyncStamp(unchecked: running.time, running.counter, clock.replica))
    }

    /// A stored sidecar as read; an absent one is empty, a damaged one `nil` (left for sync to set
    /// aside: the edit syncs all the same).
    private static func sidecar(_ stored: Preferences?) -> SyncSnapshot.Sidecar? {
        guard let stored else { return SyncSnapshot.Sidecar() }
        return try? SyncSnapshot.sidecar(of: stored)
    }

    /// Stamps edits with `clock` after it has seen every stamp of `sidecar`; an edit whose clock
    /// counter is exhausted is left for the next sync to stamp.
    private static func stamp(
        _ edits: [EditToStamp], after sidecar: SyncSnapshot.Sidecar, clock: inout HybridClock
    ) -> [(key: String, entry: SyncEntry)] {
        for (_, entry) in sidecar.entries?.entries ?? [:] { clock.observe(entry.stamp) }
        for (_, entry) in sidecar.pending.entries { clock.observe(entry.stamp) }
        var stamped: [(key: String, entry: SyncEntry)] = []
        for edit in edits {
            guard let stamp = clock.tick(now: edit.time) else { continue }
            stamped.append((edit.key, SyncEntry(value: edit.value, stamp: stamp)))
        }
        return stamped
    }

    /// The clock pending stamps are made with: this replica's id and the clock its last sync
    /// left, read once; a store that never synced takes its replica id now.
    private func pendingStampClock() async throws -> HybridClock {
        if let editClock { return editClock }
        for _ in 0..<4 {
            let (stored, problem) = try await storage.loadRepairing(.syncState)
            if let problem { problems.append(problem) }
            if let stored, let state = try? SyncState(document: stored.preferences) {
                return HybridClock(replica: state.replica, time: state.clockTime, counter: state.clockCounter)
            }
            guard stored == nil else { break }
            let state = SyncState(replica: ReplicaID.random())
            do throws(StorageError) {
                _ = try await storage.save(state.document, to: .syncState, expecting: nil)
                return HybridClock(replica: state.replica)
            } catch {
                guard error.code == .conflict else { throw error }
            }
        }
        throw StorageError(.io, location: .syncState, message: "the sync state cannot be read to stamp edits")
    }
}

/// Where the clock stood after a sidecar was stamped (the stamping runs off the store's actor).
private final class ClockAfter: @unchecked Sendable {
    private let lock = NSLock()
    private var value: HybridClock?

    var clock: HybridClock? { lock.withLock { value } }

    func set(_ clock: HybridClock) { lock.withLock { value = clock } }
}
