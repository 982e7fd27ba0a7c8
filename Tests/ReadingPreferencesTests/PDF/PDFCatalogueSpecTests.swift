import Testing

/// The Swift PDF catalogue must say exactly what `Specs/Settings/pdf.json` says (SPEC 6, 11).
@Suite("The PDF catalogue matches Specs/Settings/pdf.json")
struct PDFCatalogueSpecTests {
    @Test("every key, descriptor, fallback and publication-specific key matches pdf.json")
    func catalogueMatchesFile() throws {
        try CatalogueSpec.pdf.verify(ruleKeys: ["readingProgression"])
    }
}
