import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// Publication file names (Specs/Store.md §5.3).
@Suite("Safe names of publication files")
struct SafeNameTests {
    /// The rule, written again independently: on Unicode scalars, ASCII only.
    static func expected(_ identifier: String) -> String {
        var prefix = ""
        for scalar in identifier.lowercased().unicodeScalars {
            let safe = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            if safe { prefix.unicodeScalars.append(scalar) } else if !prefix.hasSuffix("-") { prefix += "-" }
        }
        func trim(_ text: Substring) -> Substring {
            var text = text
            while text.hasPrefix("-") { text = text.dropFirst() }
            while text.hasSuffix("-") { text = text.dropLast() }
            return text
        }
        let cut = trim(trim(prefix[...]).prefix(40))
        let hash = String(SHA256.hash(Array(identifier.utf8)).hexString.prefix(32))
        return (cut.isEmpty ? hash : cut + "-" + hash) + ".json"
    }

    @Test("the example of Specs/Store.md §5.3")
    func example() {
        let name = SafeName.fileName(for: "urn:isbn:978-0/x?y")
        #expect(name.hasPrefix("urn-isbn-978-0-x-y-"))
        #expect(name.count == "urn-isbn-978-0-x-y-".count + 32 + 5)
        #expect(
            SafeName.fileName(for: "urn:isbn:978-0") == "urn-isbn-978-0-38187611a944289d2033a2a6472e9121.json"
        )
    }

    @Test(
        "awkward identifiers map to names that follow the rule",
        arguments: [
            "https://example.com/books/1?x=y#z", "a/b/../../etc/passwd", "..", "/", "\u{0}nul\u{0}", "Café",
            "cafe\u{301}", "日本語の本", "UPPER", "upper", "---", "", String(repeating: "long-", count: 2_000),
            "ÀÉÎÕÜ", "\u{212A}elvin",
        ])
    func awkward(identifier: String) {
        let name = SafeName.fileName(for: identifier)
        #expect(name == Self.expected(identifier))
        #expect(!name.contains("/") && !name.hasPrefix(".") && name.utf8.count <= 40 + 1 + 32 + 5)
        #expect(
            name.utf8.allSatisfy {
                ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E
            })
    }

    @Test("random identifiers map to distinct names that round-trip through $id, even differing only in case")
    func randomIdentifiers() async throws {
        let folder = try TemporaryFolder()
        let store = PreferencesStore<EPUB>(storage: FileStorage(root: folder.url))
        var names: [String: String] = [:]
        forAll(
            "safe names are distinct and follow the rule",
            generate: { random -> String in
                let alphabet: [Unicode.Scalar] = [
                    "a", "B", "z", "0", "9", ":", "/", ".", "?", " ", "-", "é", "\u{0}", "日", "K",
                ]
                var text = String.UnicodeScalarView()
                for _ in 0..<random.int(in: 0...24) { text.append(random.pick(alphabet)) }
                return String(text)
            },
            shrink: { text in text.isEmpty ? [] : [String(text.dropLast())] }
        ) { identifier in
            let name = SafeName.fileName(for: identifier)
            try ensure(name == Self.expected(identifier), "\(name) does not follow the rule")
            for variant in [identifier, identifier.uppercased(), identifier.lowercased()] {
                let other = SafeName.fileName(for: variant)
                if let seen = names[other.lowercased()] {
                    try ensure(seen == variant, "\(seen) and \(variant) share \(other)")
                }
                names[other.lowercased()] = variant
            }
        }
        for identifier in ["urn:ISBN:1", "urn:isbn:1", "a/../b", String(repeating: "x", count: 10_000)] {
            try await store.write(["fontSize": 1.5], to: .publication(identifier))
            let path = FileStorage(root: folder.url).path(
                of: .layer(configurable: "epub", .publication(identifier)))
            let stored = try Preferences(json: Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(stored["$id"] == .string(identifier))
        }
        #expect(try await store.storage.names(of: .publications, configurable: "epub").count == 4)
    }
}
