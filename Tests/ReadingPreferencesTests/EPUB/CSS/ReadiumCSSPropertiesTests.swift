import Foundation
import TestSupport
import Testing

@testable import ReadingPreferences

@Suite("Readium CSS properties kept as their inline style")
struct ReadiumCSSPropertiesTests {
    @Test("properties read back from the style: sorted by name, the last of a repeated name kept")
    func readBack() {
        var random = PropertyRandom(seed: 8)
        let names = ["--USER__a", "--RS__b", "font-weight", "--x: y", "caf\u{E9}", "--USER__fontSize", "z"]
        let values = ["1", "", "a !important; b: c", "\"Quoted; !important\"", "\u{1F600}", "150%"]
        for _ in 0..<300 {
            var input: [CSSProperty] = []
            for _ in 0..<Int(random.next() % 9) {
                input.append(
                    CSSProperty(
                        name: names[Int(random.next() % UInt64(names.count))],
                        value: values[Int(random.next() % UInt64(values.count))]))
            }
            var expected: [String: String] = [:]
            for property in input { expected[property.name] = property.value }
            let sorted = expected.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let css = ReadiumCSSProperties(input)
            #expect(css.names == sorted)
            #expect(css.properties == sorted.map { CSSProperty(name: $0, value: expected[$0] ?? "") })
            #expect(css.count == sorted.count)
            for name in names { #expect(css[name] == expected[name]) }
            #expect(css.inlineStyle == css.properties.map(\.declaration).joined(separator: " "))
            #expect(css == ReadiumCSSProperties(css.properties))
        }
    }

    @Test("equal properties are equal whatever order they came in, and differ when one value does")
    func equality() {
        let a = ReadiumCSSProperties([.init(name: "b", value: "2"), .init(name: "a", value: "1")])
        let b = ReadiumCSSProperties([.init(name: "a", value: "1"), .init(name: "b", value: "2")])
        let c = ReadiumCSSProperties([.init(name: "a", value: "1"), .init(name: "b", value: "3")])
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != c)
        // The same text split differently is a different map.
        let joined = ReadiumCSSProperties([.init(name: "a", value: "1 !important; b: 2")])
        #expect(joined.inlineStyle == a.inlineStyle)
        #expect(joined != a)
    }
}

@Suite("Readium CSS written past its stack buffer")
struct ReadiumCSSLongStyleTests {
    @Test("a style longer than the writer's stack storage moves to the heap and reads back whole")
    func longFontFamily() throws {
        let family = String(repeating: "Very Long \"Family\" Name ", count: 200)
        let preferences: Preferences = ["fontFamily": .string(family), "fontSize": 1.5, "theme": "dark"]
        let settings = EPUB.Resolver().resolve(preferences)
        let css = settings.readiumCSS()
        #expect(css.inlineStyle.utf8.count > 4096)
        #expect(css["--USER__fontFamily"] == FontFamilyRegistry.cssName(family))
        #expect(css["--USER__fontSize"] == "150%")
        #expect(css == settings.readiumCSS(options: ReadiumCSSOptions()))
        #expect(css == ReadiumCSSProperties(css.properties))
    }
}
