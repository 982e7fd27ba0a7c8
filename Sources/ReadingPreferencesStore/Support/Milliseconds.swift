import Foundation

/// The one wall clock of the store, sync and the back end: milliseconds since 1970 (UTC), the
/// unit of every stamp's time (Specs/Sync.md §1), of a corrupt file's suffix and of sync's
/// horizons.
///
/// ```swift
/// let now = Milliseconds.now()          // 1764000000000
/// Milliseconds.of(Date(timeIntervalSince1970: 1.5))   // 1500
/// ```
public enum Milliseconds {
    /// Now.
    ///
    /// - Returns: Milliseconds since 1970, at least 0 and at most a stamp's greatest time.
    public static func now() -> UInt64 { of(Date()) }

    /// A date, rounded to the nearest millisecond, within 0 ... 2^53 − 1 (a stamp's range).
    ///
    /// - Parameter date: The date.
    /// - Returns: Milliseconds since 1970.
    public static func of(_ date: Date) -> UInt64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        guard value > 0 else { return 0 }
        return value >= Double(SyncStamp.maximum) ? SyncStamp.maximum : UInt64(value)
    }

    /// The date of a time in milliseconds.
    ///
    /// - Parameter milliseconds: Milliseconds since 1970.
    /// - Returns: The date.
    public static func date(_ milliseconds: UInt64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
