extension String {
    /// Returns whether two strings hold exactly the same Unicode scalars.
    ///
    /// Swift's `==` on `String` uses canonical equivalence, so `"caf\u{E9}"` (precomposed) and
    /// `"cafe\u{301}"` (combining accent) are equal. JSON keys must not be merged that way: a
    /// stored document keeps both keys as written. Comparing the UTF-8 bytes is the same as
    /// comparing scalars, and it is fast: a length check rejects most different keys at once,
    /// and native and small strings expose contiguous UTF-8.
    @inlinable
    func isScalarEqual(to other: String) -> Bool {
        let lhs = utf8
        let rhs = other.utf8
        let count = lhs.count
        guard count == rhs.count else { return false }
        // Native and small strings lend their bytes directly; comparing raw buffers avoids the
        // index arithmetic of iterating two `UTF8View`s.
        let compared = lhs.withContiguousStorageIfAvailable { left in
            rhs.withContiguousStorageIfAvailable { right in
                for index in 0..<count where left[index] != right[index] { return false }
                return true
            }
        }
        if let compared, let compared { return compared }
        return lhs.elementsEqual(rhs)
    }
}

/// A `String` wrapper whose equality is scalar equality, for dictionaries that index JSON keys.
///
/// The hash is `String`'s own (canonical) hash: strings that are scalar-equal are canonically
/// equivalent, so they hash alike, which is all `Hashable` needs.
struct JSONScalarKey: Hashable {
    var string: String

    init(_ string: String) { self.string = string }

    static func == (lhs: JSONScalarKey, rhs: JSONScalarKey) -> Bool {
        lhs.string.isScalarEqual(to: rhs.string)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(string)
    }
}
