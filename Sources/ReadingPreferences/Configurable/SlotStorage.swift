/// The slot array of ``SettingValueTable``: one optional value per catalogue slot, with value
/// semantics (copy on write).
///
/// Specs/Resolution.md §10.1: resolution must cost per stored key, not per catalogue slot. A small
/// document sets two slots of 27, and resolved settings mostly hold fallbacks, so the buffer keeps
/// two masks: the slots that hold a value, and those whose value holds a reference (a string or
/// JSON). Copying a buffer is one memory copy and a retain per referencing value; destroying one
/// releases only those; a table is overlaid and iterated by its set slots alone. Tables that start
/// out the same share one buffer until written (a new table is its catalogue's empty one, resolved
/// values start as its fallbacks), so most tables cost one allocation, made when first written.
///
/// The masks cover the first 64 slots; a larger catalogue's further slots are copied, scanned
/// and destroyed one by one, as ordinary elements.
struct SlotStorage: @unchecked Sendable, Hashable, RandomAccessCollection, MutableCollection {
    // Sendable as a value: a buffer is only mutated while uniquely referenced (`makeUnique`),
    // so two copies never share a buffer that changes.

    /// The number of slots and the masks of the first 64.
    struct Header {
        let count: Int
        /// Bit `i`: slot `i` holds a value.
        var setSlots: UInt64
        /// Bit `i`: slot `i` holds a value with a reference in it (`string` or `json`), which
        /// copying must retain and destroying must release. The others are plain bits.
        var referencingSlots: UInt64
    }

    final class Buffer: ManagedBuffer<Header, SettingValue?> {
        deinit {
            withUnsafeMutablePointers { header, elements in
                // `move()` destroys the value in code specialized for `SettingValue?`; the
                // generic `deinitialize(count:)` goes through the runtime's value witnesses.
                var referencing = header.pointee.referencingSlots
                while referencing != 0 {
                    _ = (elements + referencing.trailingZeroBitCount).move()
                    referencing &= referencing &- 1
                }
                for slot in SlotStorage.maskedSlots..<Swift.max(header.pointee.count, SlotStorage.maskedSlots)
                {
                    _ = (elements + slot).move()
                }
            }
        }
    }

    /// The slots the masks cover.
    static let maskedSlots = 64

    private var buffer: Buffer
    /// The number of slots. Kept here rather than read from the buffer's `header`, a class
    /// property whose every read pays a dynamic exclusivity check.
    let endIndex: Int

    /// Creates `count` unset slots.
    init(count: Int) {
        let count = Swift.max(0, count)
        endIndex = count
        buffer = Self.makeBuffer(Header(count: count, setSlots: 0, referencingSlots: 0))
        buffer.withUnsafeMutablePointerToElements { $0.initialize(repeating: nil, count: count) }
    }

    private static func makeBuffer(_ header: Header) -> Buffer {
        // `create` called on the subclass makes an instance of the subclass.
        unsafeDowncast(Buffer.create(minimumCapacity: header.count) { _ in header }, to: Buffer.self)
    }

    /// Whether a value holds a reference.
    @inline(__always)
    private static func isReferencing(_ value: SettingValue) -> Bool {
        switch value {
        case .string, .json: true
        case .bool, .number, .integer, .color: false
        }
    }

