import Foundation

/// The bytes a writer produces (JSON text, an inline CSS style): one growing buffer, copied once
/// into `Data`, `[UInt8]` or `String` (a heap buffer is handed to `Data` without a copy).
///
/// Specs/Preferences.md §3.3: a stored document or a style is a few hundred bytes, so the fixed
/// costs decide how fast it is written. Writing into an `Array` and then copying into `Data`
/// cost three allocations and a copy; this is one buffer. A writer can start in its caller's
/// temporary storage (on the stack) and allocate only if it outgrows it: for a small text, one
/// copy into its `Data` or `String` costs less than a heap buffer that `Data` adopts.
struct TextOutput: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Whether `base` is this output's own heap buffer (not its caller's storage).
    private var ownsBase: Bool
    /// The number of bytes written.
    private(set) var count = 0

    /// An empty output with room for `capacity` bytes before it grows.
    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 16)
        base = Self.allocate(self.capacity)
        ownsBase = true
    }

    /// An empty output that writes into `storage` (which must outlive it) until it needs more room,
    /// then moves to the heap.
    init(startingIn storage: UnsafeMutableBufferPointer<UInt8>) {
        if let start = storage.baseAddress, storage.count >= 16 {
            base = start
            capacity = storage.count
            ownsBase = false
        } else {
            capacity = 256
            base = Self.allocate(capacity)
            ownsBase = true
        }
    }

    deinit { if ownsBase { free(base) } }

    /// A heap buffer from `malloc`, so `Data` can take it over with its `.free` deallocator (the
    /// cheapest way for it to let go of it). `malloc` fails only when memory is exhausted; the
    /// fallback is Swift's own allocator, which then stops the program as any allocation does
    /// (and which allocates with `malloc` where it succeeds).
    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let memory = malloc(capacity) else { return .allocate(capacity: capacity) }
        return memory.bindMemory(to: UInt8.self, capacity: capacity)
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = Self.allocate(newCapacity)
        newBase.update(from: base, count: count)
        if ownsBase { free(base) }
        base = newBase
        capacity = newCapacity
        ownsBase = true
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends bytes.
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends an ASCII literal.
    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a formatted number.
    @inline(__always)
    mutating func append(_ text: InlineText) {
        text.withBytes { append($0) }
    }

    /// Appends a string's UTF-8 bytes.
    @inline(__always)
    mutating func append(contentsOf string: String) {
        if string.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            for byte in string.utf8 { append(byte) }
        }
    }

    /// Appends `count` copies of a byte.
    mutating func append(_ byte: UInt8, count repeats: Int) {
        guard repeats > 0 else { return }
        reserve(repeats)
        (base + count).initialize(repeating: byte, count: repeats)
        count += repeats
    }

    /// Forgets the last `count` bytes written.
    mutating func removeLast(_ count: Int) {
        self.count -= Swift.min(Swift.max(count, 0), self.count)
    }

    /// The bytes written so far.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// The bytes as `Data`: a heap buffer is taken over without a copy; text still in its
    /// caller's storage is copied.
    consuming func data() -> Data {
        let bytes = base
        let length = count
        let owned = ownsBase
        discard self
        guard owned, length > 0 else {
            let data = Data(bytes: bytes, count: length)
            if owned { free(bytes) }
            return data
        }
        return Data(
            bytesNoCopy: bytes, count: length, deallocator: .free)
    }

    /// The bytes as an array.
    consuming func bytes() -> [UInt8] {
        withBytes { Array($0) }
    }

    /// The bytes as a string (they are UTF-8 by construction).
    consuming func string() -> String {
        withBytes { String(decoding: $0, as: UTF8.self) }
    }
}
