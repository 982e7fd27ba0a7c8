import Foundation
import ReadingPreferences
import ReadingPreferencesStore

extension StorageConformanceRun {
    // MARK: - Export and removal

    func exportAndRemoval() async throws {
        let exported = try await storage.export()
        let layers = exported.map(\.location)
        let wanted: [StorageLocation] = [
            Self.layer(.shared), Self.layer(.overrides), Self.layer(.profile("night")),
            Self.layer(.publication("urn:isbn:978-0/x?y")), Self.layer(.shared, of: "conformance-other"),
            Self.layer(.profile("of-other"), of: "Conformance"),
        ]
        for location in wanted {
            expect(layers.contains(location), "export", expected: "\(location) exported", actual: "missing")
        }
        for location in layers {
            if case .layer = location { continue }
            fail("export", expected: "layer documents only", actual: "\(location)")
        }
        if let document = exported.first(where: { $0.location == Self.layer(.shared) }) {
            expect(
                document.document.preferences.jsonBytes() == StorageConformance.tricky.jsonBytes(),
                "an exported document",
                expected: text(StorageConformance.tricky), actual: text(document.document.preferences))
        }
        try await storage.removeAll()
        let left = try await storage.export()
        expect(left.isEmpty, "export after removeAll", expected: "nothing", actual: "\(left.map(\.location))")
        let configurables = try await storage.configurables()
        expect(
            configurables.isEmpty, "configurables after removeAll", expected: "none",
            actual: "\(configurables)")
        for location in [
            StorageLocation.device, .syncState, .syncLease,
            .syncSnapshot(configurable: Self.configurable, .shared),
        ] {
            expect(
                try await storage.load(location) == nil, "\(location) after removeAll", expected: "nil",
                actual: "a document")
        }
        // Versions never repeat after a removal of everything.
        try await save(["after": "removal"], to: Self.layer(.shared), expecting: nil)
        try await save(["after": "removal"], to: Self.layer(.profile("versions")), expecting: nil)
    }

    func cleanUp() async {
        check = "clean-up"
        do {
            try await storage.removeAll()
            let left = try await storage.export()
            expect(
                left.isEmpty, "what the suite wrote is removed", expected: "nothing",
                actual: "\(left.map(\.location))")
        } catch {
            fail("removing what the suite wrote", expected: "no error", actual: "\(error)")
        }
    }
}
