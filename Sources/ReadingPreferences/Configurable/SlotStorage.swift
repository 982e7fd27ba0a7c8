/// The slot array of ``SettingValueTable``: one optional value per catalogue slot, with value
/// semantics (copy on write).
///
/// An `Array<SettingValue?>` creates and destroys its elements through the runtime's generic
/// value witnesses, one indirect call per slot; resolving a document creates and destroys two
/// such arrays of 27 slots, which cost more than parsing a small document. This buffer creates,
/// copies and destroys its elements with code specialized for `SettingValue?`.
struct SlotStorage: @unchecked Sendable, Hashable, RandomAccessCollection, MutableCollection {
    // Sendable as a value: a buffer is only mutated while uniquely referenced (`makeUnique`),
    // so two copies never share a buffer that changes.
    final class Buffer: ManagedBuffer<Int, SettingValue?> {
        deinit {
            // Slot by slot, in code specialized for `SettingValue?`: most slots are unset and
            // cost one tag test, where `deinitialize(count:)` calls the runtime's generic
            // destroy for every slot.
            withUnsafeMutablePointers { count, elements in
                for index in 0..<count.pointee where elements[index] != nil {
                    _ = (elements + index).move()
                }
            }
        }
    }

    private var buffer: Buffer
    /// The number of slots. Kept here rather than read from the buffer's `header`, a class
    /// property whose every read pays a dynamic exclusivity check.
    let endIndex: Int

    /// Creates `count` unset slots.
    init(count: Int) {
        let count = Swift.max(0, count)
        endIndex = count
        buffer = Self.makeBuffer(count: count) { $0.initialize(repeating: nil, count: count) }
    }

    private static func makeBuffer(count: Int, _ initialize: (UnsafeMutablePointer<SettingValue?>) -> Void)
        -> Buffer
    {
        // `create` called on the subclass makes an instance of the subclass.
        let buffer = unsafeDowncast(Buffer.create(minimumCapacity: count) { _ in count }, to: Buffer.self)
        buffer.withUnsafeMutablePointerToElements(initialize)
        return buffer
    }

    private mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&buffer) else { return }
        let source = buffer
        let count = endIndex
        buffer = Self.makeBuffer(count: count) { target in
            source.withUnsafeMutablePointerToElements { target.initialize(from: $0, count: count) }
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
            buffer.withUnsafeMutablePointerToElements { $0[slot] = newValue }
        }
    }

    /// Gives in-place access to every slot.
    mutating func withUnsafeMutableBufferPointer<Result>(
        _ body: (inout UnsafeMutableBufferPointer<SettingValue?>) throws -> Result
    ) rethrows -> Result {
        makeUnique()
        let count = endIndex
        return try buffer.withUnsafeMutablePointerToElements { elements in
            var slots = UnsafeMutableBufferPointer(start: elements, count: count)
            return try body(&slots)
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
