import Testing

/// The Swift Audio catalogue must say exactly what `Specs/Settings/audio.json` says (Specs/Resolution.md §8, Specs/README.md §2).
@Suite("The Audio catalogue matches Specs/Settings/audio.json")
struct AudioCatalogueSpecTests {
    @Test("every key, descriptor, fallback and publication-specific key matches audio.json")
    func catalogueMatchesFile() throws {
        try CatalogueSpec.audio.verify(ruleKeys: [])
    }
}
