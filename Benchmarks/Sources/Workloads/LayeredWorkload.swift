import Foundation
import ReadingPreferences

/// Resolution with the device-class and this-device layers and a rules document of 20 rules
/// (Specs/Store.md §1.4, §4.5): the 12-key document as the base, a device class's and this
/// device's documents over it, the 20 rules evaluated (only the last holds), the three decoded
/// and merged, resolved for an English book, and its Readium CSS written. The bare row parses
/// the same three documents' bytes with `JSONSerialization`.
public struct LayeredWorkload: Sendable {
    /// The base (the 12-key document), the class's and the device's documents, as stored.
    public let documents: [Data]
    /// The 20 rules and a context in which only the last holds.
    public let rules: RulesWorkload
    let resolver: EPUB.Resolver

    /// Prepares the documents and the rules, and checks that the whole pipeline succeeds.
    ///
    /// - Throws: ``WorkloadError`` when a document does not decode or another rule holds.
    public init() throws {
        documents = [
            Document.twelveKeys.data,
            Data(#"{"fontSize":1.6,"lineHeight":1.5}"#.utf8),
            Data(#"{"pageMargins":1.2}"#.utf8),
        ]
        rules = try RulesWorkload()
        resolver = EPUB.Resolver(publication: BenchmarkPublication.english.context)
        guard run(count: 1) > 0 else { throw WorkloadError("the layered pipeline failed") }
    }

    /// Decodes the three documents, evaluates the rules, merges, resolves and writes the CSS,
    /// `count` times; returns a sum of the results, so the work is kept.
    public func run(count: Int) -> Int {
        var sum = 0
        for _ in 0..<count {
            sum &+= rules.rules.firstMatch(in: rules.context) ?? -1
            guard var merged = try? Preferences(json: documents[0]) else { return -1 }
            for bytes in documents.dropFirst() {
                guard let layer = try? Preferences(json: bytes) else { return -1 }
                merged.merge(layer)
            }
            sum &+= resolver.resolve(merged).readiumCSS().inlineStyle.utf8.count
        }
        return sum
    }

    /// The bare parse: `JSONSerialization` of the same three documents, `count` times.
    public func bare(count: Int) -> Int {
        var sum = 0
        for _ in 0..<count {
            for bytes in documents { sum &+= (try? JSONSerialization.jsonObject(with: bytes)) == nil ? 1 : 2 }
        }
        return sum
    }
}
