import Foundation
import Testing

@testable import ReadingPreferences

/// Untrusted input never costs more than linear work (issue 11, finding 1): every bulk operation
/// on a large adversarial document makes a number of key comparisons proportional to its size.
/// Work is counted (debug builds count key comparisons), not timed.
@Suite("Large adversarial documents cost linear work")
struct LinearWorkTests {
    /// 100,000 distinct keys, each written twice: 200,000 members, 100,000 duplicated keys.
    static let keyCount = 100_000

    /// Comparisons allowed per member: a few probes of a hash index, never a scan.
    static let perMember = 8

    static func duplicatedDocument(prefix: String) -> [UInt8] {
        var text = "{"
        text.reserveCapacity(keyCount * 2 * (prefix.count + 12))
        for round in 0..<2 {
            for key in 0..<keyCount {
                if round + key > 0 { text += "," }
                text += "\"\(prefix)\(key)\":\(key)"
            }
        }
        text += "}"
        return Array(text.utf8)
    }

    /// Runs `body` and returns the key comparisons it made.
    static func comparisons(_ body: () throws -> Void) rethrows -> Int {
        let counter = KeyComparisons.Counter()
        try KeyComparisons.$current.withValue(counter) { try body() }
        return counter.count
    }

    static func require(_ comparisons: Int, below members: Int, _ what: String) {
        #expect(
            comparisons <= members * perMember,
            "\(what): \(comparisons) key comparisons for \(members) members")
    }

    @Test(
        "decoding and diagnosing 100,000 duplicated keys is linear, whatever the keys look like",
        arguments: ["k", String(repeating: "shared-prefix-", count: 3), "é"])
    func duplicatedKeys(prefix: String) throws {
        let bytes = Self.duplicatedDocument(prefix: prefix)
        var decoded: (preferences: Preferences, diagnostics: [PreferenceDiagnostic])?
        let work = try Self.comparisons { decoded = try EPUB.catalogue.decode(json: bytes) }
        Self.require(work, below: 2 * Self.keyCount, "decode + diagnostics")
        #expect(decoded?.preferences.count == Self.keyCount)
        #expect(decoded?.diagnostics.filter { $0.code == .duplicateKey }.count == Self.keyCount)
        #expect(decoded?.preferences["\(prefix)7"] == 7)
    }

    @Test("==, merging, init(members:), filtering and merge patches on 100,000 keys are linear")
    func bulkOperations() throws {
        let preferences = try Preferences(json: Self.duplicatedDocument(prefix: "k"))
        let reversed = Preferences(members: preferences.members.reversed())
        let n = Self.keyCount

        var same = false
        Self.require(Self.comparisons { same = preferences == reversed }, below: n, "==")
        #expect(same)
        Self.require(
            Self.comparisons { #expect(preferences.merging(reversed).count == n) }, below: 2 * n, "merging")
        Self.require(
            Self.comparisons { _ = Preferences(members: preferences.members + reversed.members) },
            below: 2 * n,
            "init(members:) with duplicates")
        let half = preferences.keys.prefix(n / 2)
        Self.require(
            Self.comparisons { #expect(preferences.filter(keys: half).count == n / 2) }, below: n, "filter")
        Self.require(
            Self.comparisons { #expect(preferences.filterNot(keys: half).count == n / 2) }, below: n,
            "filterNot")
        var patch = JSONObject()
        let removals = half.map { JSONObject.Member(key: $0, value: .null) }
        patch = JSONObject(members: removals + [JSONObject.Member(key: "new", value: 1)])
        Self.require(
            Self.comparisons { #expect(preferences.applying(mergePatch: patch).count == n / 2 + 1) },
            below: 2 * n,
            "merge patch")
    }

    @Test("decoding Preferences through JSONDecoder is linear")
    func decoderInput() throws {
        let data = Data(Self.duplicatedDocument(prefix: "k"))
        var decoded: Preferences?
        let work = try Self.comparisons { decoded = try JSONDecoder().decode(Preferences.self, from: data) }
        Self.require(work, below: 2 * Self.keyCount, "JSONDecoder")
        #expect(decoded?.count == Self.keyCount)
    }

    @Test("flattening and nesting 100,000 keys is linear")
    func keyPaths() throws {
        let preferences = try Preferences(json: Self.duplicatedDocument(prefix: "a.b"))
        var roundTrips = false
        Self.require(
            Self.comparisons { roundTrips = preferences.flattened().nested() == preferences },
            below: 4 * Self.keyCount, "flattened / nested")
        #expect(roundTrips)
    }
}
