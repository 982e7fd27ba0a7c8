import Testing

/// The Swift EPUB catalogue must say exactly what `Specs/Settings/epub.json` says (Specs/Resolution.md §5, Specs/README.md §2).
@Suite("The EPUB catalogue matches Specs/Settings/epub.json")
struct EPUBCatalogueSpecTests {
    @Test("every key, descriptor, fallback and publication-specific key matches epub.json")
    func catalogueMatchesFile() throws {
        try CatalogueSpec.epub.verify(ruleKeys: ["language", "readingProgression", "theme", "verticalText"])
    }
}
