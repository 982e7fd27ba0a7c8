import Foundation
import Testing

@testable import ReadingPreferences

@Suite("Compiled slot decoders (Specs/Settings.md §9.2)")
struct SlotDecoderTests {
    /// Catalogues whose every slot is checked: the built-in ones, and coder and validator pairs
    /// they do not use (a narrowed picker, an allowlist of numbers, combined validators).
    static let catalogues: [(String, SettingCatalogue)] = [
        ("epub", EPUB.catalogue), ("pdf", PDF.catalogue), ("audio", Audio.catalogue), ("tts", TTS.catalogue),
        (
            "odd pairs",
            SettingCatalogue([
                Setting<EPUB, EPUB.Theme>.enumeration("narrowed", supported: [.dark, .sepia]).descriptor,
                Setting<EPUB, Double>.range("unbounded", range: 0...1) { $0.validator = .identity }
                    .descriptor,
                Setting<EPUB, Double>.range("listed", range: 0...1) {
                    $0.validator = .allowlist([.number(0.5), .number(1)])
                }.descriptor,
                Setting<EPUB, Double>.range("combined", range: 0...1) {
                    $0.validator = SettingValidator.range(0...2).then(.range(1...3))
                }.descriptor,
                Setting<EPUB, Int>.range("count", range: 1...4).descriptor,
                Setting<EPUB, String>.value("name", coder: .string).descriptor,
                Setting<EPUB, String>.value("picked", coder: .enumeration(["a", "b"])) {
                    $0.validator = .allowlist([.string("b"), .bool(true)])
                }.descriptor,
            ])
        ),
    ]

    static let values: [JSONValue] = [
        true, false, 0, -0.0, 1, 1.2, 2.5, -3, 5.1, 0.05, 1_184_274, 16_777_215,
        .number(JSONNumber(text: "1e-400") ?? JSONNumber(0)),
        .number(JSONNumber(text: "1e400") ?? JSONNumber(0)),
        .number(JSONNumber(text: "-1e400") ?? JSONNumber(0)),
        .number(JSONNumber(.infinity)), .number(JSONNumber(.nan)), "", "dark", "Dark", "sepia", "light",
        "night",
        "auto", "1", "2", "3", "ltr", "rtl", "justify", "start", "Literata", "en", "ar", "ja-JP", "#FF0000",
        "caf\u{E9}", "cafe\u{301}", "a", "b", [], [:], ["a"], ["en": "voice"], ["en": 1],
    ]

    @Test("every slot decodes every value exactly as its descriptor does", arguments: catalogues)
    func sameAsDescriptor(name: String, catalogue: SettingCatalogue) {
        for (slot, descriptor) in catalogue.descriptors.enumerated() {
            var inputs = Self.values
            inputs += (descriptor.supportedValues ?? []).map { descriptor.coder.encode($0) }
            if case .enumeration(let cases) = descriptor.coder { inputs += cases.map(JSONValue.string) }
            if let range = descriptor.range {
                inputs += [range.lowerBound, range.upperBound, range.lowerBound - 1, range.upperBound + 1]
                    .map { .number(JSONNumber($0)) }
            }
            for input in inputs {
                #expect(
                    catalogue.storage.validValue(ofSlot: slot, input) == descriptor.validValue(of: input),
                    "\(name) \(descriptor.key) \(input)")
            }
        }
    }

    @Test("the common coder and validator pairs compile to plain decoders; the rest stay general")
    func kinds() throws {
        let epub = EPUB.catalogue
        func kind(_ key: String, in catalogue: SettingCatalogue) throws -> SlotDecoder.Kind {
            catalogue.storage.decoders[try #require(catalogue.slot(forKey: key))].kind
        }
        #expect(try kind("publisherStyles", in: epub) == .toggle)
        #expect(try kind("fontSize", in: epub) == .number)
        #expect(try kind("theme", in: epub) == .choice)
        #expect(try kind("fontFamily", in: epub) == .text)
        #expect(try kind("textColor", in: epub) == .general)
        #expect(try kind("language", in: epub) == .general)
        let odd = Self.catalogues[4].1
        #expect(try kind("narrowed", in: odd) == .choice)
        #expect(try kind("listed", in: odd) == .general)
        #expect(try kind("combined", in: odd) == .general)
        #expect(try kind("picked", in: odd) == .general)
    }
}
