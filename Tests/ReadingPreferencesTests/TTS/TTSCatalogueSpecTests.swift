import Testing

/// The Swift TTS catalogue must say exactly what `Specs/Settings/tts.json` says (Specs/Resolution.md §8, Specs/README.md §2).
@Suite("The TTS catalogue matches Specs/Settings/tts.json")
struct TTSCatalogueSpecTests {
    @Test("every key, descriptor, fallback and publication-specific key matches tts.json")
    func catalogueMatchesFile() throws {
        try CatalogueSpec.tts.verify(ruleKeys: ["language"])
    }
}
