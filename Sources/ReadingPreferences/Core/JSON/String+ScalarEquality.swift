extension String {
    /// Returns whether two strings hold exactly the same Unicode scalars.
    ///
    /// Swift's `==` on `String` uses canonical equivalence, so `"caf\u{E9}"` (precomposed) and
    /// `"cafe\u{301}"` (combining accent) are equal. JSON keys must not be merged that way: a
    /// stored document keeps both keys as written. Comparing the UTF-8 bytes is the same as
    /// comparing scalars, and it is fast: a length check rejects most different keys at once,
    /// and native and small strings expose contiguous UTF-8.
    package func isScalarEqual(to other: String) -> Bool {
        KeyComparisons.count()
        // The same representation (one storage, or the same small string) is the same string.
        let identical = withUnsafeBytes(of: self) { lhs in
            withUnsafeBytes(of: other) { rhs in
                MemoryLayout<String>.size == 16
                    ? lhs.load(as: (UInt64, UInt64).self) == rhs.load(as: (UInt64, UInt64).self)
                    : JSONByteScan.equal(lhs, rhs)
            }
        }
        if identical { return true }
        // Native and small strings expose their UTF-8; comparing it is comparing scalars.
        let equal = utf8.withContiguousStorageIfAvailable { lhs in
            other.utf8.withContiguousStorageIfAvailable { rhs in JSONByteScan.equal(lhs, rhs) }
        }
        if let equal, let equal { return equal }
        return utf8.elementsEqual(other.utf8)
    }
}

/// A `String` wrapper whose equality is scalar equality, for dictionaries and sets that hold
/// JSON keys or identifiers (Specs/Preferences.md §2, Specs/Sync.md §1: `café` precomposed and decomposed are two keys).
///
/// The hash feeds the key's UTF-8 bytes to the per-process seeded `Hasher`: equal bytes are
/// equal scalars, it is cheaper than `String`'s canonical hash, and an attacker cannot choose
/// keys that collide (so a document of a million keys stays linear to index).
package struct JSONScalarKey: Hashable, Sendable, Comparable {
    package var string: String

    package init(_ string: String) { self.string = string }

    package static func == (lhs: JSONScalarKey, rhs: JSONScalarKey) -> Bool {
        lhs.string.isScalarEqual(to: rhs.string)
    }

    /// Orders by UTF-8 bytes.
    package static func < (lhs: JSONScalarKey, rhs: JSONScalarKey) -> Bool {
        lhs.string.utf8.lexicographicallyPrecedes(rhs.string.utf8)
    }

    package func hash(into hasher: inout Hasher) {
        string.hashScalars(into: &hasher)
    }
}

extension String {
    /// Feeds the UTF-8 bytes to a hasher: the hash that agrees with ``isScalarEqual(to:)``
    /// (`String`'s own hash follows canonical equivalence).
    package func hashScalars(into hasher: inout Hasher) {
        var copy = self
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(0xFF as UInt8)  // never a UTF-8 byte: ends the string, so ("a","b") ≠ ("ab","")
    }
}

/// Counts key comparisons (every `isScalarEqual` and every fingerprint probe) in debug builds, so tests can check that bulk operations on hostile
/// documents do work linear in their size, by counting rather than timing (issue 11).
///
/// ```swift
/// let counter = KeyComparisons.Counter()
/// KeyComparisons.$current.withValue(counter) { _ = a == b }
/// counter.count   // comparisons made
/// ```
package enum KeyComparisons {
    #if DEBUG
        /// A count, read and written by one task at a time.
        package final class Counter: @unchecked Sendable {
            package var count = 0
            package init() {}
        }

        /// The counter of the current task, if a test installed one.
        @TaskLocal package static var current: Counter?
    #endif

    /// Records one key comparison (nothing in release builds).
    @inline(__always)
    static func count() {
        #if DEBUG
            current?.count += 1
        #endif
    }
}
