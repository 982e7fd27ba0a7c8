/// SHA-256 (FIPS 180-4), written here so the engine keeps no dependency: the stable fingerprints
/// of settings and CSS (HTTP ETags) and the store's safe file names rest on it.
///
/// ```swift
/// var hash = SHA256()
/// hash.update(Array("abc".utf8))
/// hash.finalize().hexString   // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// ```
///
/// The store hashes a publication's identifier on every read of it, so the hasher allocates
/// nothing but the digest: a partial block waits in inline storage, contiguous input (arrays,
/// native strings' UTF-8) is compressed in place, and the message schedule lives on the stack.
package struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// The bytes of the block being filled: the first `length % 64` of its 64.
    private var pending: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
        0, 0, 0, 0, 0, 0, 0, 0
    )
    /// The message length so far, in bytes.
    private var length: UInt64 = 0

    /// A digest: 32 bytes.
    package struct Digest: Sendable, Hashable, CustomStringConvertible {
        /// The 32 bytes of the digest.
        package let bytes: [UInt8]

        /// The digest in lower-case hexadecimal (64 digits).
        package var hexString: String { hexString(digits: bytes.count * 2) }

        /// The first `digits` lower-case hexadecimal digits (even, at most 64): the 32 of the
        /// fingerprints and of the store's file names.
        package func hexString(digits: Int) -> String {
            String(unsafeUninitializedCapacity: digits) { output in writeHex(digits: digits, into: output) }
        }

        /// Writes the first `digits` lower-case hexadecimal digits of the digest (even, at most
        /// 64) into `output`; returns `digits`.
        package func writeHex(digits: Int, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
            let hex: StaticString = "0123456789abcdef"
            for index in 0..<digits / 2 {
                let byte = bytes[index]
                output[2 * index] = hex.utf8Start[Int(byte >> 4)]
                output[2 * index + 1] = hex.utf8Start[Int(byte & 0x0F)]
            }
            return digits
        }

        /// The hexadecimal digest.
        package var description: String { hexString }
    }

    /// Starts a hash.
    package init() {}

    /// The digest of some bytes.
    ///
    /// - Parameter bytes: The bytes.
    /// - Returns: Their SHA-256 digest.
    package static func hash(_ bytes: some Sequence<UInt8>) -> Digest {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Adds bytes to the message.
    ///
    /// - Parameter bytes: The next bytes.
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { absorb(UnsafeRawBufferPointer($0)) }
        guard done == nil else { return }
        // Any other sequence goes through a block-sized buffer on the stack.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { chunk in
            var count = 0
            for byte in bytes {
                chunk[count] = byte
                count += 1
                if count == 64 {
                    absorb(UnsafeRawBufferPointer(chunk))
                    count = 0
                }
            }
            absorb(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: chunk[..<count])))
        }
    }

    /// Adds bytes in memory to the message.
    private mutating func absorb(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        let filled = Int(length % 64)
        length &+= UInt64(bytes.count)
        if filled > 0 {
            let taken = Swift.min(64 - filled, bytes.count)
            withUnsafeMutableBytes(of: &pending) { block in
                UnsafeMutableRawBufferPointer(rebasing: block[filled..<filled + taken])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[..<taken]))
            }
            offset = taken
            guard filled + taken == 64 else { return }
            let block = pending
            withUnsafeBytes(of: block) { compress($0, at: 0) }
        }
        while bytes.count - offset >= 64 {
            compress(bytes, at: offset)
            offset += 64
        }
        if offset < bytes.count {
            withUnsafeMutableBytes(of: &pending) { block in
                block.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            }
        }
    }

    /// The digest of everything added.
    ///
    /// - Returns: The digest.
    package func finalize() -> Digest {
        var copy = self
        let bitLength = length &* 8
        // 0x80, zeros up to 56 bytes into a block, then the length in bits, big-endian.
        let filled = Int(length % 64)
        let padding = filled < 56 ? 56 - filled : 120 - filled
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: padding + 8) { tail in
            tail.initialize(repeating: 0)
            tail[0] = 0x80
            for index in 0..<8 {
                tail[padding + index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(56 - 8 * index))
            }
            copy.absorb(UnsafeRawBufferPointer(tail))
        }
        let words = copy.state
        return Digest(
            bytes: [UInt8](unsafeUninitializedCapacity: 32) { output, count in
                withUnsafeBytes(of: words) { raw in
                    for index in 0..<8 {
                        let word = raw.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self)
                        for byte in 0..<4 {
                            output[4 * index + byte] = UInt8(
                                truncatingIfNeeded: word >> UInt32(24 - 8 * byte))
                        }
                    }
                }
                count = 32
            })
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
        0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7,
        0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc,
        0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351,
        0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e,
        0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585,
        0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f,
        0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
        0xc671_78f2,
    ]

    /// Processes the 64-byte block at `offset` in `bytes`.
    private mutating func compress(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            for word in 0..<16 {
                schedule[word] = UInt32(
                    bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 4 * word, as: UInt32.self))
            }
            for word in 16..<64 {
                let early = schedule[word - 15]
                let late = schedule[word - 2]
                let s0 = rotate(early, 7) ^ rotate(early, 18) ^ (early >> 3)
                let s1 = rotate(late, 17) ^ rotate(late, 19) ^ (late >> 10)
                schedule[word] = schedule[word - 16] &+ s0 &+ schedule[word - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = state
            Self.roundConstants.withUnsafeBufferPointer { constants in
                for round in 0..<64 {
                    let sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                    let choice = (e & f) ^ (~e & g)
                    let temp1 = h &+ sum1 &+ choice &+ constants[round] &+ schedule[round]
                    let sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let temp2 = sum0 &+ majority
                    h = g
                    g = f
                    f = e
                    e = d &+ temp1
                    d = c
                    c = b
                    b = a
                    a = temp1 &+ temp2
                }
            }
            state = (
                state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f,
                state.6 &+ g, state.7 &+ h
            )
        }
    }

    @inline(__always)
    private func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        value >> count | value << (32 - count)
    }
}
