import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A device's first sync with a server that already holds documents, while the device holds
/// different ones (Specs/Sync.md §5.9): the server needs nothing for it, the device compares the
/// state it reads before it pushes.
@Suite("The first join through the server")
struct FirstJoinServerTests {
    /// The server's state of the user, as a device reads it.
    static func serverState(_ url: URL, token: String) async throws -> Data {
        var request = URLRequest(url: url.appendingPathComponent("v1/sync/state"))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        return data
    }

    /// A phone that synced its values, and a tablet with others of its own.
    static func joining(_ url: URL, token: String) async throws -> (phone: Device, tablet: Device) {
        let phone = try Device("phone", server: url, token: token, replica: ReplicaID("phone"))
        let tablet = try Device("tablet", server: url, token: token, replica: ReplicaID("tablet"))
        try await phone.store.write(["fontSize": 1.4, "theme": "sepia"], to: .shared)
        try await phone.sync()
        try await tablet.store.write(["fontSize": 1.8, "lineHeight": 1.5], to: .shared)
        return (phone, tablet)
    }

    @Test(
        "without a choice, nothing is written on the device or the server, and the keys are named",
        arguments: TestDatabase.available)
    func noChoice(database: TestDatabase) async throws {
        try await withLiveServer(database) { url, token, _ in
            let (_, tablet) = try await Self.joining(url, token: token)
            let before = try await Self.serverState(url, token: token)
            do {
                try await tablet.sync()
                Issue.record("a first join with differences synced without a choice")
            } catch let error as FirstJoinError {
                #expect(error.differences.map(\.description) == ["epub/shared: fontSize, lineHeight, theme"])
            }
            #expect(try await Self.serverState(url, token: token) == before)
            #expect(try await tablet.shared() == ["fontSize": 1.8, "lineHeight": 1.5])
        }
    }

    @Test(
        "keepMine: the device's documents win on the server and the other device",
        arguments: TestDatabase.available)
    func keepMine(database: TestDatabase) async throws {
        try await withLiveServer(database) { url, token, _ in
            let (phone, tablet) = try await Self.joining(url, token: token)
            #expect(try await tablet.sync(firstJoin: .keepMine).firstJoin?.choice == .keepMine)
            try await phone.sync()
            #expect(try await tablet.shared() == ["fontSize": 1.8, "lineHeight": 1.5])
            #expect(try await phone.shared() == ["fontSize": 1.8, "lineHeight": 1.5])
        }
    }

    @Test(
        "takeTheirs: the server's documents win, and the export restores the device's own",
        arguments: TestDatabase.available)
    func takeTheirs(database: TestDatabase) async throws {
        try await withLiveServer(database) { url, token, _ in
            let (phone, tablet) = try await Self.joining(url, token: token)
            let report = try await tablet.sync(firstJoin: .takeTheirs)
            #expect(try await tablet.shared() == ["fontSize": 1.4, "theme": "sepia"])
            try await phone.sync()
            #expect(try await phone.shared() == ["fontSize": 1.4, "theme": "sepia"])

            let file = try #require(report.firstJoin?.export)
            try await tablet.store.restore(PreferencesExport(contentsOf: file))
            #expect(try await tablet.shared() == ["fontSize": 1.8, "lineHeight": 1.5])
            #expect(try await tablet.sync().firstJoin == nil)
            try await phone.sync()
            #expect(try await phone.shared() == ["fontSize": 1.8, "lineHeight": 1.5])
        }
    }

    @Test("merge: the per-key rule; a later sync never asks", arguments: TestDatabase.available)
    func mergeThenLater(database: TestDatabase) async throws {
        try await withLiveServer(database) { url, token, _ in
            let (phone, tablet) = try await Self.joining(url, token: token)
            try await tablet.sync(firstJoin: .merge)
            try await phone.sync()
            let merged: Preferences = ["fontSize": 1.8, "lineHeight": 1.5, "theme": "sepia"]
            #expect(try await tablet.shared() == merged)
            #expect(try await phone.shared() == merged)
            try await phone.store.write(["theme": "night"], to: .shared)
            try await phone.sync()
            try await tablet.store.write(["wordSpacing": 0.2], to: .shared)
            #expect(try await tablet.sync().firstJoin == nil)
            #expect(try await tablet.shared()["theme"] == "night")
        }
    }

    @Test("an empty server, or an empty device, never asks", arguments: TestDatabase.available)
    func emptySide(database: TestDatabase) async throws {
        try await withLiveServer(database) { url, token, _ in
            let phone = try Device("phone", server: url, token: token)
            try await phone.store.write(["fontSize": 1.4], to: .shared)
            #expect(try await phone.sync().firstJoin == nil)
            let reader = try Device("reader", server: url, token: token)
            #expect(try await reader.sync().firstJoin == nil)
            #expect(try await reader.shared() == ["fontSize": 1.4])
        }
    }
}
