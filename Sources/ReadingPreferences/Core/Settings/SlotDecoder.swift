/// How one slot's stored JSON becomes its valid value, compiled from the descriptor's coder and
/// validator into plain data (Specs/Settings.md §2, §3, §9.2).
///
/// Decoding preferences runs for every document a back end serves; going through a descriptor
/// for each key copies its coder and validator (reference counting, an array of cases). The
/// common pairs (a toggle, a number with or without a range, a choice among strings, a non-empty
/// string) compile to a kind and its bounds; any other pair is `general` and goes through the
/// descriptor. Either way the result is the descriptor's ``SettingDescriptor/validValue(of:)``,
/// which a test checks for every slot of the built-in catalogues.
struct SlotDecoder: Sendable {
    enum Kind: UInt8, Sendable {
        /// Coder `bool`, validator `identity`.
        case toggle
        /// Coder `double`, validator `identity` or `range` (see ``range``).
        case number
        /// Coder `enumeration`, validator `identity` or an allowlist of strings: the accepted
        /// strings are a run of the catalogue's choice table (see ``choices``).
        case choice
        /// Coder `string`, validator `identity`: any non-empty string.
        case text
        /// Anything else: the descriptor decodes.
        case general
    }

    let kind: Kind
    /// The range a number is coerced into (Specs/Settings.md §3).
    let range: ClosedRange<Double>
    /// The positions of the accepted strings in the catalogue's choice table.
    let choices: Range<Int>

    /// Compiles a descriptor's coder and validator; the accepted strings of a choice are appended
    /// to `choiceTable`.
    init(_ descriptor: SettingDescriptor, choiceTable: inout ChoiceTable) {
        var kind = Kind.general
        var range = -Double.infinity...Double.infinity
        let start = choiceTable.count
        switch (descriptor.coder, descriptor.validator) {
        case (.bool, .identity):
            kind = .toggle
        case (.double, .identity):
            kind = .number
        case (.double, .range(let bounds)):
            kind = .number
            range = bounds
        case (.string, .identity):
            kind = .text
        case (.enumeration(let cases), .identity):
            kind = .choice
            for value in cases { choiceTable.append(value) }
        case (.enumeration(let cases), .allowlist(let allowed)):
            // An allowlist of strings narrows the cases; anything else stays general.
            let strings = allowed.compactMap(\.stringValue)
            if strings.count == allowed.count {
                kind = .choice
                for value in cases where strings.contains(where: { $0.isScalarEqual(to: value) }) {
                    choiceTable.append(value)
                }
            }
        default:
            break
        }
        self.kind = kind
        self.range = range
        self.choices = start..<choiceTable.count
    }
}

/// The accepted strings of every choice slot of a catalogue, as UTF-8 in one flat array: a
/// match compares bytes (which is comparing Unicode scalars), with no `String` copied.
struct ChoiceTable: Sendable {
    private var bytes: [UInt8] = []
    private var ends: [Int] = []

    /// The number of strings.
    var count: Int { ends.count }

    /// Adds a string.
    mutating func append(_ string: String) {
        bytes.append(contentsOf: string.utf8)
        ends.append(bytes.count)
    }

    /// Whether one of the strings at `positions` is `string`, by Unicode scalars.
    func contains(_ string: String, in positions: Range<Int>) -> Bool {
        if let found = string.utf8.withContiguousStorageIfAvailable({ contains($0, in: positions) }) {
            return found
        }
        return Array(string.utf8).withUnsafeBufferPointer { contains($0, in: positions) }
    }

    private func contains(_ candidate: UnsafeBufferPointer<UInt8>, in positions: Range<Int>) -> Bool {
        bytes.withUnsafeBufferPointer { table in
            for position in positions where position >= 0 && position < ends.count {
                let start = position == 0 ? 0 : ends[position - 1]
                let end = ends[position]
                if JSONByteScan.equal(UnsafeBufferPointer(rebasing: table[start..<end]), candidate) {
                    return true
                }
            }
            return false
        }
    }
}
