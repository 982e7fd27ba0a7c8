import Foundation
import Testing

@testable import ReadingPreferences

/// One type and one decoder for the publication context (Specs/Resolution.md §2, Specs/README.md §3).
@Suite("The publication context")
struct PublicationContextTests {
    @Test("Codable and the JSON reader accept the same documents and agree")
    func codableGoesThroughTheReader() throws {
        let json = #"{"layout":"fixed","languages":["ja","en"],"readingProgression":null,"extra":1}"#
        let decoded = try JSONDecoder().decode(PublicationContext.self, from: Data(json.utf8))
        let read = try PublicationContext(json: JSONValue(json: json))
        #expect(decoded == read)
        #expect(
            read == PublicationContext(layout: .fixed, languages: ["ja", "en"], readingProgression: .auto))
    }

    @Test("a wrong member is an error naming it, through Codable too")
    func wrongMember() throws {
        let json = #"{"layout":"fluid"}"#
        #expect(throws: JSONMemberError.self) { try PublicationContext(json: JSONValue(json: json)) }
        do {
            _ = try JSONDecoder().decode(PublicationContext.self, from: Data(json.utf8))
            Issue.record("decoded an invalid layout")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.hasPrefix("layout:"))
        }
    }

    @Test("encoding round-trips")
    func roundTrip() throws {
        let context = PublicationContext(layout: .reflowable, languages: ["ar"], readingProgression: .rtl)
        let data = try JSONEncoder().encode(context)
        #expect(try JSONDecoder().decode(PublicationContext.self, from: data) == context)
    }

    @Test("the publication language is the first tag, unless it is empty")
    func language() {
        #expect(PublicationContext(languages: ["fr", "en"]).language == "fr")
        #expect(PublicationContext(languages: [""]).language == nil)
        #expect(PublicationContext().language == nil)
    }
}
