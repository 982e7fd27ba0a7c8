import Foundation
import ReadingPreferences

/// The state one operation runs on: the document's bytes, its decoded preferences and values,
/// resolved settings, and an editor, all prepared once so that ``run(_:count:)`` measures only
/// the operation itself.
public struct Workload {
    /// The document.
    public let document: Document
    /// The publication the resolver knows.
    public let publication: BenchmarkPublication
    /// The EPUB resolver: the publication, default app defaults and environment.
    public let resolver: EPUB.Resolver
    var preferences: Preferences
    var values: SettingValueTable<EPUB>
    var settings: ResolvedSettings<EPUB>
    var editor: EPUB.Editor
    var editUp = true
    /// A value derived from every result, so that no operation can be optimized away.
    public private(set) var checksum = 0

    /// Prepares a workload; throws if the document does not decode.
    public init(document: Document, publication: BenchmarkPublication = .none) throws {
        self.document = document
        self.publication = publication
        resolver = EPUB.Resolver(publication: publication.context)
        preferences = try Preferences(json: document.data)
        values = SettingValueTable(preferences)
        settings = resolver.resolve(preferences)
        editor = EPUB.Editor(preferences: preferences, resolver: resolver)
    }

    /// Runs an operation `count` times. Results feed ``checksum``; failures are counted in it
    /// too, and ``verify()`` checks the operations succeed before anything is measured.
    public mutating func run(_ operation: MeasuredOperation, count: Int) {
        let data = document.data
        var sum = checksum
        switch operation {
        case .jsonSerialization:
            for _ in 0..<count {
                let object = try? JSONSerialization.jsonObject(with: data)
                sum &+= object == nil ? 1 : 2
            }
        case .decode:
            for _ in 0..<count {
                let decoded = try? Preferences(json: data)
                sum &+= decoded?.count ?? -1
            }
        case .decodeResolve:
            for _ in 0..<count {
                guard let decoded = try? Preferences(json: data) else { sum &-= 1; continue }
                let resolved = resolver.resolve(decoded)
                sum &+= resolved.isScrollForced ? 1 : 2
            }
        case .decodeResolveCSS:
            for _ in 0..<count {
                guard let decoded = try? Preferences(json: data) else { sum &-= 1; continue }
                sum &+= resolver.resolve(decoded).readiumCSS().inlineStyle.utf8.count
            }
        case .css:
            for _ in 0..<count {
                sum &+= settings.readiumCSS().inlineStyle.utf8.count
            }
        case .edit:
            var up = editUp
            for _ in 0..<count {
                do {
                    if up { try editor.increment(.fontSize) } else { try editor.decrement(.fontSize) }
                } catch {
                    sum &-= 1
                }
                up.toggle()
            }
            editUp = up
            sum &+= editor.settings.isScrollForced ? 1 : 2
        case .resolve:
            for _ in 0..<count {
                resolver.resolve(values, into: &settings)
            }
            sum &+= settings.isScrollForced ? 1 : 2
        case .valuesResolve:
            for _ in 0..<count {
                resolver.resolve(SettingValueTable<EPUB>(preferences), into: &settings)
            }
            sum &+= settings.isScrollForced ? 1 : 2
        case .encode:
            for _ in 0..<count {
                sum &+= preferences.jsonData().count
            }
        case .validate:
            for _ in 0..<count {
                sum &+= (try? EPUB.catalogue.decode(json: data))?.diagnostics.count ?? -1
            }
        case .form:
            for _ in 0..<count {
                guard let decoded = try? Preferences(json: data) else { sum &-= 1; continue }
                let form = EPUB.Editor(preferences: decoded, resolver: resolver).form()
                sum &+= (try? form.jsonData(prettyPrinted: false))?.count ?? -1
            }
        }
        checksum = sum
    }

    /// The row's name: the document's, then the publication's (`12-key.en`).
    public var name: String { document.name + publication.suffix }

    /// Checks once, outside any measurement, that every operation succeeds and that the edit
    /// round trip leaves the font size where it was.
    public func verify() throws {
        _ = try JSONSerialization.jsonObject(with: document.data)
        let decoded = try Preferences(json: document.data)
        guard decoded == preferences else { throw WorkloadError("decode is not deterministic") }
        guard !resolver.resolve(decoded).readiumCSS().inlineStyle.isEmpty else {
            throw WorkloadError("empty inline style")
        }
        var editor = self.editor
        let before = editor.settings[.fontSize]
        try editor.increment(.fontSize)
        guard editor.settings[.fontSize] != before else { throw WorkloadError("increment did nothing") }
        try editor.decrement(.fontSize)
        guard editor.settings[.fontSize] == before else { throw WorkloadError("decrement did not undo") }
        guard try Preferences(json: preferences.jsonData()) == preferences else {
            throw WorkloadError("encode does not round-trip")
        }
    }
}

/// Why a workload could not be prepared or verified.
public struct WorkloadError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}