    /// A copy of the buffer for writing.
    private mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&buffer) else { return }
        let source = buffer
        buffer = source.withUnsafeMutablePointers { header, elements in
            let copy = Self.makeBuffer(header.pointee)
            copy.withUnsafeMutablePointerToElements { Self.initialize($0, from: elements, header.pointee) }
            return copy
        }
    }

    /// Initializes `target` with copies of the slots at `source`: the masked slots copied as bits,
    /// then the referencing ones retained by initializing them again; the rest one by one.
    private static func initialize(
        _ target: UnsafeMutablePointer<SettingValue?>, from source: UnsafeMutablePointer<SettingValue?>,
        _ header: Header
    ) {
        let masked = Swift.min(header.count, maskedSlots)
        UnsafeMutableRawPointer(target).copyMemory(
            from: source, byteCount: masked * MemoryLayout<SettingValue?>.stride)
        var referencing = header.referencingSlots
        while referencing != 0 {
            let slot = referencing.trailingZeroBitCount
            (target + slot).initialize(to: source[slot])
            referencing &= referencing &- 1
        }
        if header.count > masked {
            (target + masked).initialize(from: source + masked, count: header.count - masked)
        }
    }

    /// Makes this table equal to `other`, reusing this table's buffer when it is not shared (so
    /// resolving into existing settings allocates nothing), else sharing `other`'s.
    mutating func assign(_ other: SlotStorage) {
        guard buffer !== other.buffer else { return }
        guard endIndex == other.endIndex, endIndex <= Self.maskedSlots, isKnownUniquelyReferenced(&buffer)
        else {
            self = other
            return
        }
        buffer.withUnsafeMutablePointers { header, elements in
            var referencing = header.pointee.referencingSlots
            while referencing != 0 {
                _ = (elements + referencing.trailingZeroBitCount).move()
                referencing &= referencing &- 1
            }
            other.buffer.withUnsafeMutablePointers { otherHeader, otherElements in
                Self.initialize(elements, from: otherElements, otherHeader.pointee)
                header.pointee = otherHeader.pointee
            }
        }
    }

    /// The first slot.
    var startIndex: Int { 0 }

    /// The value of a slot; reading outside the slots gives `nil`, writing there does nothing.
    subscript(slot: Int) -> SettingValue? {
        get {
            guard slot >= 0, slot < endIndex else { return nil }
            return buffer.withUnsafeMutablePointerToElements { $0[slot] }
        }
        set {
            guard slot >= 0, slot < endIndex else { return }
            makeUnique()
            buffer.withUnsafeMutablePointers { header, elements in
                guard slot < Self.maskedSlots else {
                    elements[slot] = newValue
                    return
                }
                let bit: UInt64 = 1 << UInt64(slot)
                // A plain old value needs no destroying: its bits are overwritten.
                if header.pointee.referencingSlots & bit != 0 {
                    _ = (elements + slot).move()
                }
                if let newValue {
                    header.pointee.setSlots |= bit
                    if Self.isReferencing(newValue) {
                        header.pointee.referencingSlots |= bit
                    } else {
                        header.pointee.referencingSlots &= ~bit
                    }
                } else {
                    header.pointee.setSlots &= ~bit
                    header.pointee.referencingSlots &= ~bit
                }
                (elements + slot).initialize(to: newValue)
            }
        }
    }

    /// Whether a slot holds a value: a mask test for the first 64 slots, so a reader can skip
    /// unset slots without copying anything.
    @inline(__always)
    func isSet(_ slot: Int) -> Bool {
        guard slot >= 0, slot < endIndex else { return false }
        return buffer.withUnsafeMutablePointers { header, elements in
            slot < Self.maskedSlots
                ? header.pointee.setSlots & (1 << UInt64(slot)) != 0 : elements[slot] != nil
        }
    }

    /// The mask of the first 64 slots that hold a value, and whether the table has more slots
    /// (which the mask does not cover).
    var setSlotMask: (mask: UInt64, isPartial: Bool) {
        buffer.withUnsafeMutablePointers { header, _ in (header.pointee.setSlots, endIndex > Self.maskedSlots)
        }
    }

    /// Whether no slot holds a value.
    var isUnset: Bool {
        buffer.withUnsafeMutablePointers { header, elements in
            guard header.pointee.setSlots == 0 else { return false }
            return endIndex <= Self.maskedSlots
                || !(Self.maskedSlots..<endIndex).contains { elements[$0] != nil }
        }
    }

    /// Calls `body` with each slot that holds a value and the value, in slot order.
    @inline(__always)
    func forEachValue(_ body: (Int, SettingValue) -> Void) {
        buffer.withUnsafeMutablePointers { header, elements in
            var mask = header.pointee.setSlots
            while mask != 0 {
                let slot = mask.trailingZeroBitCount
                if let value = elements[slot] { body(slot, value) }
                mask &= mask &- 1
            }
            if endIndex > Self.maskedSlots {
                for slot in Self.maskedSlots..<endIndex {
                    if let value = elements[slot] { body(slot, value) }
                }
            }
        }
    }

    /// Writes every value `other` holds over this table's, in slot order, where `accepts` allows
    /// the slot: one resolution layer over another (Specs/Resolution.md §4 step 6).
    @inline(__always)
    mutating func overlay(_ other: SlotStorage, where accepts: (Int) -> Bool = { _ in true }) {
        other.forEachValue { slot, value in
            if accepts(slot) { self[slot] = value }
        }
    }

    static func == (lhs: SlotStorage, rhs: SlotStorage) -> Bool {
        lhs.buffer === rhs.buffer || lhs.elementsEqual(rhs)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for value in self { hasher.combine(value) }
    }
}
