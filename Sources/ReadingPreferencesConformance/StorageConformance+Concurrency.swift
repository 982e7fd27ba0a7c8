import Foundation
import ReadingPreferences
import ReadingPreferencesStore

extension StorageConformanceRun {
    // MARK: - Concurrency

    func concurrency() async throws {
        let storage = storage
        let location = Self.layer(.publication("concurrent"))
        // Eight writers, each adding its own keys to one document: nothing is lost.
        let writers = 8
        let rounds = 4
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for round in 0..<rounds {
                        for _ in 0..<500 {
                            let current = try? await storage.load(location)
                            var preferences = current?.preferences ?? Preferences()
                            preferences["w\(writer)-\(round)"] = .number(JSONNumber(round))
                            do {
                                _ = try await storage.save(
                                    preferences, to: location, expecting: current?.version)
                                break
                            } catch {
                                continue
                            }
                        }
                    }
                }
            }
        }
        let merged = try await storage.load(location)?.preferences ?? Preferences()
        let missing = (0..<writers).flatMap { writer in (0..<rounds).map { "w\(writer)-\($0)" } }.filter {
            merged[$0] == nil
        }
        expect(
            missing.isEmpty, "keys of 8 concurrent writers", expected: "all \(writers * rounds)",
            actual: "\(missing.count) lost: \(missing.prefix(6))")

        // Eight writers at the same version, and eight creators of one document, released at
        // once: exactly one wins, round after round (a check and a write that are two steps
        // lose only when writers interleave, so the rounds give them every chance).
        for round in 0..<12 {
            guard let base = try await storage.load(location)?.version else { return }
            let gate = StartingGate(count: writers)
            let wins = await withTaskGroup(of: Bool.self) { group in
                for writer in 0..<writers {
                    group.addTask {
                        await gate.arrive()
                        return
                            (try? await storage.save(
                                ["winner": .number(JSONNumber(writer)), "round": .number(JSONNumber(round))],
                                to: location, expecting: base)) != nil
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            let created = Self.layer(.publication("created-\(round)"))
            let creators = StartingGate(count: writers)
            let creations = await withTaskGroup(of: Bool.self) { group in
                for writer in 0..<writers {
                    group.addTask {
                        await creators.arrive()
                        return
                            (try? await storage.save(
                                ["creator": .number(JSONNumber(writer))], to: created, expecting: nil)) != nil
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            let saves = expect(
                wins == 1, "8 concurrent saves at one version (round \(round + 1))", expected: "1 success",
                actual: "\(wins)")
            let creates = expect(
                creations == 1, "8 concurrent creations of one document (round \(round + 1))",
                expected: "1 success", actual: "\(creations)")
            if !saves || !creates { break }
        }

        // Eight stores, as eight server instances, editing different keys of shared.
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    let store = PreferencesStore<EPUB>(storage: storage)
                    _ = try? await store.write(["store-\(writer)": .bool(true)], to: .shared)
                }
            }
        }
        let shared =
            try await storage.load(.layer(configurable: EPUB.identifier, .shared))?.preferences
            ?? Preferences()
        let lost = (0..<writers).filter { shared["store-\($0)"] == nil }
        expect(lost.isEmpty, "keys of 8 stores writing at once", expected: "all 8", actual: "lost \(lost)")
    }
}

/// Holds tasks until `count` of them arrived, then lets them all go at once.
actor StartingGate {
    private let count: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { self.count = count }

    func arrive() async {
        if waiting.count + 1 >= count {
            for continuation in waiting { continuation.resume() }
            waiting.removeAll()
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}
