import Testing

@testable import ReadingPreferences

/// SHA-256 against the FIPS 180-4 / NIST example vectors.
@Suite("SHA-256 (FIPS 180-4)")
struct SHA256Tests {
    @Test(
        "the NIST example messages hash to their published digests",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
        ])
    func nistVectors(message: String, digest: String) {
        #expect(SHA256.hash(Array(message.utf8)).hexString == digest)
    }

    @Test("one million times 'a', fed in uneven pieces")
    func millionA() {
        var hasher = SHA256()
        var remaining = 1_000_000
        var piece = 1
        while remaining > 0 {
            let count = min(piece, remaining)
            hasher.update(repeatElement(UInt8(ascii: "a"), count: count))
            remaining -= count
            piece = piece * 3 % 997 + 1
        }
        #expect(
            hasher.finalize().hexString == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("every length across the block and padding boundaries, fed whole, lazily and byte by byte")
    func everyLength() {
        let data = (0..<200).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
        var whole = ""
        for count in 0...200 {
            let message = Array(data[..<count])
            let digest = SHA256.hash(message).hexString
            // A sequence without contiguous storage takes the other path.
            #expect(SHA256.hash(message.lazy.map { $0 }).hexString == digest)
            var hasher = SHA256()
            for byte in message { hasher.update(CollectionOfOne(byte)) }
            #expect(hasher.finalize().hexString == digest)
            whole += digest
        }
        // Python's hashlib: sha256 of the 201 hex digests of data[:n], joined.
        #expect(
            SHA256.hash(Array(whole.utf8)).hexString
                == "530566f39d545b371e5360fbfe251c0da6410ba297e67392dfaec0cb575d67ed")
    }
}

/// Fingerprints are stable values, not `hashValue`s (Specs/Store.md §12, ETags).
@Suite("Fingerprints of settings and CSS")
struct FingerprintTests {
    @Test("equal settings have equal fingerprints whatever the preferences' key order; a change changes it")
    func settingsFingerprint() throws {
        let resolver = EPUB.Resolver(publication: PublicationContext(languages: ["en"]))
        let a = resolver.resolve(try Preferences(json: #"{"fontSize":1.2,"theme":"dark"}"#))
        let b = resolver.resolve(try Preferences(json: #"{"theme":"dark","fontSize":1.20}"#))
        let c = resolver.resolve(try Preferences(json: #"{"theme":"dark","fontSize":1.3}"#))
        #expect(a.fingerprint == b.fingerprint)
        #expect(a.fingerprint != c.fingerprint)
        #expect(a.fingerprint.count == 32)
        #expect(a.readiumCSS().fingerprint == b.readiumCSS().fingerprint)
        #expect(a.readiumCSS().fingerprint != c.readiumCSS().fingerprint)
    }

    @Test("the fingerprint of empty EPUB settings is a fixed value on every machine")
    func fixedValue() {
        // Computed independently with Python's hashlib over b"epub\0reflowable\0" and the sorted
        // JSON that `readingprefs resolve` prints; a change would invalidate every ETag served.
        let fingerprint = EPUB.Resolver().resolve(Preferences()).fingerprint
        #expect(fingerprint == Self.emptyEPUB)
    }

    static let emptyEPUB = "bd3bf50d05ab1f1418f7c59dfec4bdba"
}
