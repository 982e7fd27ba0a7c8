import Foundation
import ReadingPreferences
import ReadingPreferencesStore

extension StorageConformanceRun {
    // MARK: - Batch

    func batch() async throws {
        let first = Self.layer(.publication("batch-1"))
        let second = Self.layer(.publication("batch-2"))
        let created = try await storage.commit([
            .save(["n": 1], to: first, expecting: nil), .save(["n": 2], to: second, expecting: nil),
        ])
        expect(created.count == 2, "one version per change", expected: "2", actual: "\(created.count)")
        guard created.count == 2, let one = created[0], let two = created[1] else { return }
        record(one, (["n": 1] as Preferences).jsonBytes(), at: first)
        record(two, (["n": 2] as Preferences).jsonBytes(), at: second)
        let loadedOne = try await storage.load(first)?.version
        expect(
            loadedOne == one, "the versions a batch returns", expected: "\(one)",
            actual: "\(String(describing: loadedOne))")

        await expectFailure(.conflict, "a batch with one stale version") { () throws(StorageError) in
            try await storage.commit([
                .save(["n": 10], to: first, expecting: one),
                .save(["n": 20], to: second, expecting: StorageVersion("stale")),
            ])
        }
        await expectFailure(.conflict, "a batch whose check fails") { () throws(StorageError) in
            try await storage.commit([
                .save(["n": 10], to: first, expecting: one), .verify(second, expecting: nil),
            ])
        }
        await expectFailure(.conflict, "a batch creating a document that exists") { () throws(StorageError) in
            try await storage.commit([
                .remove(first, expecting: one), .save(["n": 20], to: second, expecting: nil),
            ])
        }
        try await expectStored(["n": 1], at: first, "a failed batch changes nothing")
        try await expectStored(["n": 2], at: second, "a failed batch changes nothing")

        let mixed = try await storage.commit([
            .remove(first, expecting: one), .save(["n": 22], to: second, expecting: two),
            .verify(Self.layer(.publication("batch-3")), expecting: nil),
        ])
        expect(
            mixed.count == 3 && mixed[0] == nil && mixed[2] == nil, "a removal's and a check's versions",
            expected: "[nil, version, nil]", actual: "\(mixed)")
        try await expectStored(nil, at: first, "a batch's removal")
        try await expectStored(["n": 22], at: second, "a batch's save")
        guard let current = mixed.count == 3 ? mixed[1] : nil else { return }
        record(current, (["n": 22] as Preferences).jsonBytes(), at: second)

        // A failure of the medium at each step of a two-document batch.
        guard let faults else { return skip("a failure inside a batch") }
        var version = current
        var struck = 0
        for steps in 0..<12 {
            await faults.failWrites(steps)
            do {
                _ = try await storage.commit([
                    .save(["n": .number(JSONNumber(100 + steps))], to: first, expecting: nil),
                    .save(["n": .number(JSONNumber(200 + steps))], to: second, expecting: version),
                ])
                await faults.failWrites(nil)
                try await expectStored(
                    ["n": .number(JSONNumber(100 + steps))], at: first, "a batch that succeeded")
                try await expectStored(
                    ["n": .number(JSONNumber(200 + steps))], at: second, "a batch that succeeded")
                break
            } catch let error as StorageError {
                await faults.failWrites(nil)
                struck += 1
                expect(
                    error.code == .io, "a batch the medium failed at step \(steps + 1)", expected: "io",
                    actual: error.code.rawValue)
                try await expectStored(
                    nil, at: first, "a batch the medium failed at step \(steps + 1) changes nothing")
                try await expectStored(
                    ["n": 22], at: second,
                    "a batch the medium failed at step \(steps + 1) changes nothing")
                guard let reloaded = try await storage.load(second) else { break }
                version = reloaded.version
            }
        }
        expect(
            struck > 0, "the fault hook", expected: "a write failure at the first step", actual: "none struck"
        )
    }

    // MARK: - Corrupt data and io

    func corruptData() async throws {
        guard let faults else { return skip("corrupt data") }
        let location = Self.layer(.publication("damaged"))
        try await save(["theme": "dark"], to: location, expecting: nil)
        for (name, data) in [("not JSON", Data("{\"theme\": da".utf8)), ("an array", Data("[1, 2]".utf8))] {
            try await faults.plant(data, location)
            var version: StorageVersion?
            do {
                let loaded = try await storage.load(location)
                fail(
                    "loading \(name)", expected: "corruptDocument",
                    actual: "a document: \(text(loaded?.preferences))")
            } catch {
                expect(
                    error.code == .corruptDocument, "loading \(name)", expected: "corruptDocument",
                    actual: "\(error.code.rawValue): \(error.message)")
                expect(
                    error.version != nil, "the damaged data's version", expected: "a version", actual: "nil")
                version = error.version
            }
            guard let version else { continue }
            await expectFailure(.conflict, "setting \(name) aside at a stale version") {
                () throws(StorageError) in
                try await storage.quarantine(location, expecting: StorageVersion("stale"), replacement: nil)
            }
            let aside = try await storage.quarantine(
                location, expecting: version, replacement: ["theme": "light"])
            expect(!aside.movedTo.isEmpty, "where \(name) went", expected: "a place", actual: "\"\"")
            try await expectStored(["theme": "light"], at: location, "the replacement of \(name)")
            let loaded = try await storage.load(location)
            expect(
                loaded?.version == aside.version, "the replacement's version",
                expected: "\(String(describing: aside.version))",
                actual: "\(String(describing: loaded?.version))")
        }
    }

    func io() async throws {
        guard let faults else { return skip("io failures") }
        let location = Self.layer(.publication("io"))
        let version = try await save(["theme": "dark"], to: location, expecting: nil)
        await faults.failReads(true)
        do {
            let loaded = try await storage.load(location)
            fail("a load the medium failed", expected: "io", actual: "a result: \(text(loaded?.preferences))")
        } catch {
            expect(error.code == .io, "a load the medium failed", expected: "io", actual: error.code.rawValue)
        }
        await faults.failReads(false)
        await faults.failWrites(0)
        await expectFailure(.io, "a save the medium failed") { () throws(StorageError) in
            try await storage.save(["theme": "light"], to: location, expecting: version)
        }
        await faults.failWrites(nil)
        try await expectStored(["theme": "dark"], at: location, "a failed save changes nothing")
    }
}
