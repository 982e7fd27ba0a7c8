/// SplitMix64: a small, fast, seedable generator whose whole state is one `UInt64`, so a case
/// is replayed from its seed alone.
package struct PropertyRandom: RandomNumberGenerator {
    private(set) var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`; `bound` must be positive.
    package mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// A number in `range`.
    package mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }

    /// A `Double` in `range`, bounds included now and then.
    package mutating func double(in range: ClosedRange<Double>) -> Double {
        switch below(10) {
        case 0: return range.lowerBound
        case 1: return range.upperBound
        default:
            let unit = Double(next() >> 11) / Double(1 << 53)
            return min(range.lowerBound + unit * (range.upperBound - range.lowerBound), range.upperBound)
        }
    }

    /// `true` with probability `1 / n`.
    package mutating func oneIn(_ n: Int) -> Bool {
        below(n) == 0
    }

    /// One element of a non-empty array.
    package mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }

    /// Runs one of the closures, chosen by weight.
    package mutating func weighted<T>(_ choices: [(Int, (inout PropertyRandom) -> T)]) -> T {
        var roll = below(choices.reduce(0) { $0 + $1.0 })
        for (weight, make) in choices {
            if roll < weight { return make(&self) }
            roll -= weight
        }
        return choices[choices.count - 1].1(&self)
    }

    /// The seed of case `index` of a law: a SplitMix64 step from the law's own base seed.
    package static func caseSeed(base: UInt64, index: Int) -> UInt64 {
        var random = PropertyRandom(seed: base &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03)
        return random.next()
    }

    /// A stable 64-bit hash (FNV-1a) of a law's name, so each law has its own stream of cases.
    package static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
