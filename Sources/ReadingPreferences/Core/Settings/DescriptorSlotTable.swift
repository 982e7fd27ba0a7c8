/// The slots of a catalogue's descriptors found by identity: a typed setting (`.fontSize`) wraps
/// the very descriptor its catalogue holds, so its slot is one pointer hash away, with no key
/// hashed or compared (Specs/Settings.md §9.1: an edit finds its slot without touching the key).
struct DescriptorSlotTable: Sendable {
    private var addresses: [UInt] = []
    private var buckets: [Int32]

    /// A table of the descriptors at their slots.
    init(_ descriptors: [SettingDescriptor]) {
        var size = 8
        while size < descriptors.count * 2 { size *= 2 }
        buckets = Array(repeating: -1, count: size)
        for descriptor in descriptors {
            let address = Self.address(of: descriptor)
            var index = Self.bucket(address, mask: size - 1)
            while buckets[index] >= 0 { index = (index + 1) & (size - 1) }
            buckets[index] = Int32(truncatingIfNeeded: addresses.count)
            addresses.append(address)
        }
    }

    /// The slot of this very descriptor (not merely one with its key), or `nil`.
    @inline(__always)
    func slot(of descriptor: SettingDescriptor) -> Int? {
        let address = Self.address(of: descriptor)
        let mask = buckets.count - 1
        var index = Self.bucket(address, mask: mask)
        while true {
            let entry = Int(buckets[index])
            if entry < 0 { return nil }
            if addresses[entry] == address { return entry }
            index = (index + 1) & mask
        }
    }

    @inline(__always)
    private static func address(of descriptor: SettingDescriptor) -> UInt {
        UInt(bitPattern: ObjectIdentifier(descriptor.storage))
    }

    @inline(__always)
    private static func bucket(_ address: UInt, mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(address) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }
}
