import Foundation
import ReadingPreferences
import ReadingPreferencesStore

extension StorageConformanceRun {
    // MARK: - The change journal (Specs/Store.md §8.13, §15.1)

    /// The journal rules, once the storage is a replica: a change recorded once, by the
    /// document-write step, with the change it made; nothing for a document written identically or
    /// a batch that fails; stamps from one clock; a cursor that reads only what came since;
    /// history bounded; nothing left by `removeAll()`.
    func journal() async throws {
        let location = Self.layer(.profile("journal"))
        let replica = ReplicaID("conformance-journal") ?? ReplicaID.random()
        if try await storage.load(.syncState) == nil {
            _ = try await storage.commit([
                .save(SyncState(replica: replica).document, to: .syncState, expecting: nil)
            ])
        }
        try await storage.updateReplicaClock { clock in
            if clock == nil { clock = HybridClock(replica: replica) }
        }
        let start = try await storage.journal(of: location, after: nil)
        let recording = ChangeRecording(.edit, at: 1_764_000_000_000)
        _ = try await storage.write(
            [.keys(KeyChanges(["a": 1, "b": "two"]), at: location)], recording: recording)
        let first = try await storage.journal(of: location, after: start.cursor)
        guard !first.entries.isEmpty else {
            if keepsJournal {
                fail(
                    "a change of a replica's document", expected: "recorded in its journal", actual: "nothing"
                )
            } else {
                skipJournal()
            }
            return
        }
        expect(
            first.entries.map(\.key) == ["a", "b"] && first.entries.map(\.newValue) == [1, "two"]
                && first.entries.allSatisfy { $0.oldValue == nil && $0.origin == .edit },
            "the changes recorded", expected: "a: none → 1, b: none → \"two\" (edit)",
            actual: "\(first.entries)")
        let stamps = first.entries.compactMap(\.stamp)
        expect(
            stamps.count == 2 && zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 },
            "each change's stamp", expected: "one each, rising", actual: "\(stamps)")

        // Written identically: nothing recorded.
        _ = try await storage.write([.keys(KeyChanges(["a": 1]), at: location)], recording: recording)
        let same = try await storage.journal(of: location, after: first.cursor)
        expect(
            same.entries.isEmpty, "a document written identically", expected: "nothing recorded",
            actual: "\(same.entries)")

        // A batch that fails records nothing.
        var stale = DocumentChange.save(["a": 9], to: location, expecting: StorageVersion("stale"))
        stale.journal = [
            JournalEntry(key: "a", oldValue: 1, newValue: 9, origin: .edit, time: 1_764_000_000_000)
        ]
        do throws(StorageError) {
            _ = try await storage.commit([stale])
            fail("a save at a stale version", expected: "conflict", actual: "saved")
        } catch {
            guard error.code == .conflict else { throw error }
        }
        let failed = try await storage.journal(of: location, after: first.cursor)
        expect(
            failed.entries.isEmpty, "a batch that failed", expected: "nothing recorded",
            actual: "\(failed.entries)")

        // Another device's change keeps its stamp, and the clock goes past it.
        guard let remote = ReplicaID("conformance-other-device"),
            let far = SyncStamp(time: (stamps.last?.time ?? 0) + 60_000, counter: 3, replica: remote)
        else { return }
        var arrival = ChangeRecording(.sync, at: 1_764_000_000_000)
        arrival.stamps[location] = [JSONScalarKey("b"): far]
        _ = try await storage.write([.keys(KeyChanges(["b": "three"]), at: location)], recording: arrival)
        _ = try await storage.write([.keys(KeyChanges(["a": nil]), at: location)], recording: recording)
        let later = try await storage.journal(of: location, after: first.cursor)
        expect(
            later.entries.map(\.key) == ["b", "a"] && later.entries.first?.stamp == far
                && later.entries.first?.origin == .sync && later.entries.last?.newValue == nil
                && later.entries.last?.oldValue == 1,
            "a change with its own stamp, then a removal",
            expected: "b with its stamp (sync), then a: 1 → none",
            actual: "\(later.entries)")
        if let removal = later.entries.last?.stamp {
            expect(
                far < removal, "a stamp made after accepting another", expected: "above \(far)",
                actual: "\(removal)")
        }

        // Bounded: two megabytes of changes leave at most a megabyte, and a little more.
        let large = String(repeating: "x", count: 40_000)
        for step in 0..<52 {
            _ = try await storage.write(
                [.keys(KeyChanges(["large": .string(large + String(step))]), at: location)],
                recording: recording)
        }
        let bounded = try await storage.journal(of: location, after: nil)
        let bytes = bounded.entries.reduce(0) { $0 + $1.jsonValue.jsonString().utf8.count + 1 }
        expect(
            bytes <= JournalBounds.standard.maximumBytes + (256 << 10), "a journal's size",
            expected: "at most \(JournalBounds.standard.maximumBytes) bytes and a few entries",
            actual: "\(bytes) bytes")
        expect(
            bounded.entries.last?.newValue == .string(large + "51"), "the latest change after compaction",
            expected: "kept", actual: "\(String(describing: bounded.entries.last?.key))")

        try await storage.removeAll()
        let gone = try await storage.journal(of: location, after: nil)
        expect(
            gone.entries.isEmpty, "a journal after removeAll", expected: "nothing",
            actual: "\(gone.entries.count) entries")
    }
}
