import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The sync lock: a lease saved in the sync state, so one sync at a time runs on a store, on any
// storage and across processes (RPS-0005).
extension SyncSession {
    /// The lease this sync holds, and its stored version.
    struct Lock {
        var lease: SyncLease
        var version: StorageVersion
        var takenAt: UInt64
    }

    /// Takes the lock: a lease saved at the version loaded. A lease another sync holds is waited
    /// for, unless it has lapsed or its process is gone.
    func acquire() async throws -> Lock {
        let deadline = Date().addingTimeInterval(options.busyTimeout)
        var delay: UInt64 = 2_000_000
        while true {
            let now = options.nowMilliseconds
            let (stored, _) = try await storage.loadRepairing(.syncLease)
            if let stored, let held = SyncLease(document: stored.preferences), held.holder != holder,
                held.isHeld(at: now)
            {
                guard Date() < deadline else {
                    throw SyncError.busy("held by process \(held.pid) on \(held.host) until \(held.until)")
                }
                try await Task.sleep(nanoseconds: delay)
                delay = min(delay * 2, 200_000_000)
                continue
            }
            let lease = SyncLease(holder: holder, now: now)
            do throws(StorageError) {
                let version = try await storage.save(
                    lease.document, to: .syncLease, expecting: stored?.version)
                return Lock(lease: lease, version: version, takenAt: now)
            } catch {
                guard error.code == .conflict else { throw error }
            }
        }
    }

    /// Renews the lease when a third of its time has passed.
    func renewIfNeeded(_ lock: inout Lock) async throws {
        let now = options.nowMilliseconds
        guard now > lock.takenAt + SyncLease.duration / 3 else { return }
        try await renew(&lock, clock: nil)
    }

    /// Renews the lease now; with `clock`, it holds that clock from now on.
    func renew(_ lock: inout Lock, clock: HybridClock?) async throws {
        let now = options.nowMilliseconds
        var lease = SyncLease(holder: holder, now: now)
        lease.clock = clock.map { ($0.time, $0.counter) } ?? lock.lease.clock
        do throws(StorageError) {
            lock.version = try await storage.save(lease.document, to: .syncLease, expecting: lock.version)
        } catch {
            guard error.code == .conflict else { throw error }
            throw SyncError.busy("another sync took this store's sync lock after it lapsed")
        }
        lock.lease = lease
        lock.takenAt = now
    }

    /// Gives the lock back.
    func release(_ lock: Lock) async throws {
        try await storage.remove(.syncLease, expecting: lock.version)
    }
}
