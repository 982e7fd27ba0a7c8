import Foundation
import ReadingPreferences
import Testing

@testable import ReadingPreferencesStore

/// The points of the replica format a second implementation had to guess, as this one reads
/// them (Specs/Sync.md §2, "Edge cases").
@Suite("The replica format's edge cases, as stated in Specs/Sync.md §2")
struct SyncFormatEdgeTests {
    static func file(version: String = "1", merged: String = "{}", entry: String) -> Data {
        Data(
            (#"{"format":"readingprefs-sync","version":"# + version + #","replica":"a","merged":"# + merged
                + #","documents":{"epub/shared":{"k":"# + entry + "}}}").utf8)
    }
    static let stamp = #"{"time":5,"counter":0,"replica":"a"}"#

    @Test(
        "version 1, written 1, 1.0 or 1e0, is read; 0, a negative or a string is not a version",
        arguments: [
            ("1", true), ("1.0", true), ("1e0", true), ("0", false), ("-1", false), (#""1""#, false),
        ])
    func versions(text: String, readable: Bool) {
        let data = Self.file(version: text, entry: #"{"value":1,"stamp":"# + Self.stamp + "}")
        #expect(((try? ReplicaState.read(data)) != nil) == readable, "\(text)")
    }

    @Test("a value member beside removed: true, even null, skips that entry alone")
    func valueAndRemoved() throws {
        let file = try ReplicaState.read(
            Self.file(entry: #"{"value":null,"removed":true,"stamp":"# + Self.stamp + "}"))
        #expect(file.state.documents.values.allSatisfy { $0.entries.isEmpty })
        #expect(file.skipped.count == 1)
    }

    @Test("a counter written -0 is the integer 0")
    func negativeZero() throws {
        let file = try ReplicaState.read(
            Self.file(entry: #"{"value":1,"stamp":{"time":5,"counter":-0,"replica":"a"}}"#))
        #expect(file.skipped.isEmpty)
        #expect(file.state.documents.values.first?.entries.values.first?.stamp.counter == 0)
    }

    @Test("merged that is not an object, or a lone surrogate anywhere, skips the whole file")
    func wholeFile() {
        #expect(throws: ReplicaFileError.self) {
            try ReplicaState.read(Self.file(merged: "[]", entry: #"{"value":1,"stamp":"# + Self.stamp + "}"))
        }
        #expect(throws: ReplicaFileError.self) {
            try ReplicaState.read(Self.file(entry: #"{"value":"\ud800","stamp":"# + Self.stamp + "}"))
        }
    }

    @Test("a leading byte-order mark is skipped, as in a document")
    func byteOrderMark() throws {
        let data = Data([0xEF, 0xBB, 0xBF]) + Self.file(entry: #"{"value":1,"stamp":"# + Self.stamp + "}")
        #expect(try ReplicaState.read(data).state.replica.rawValue == "a")
    }

    @Test("an empty publication identifier is a scope of its own")
    func emptyIdentifier() {
        #expect(SyncScope("epub/publication/")?.layer == .publication(""))
    }

    @Test("a replica that came back keeps the time before which its entries are ignored, across syncs")
    func ignoredBeforePersists() throws {
        let (local, old) = (try #require(ReplicaID("local")), try #require(ReplicaID("old")))
        var state = SyncState(replica: local)
        state.known[old] = SyncState.KnownReplica(seen: 10, ignoredBefore: 7)
        let again = try SyncState(document: state.document)
        #expect(again.known[old]?.ignoredBefore == 7)
    }
}
