import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sync lock of a storage (Specs/Sync.md §5.1: one sync at a time), kept through the storage at
/// ``StorageLocation/syncLease`` (`<root>/sync-lease.json` for files) and taken by a
/// conditional save, so it works for any storage and across processes (RPS-0005):
///
/// ```json
/// {"holder": "5e0c41a2b9d7", "host": "reading-mac", "pid": 4242, "until": 1764000060000}
/// ```
///
/// A lease is held until `until` (milliseconds), renewed as the sync goes. One whose time has
/// passed, or whose process on this host is gone, may be taken over.
struct SyncLease: Sendable, Equatable {
    /// The sync that holds it.
    var holder: String
    /// The machine it runs on.
    var host: String
    /// Its process.
    var pid: Int32
    /// When it lapses, in milliseconds since 1970.
    var until: UInt64
    /// The clock of the running sync once it has read every replica's state: an edit made while
    /// it runs takes its pending stamp above it (Specs/Sync.md §5.4), since the edit comes after
    /// everything the sync read.
    var clock: (time: UInt64, counter: UInt64)?

    static func == (lhs: SyncLease, rhs: SyncLease) -> Bool {
        lhs.holder == rhs.holder && lhs.host == rhs.host && lhs.pid == rhs.pid && lhs.until == rhs.until
            && lhs.clock?.time == rhs.clock?.time && lhs.clock?.counter == rhs.clock?.counter
    }

    /// How long a lease lasts before it must be renewed: 60 seconds.
    static let duration: UInt64 = 60_000

    /// A lease for this process, held until `now` plus ``duration``.
    init(holder: String, now: UInt64) {
        self.holder = holder
        host = Self.thisHost
        pid = getpid()
        until = now + Self.duration
    }

    /// Whether another sync may still be running under this lease at `now`: not lapsed, and on
    /// another machine or in a process of this one that is alive.
    func isHeld(at now: UInt64) -> Bool {
        guard until > now else { return false }
        guard host == Self.thisHost, pid > 0 else { return true }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// The stored document.
    var document: Preferences {
        var document: Preferences = [
            "holder": .string(holder), "host": .string(host), "pid": .number(JSONNumber(Int(pid))),
            "until": .number(JSONNumber(Int(until))),
        ]
        if let clock {
            document["clock"] = [
                "time": .number(JSONNumber(Int(clock.time))),
                "counter": .number(JSONNumber(Int(clock.counter))),
            ]
        }
        return document
    }

    /// Reads a stored lease; `nil` when it is not one (it then holds nothing).
    init?(document: Preferences) {
        guard let holder = document["holder"]?.stringValue,
            let until = document["until"]?.numberValue?.integerValue, until >= 0
        else { return nil }
        self.holder = holder
        host = document["host"]?.stringValue ?? ""
        pid = Int32(truncatingIfNeeded: document["pid"]?.numberValue?.integerValue ?? 0)
        self.until = UInt64(until)
        if let clock = document["clock"]?.objectValue,
            let time = clock["time"]?.numberValue?.integerValue, time >= 0,
            let counter = clock["counter"]?.numberValue?.integerValue, counter >= 0
        {
            self.clock = (UInt64(time), UInt64(counter))
        }
    }

    /// This machine's name.
    private static let thisHost: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
}
