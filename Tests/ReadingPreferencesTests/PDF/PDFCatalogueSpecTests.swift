import Testing

/// The Swift PDF catalogue must say exactly what `Specs/Settings/pdf.json` says (Specs/Resolution.md §8, Specs/README.md §2).
@Suite("The PDF catalogue matches Specs/Settings/pdf.json")
struct PDFCatalogueSpecTests {
    @Test("every key, descriptor, fallback and publication-specific key matches pdf.json")
    func catalogueMatchesFile() throws {
        try CatalogueSpec.pdf.verify(ruleKeys: ["readingProgression"])
    }
}
