/// A fixed set of strings that the parser hands out shared, found by their UTF-8 bytes, instead
/// of building a new `String` for each key and value it reads (Specs/Preferences.md §3.2).
///
/// Building a `String` validates and copies its bytes, about 150 instructions even for a short
/// key; finding a known one costs its words (a few loads) and comparing them. The table
/// is built once from a fixed list, so a parsed string, known or not, costs at most the longest
/// run of its buckets: an attacker gains nothing.
///
/// A class, immutable: the parser holds one reference, and a lookup borrows the tables.
final class JSONStringTable: Sendable {
    private let strings: [String]
    private let positions: KeyTable

    /// A table of these strings (a repeated one is kept once).
    init(_ strings: some Sequence<String>) {
        var unique: [String] = []
        var positions = KeyTable()
        for string in strings where positions[string] == nil {
            positions.insert(string, value: unique.count)
            unique.append(string)
        }
        self.strings = unique
        self.positions = positions
    }

    /// The shared string whose UTF-8 is `bytes` (summarized by `words`), or `nil` when the table
    /// does not hold it.
    @inline(__always)
    func string(for bytes: UnsafeBufferPointer<UInt8>, words: JSONKeyWords) -> String? {
        positions.value(forKey: bytes, words: words).map { strings[$0] }
    }
}
