/// SplitMix64, seeded from the input's bytes, so that every input maps to one fixed choice of
/// edits, publication and environment (libFuzzer replays a crash from its input alone).
struct FuzzRandom {
    private var state: UInt64

    /// Seeds from the FNV-1a hash of the bytes.
    init(bytes: [UInt8]) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        state = hash
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// One element of a non-empty array.
    mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }

    /// `true` with probability `1 / n`.
    mutating func oneIn(_ n: Int) -> Bool {
        below(n) == 0
    }
}
