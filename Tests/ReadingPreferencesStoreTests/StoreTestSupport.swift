import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport

/// The two storages every store test runs against: the same behaviour is required of both.
enum StorageKindUnderTest: String, CaseIterable, Sendable, CustomStringConvertible {
    case files
    case memory

    var description: String { rawValue }

    /// A fresh, empty storage, and the folder that backs it (kept alive by the caller).
    func make() throws -> (storage: any PreferencesStorage, folder: TemporaryFolder?) {
        switch self {
        case .memory: return (InMemoryStorage(), nil)
        case .files:
            let folder = try TemporaryFolder()
            return (FileStorage(root: folder.url), folder)
        }
    }
}

/// An Arabic book, for rules that depend on the publication.
let arabicBook = PublicationContext(layout: .reflowable, languages: ["ar"], readingProgression: .auto)
/// A Japanese vertical book: vertical text forces scroll.
let japaneseBook = PublicationContext(layout: .reflowable, languages: ["ja"], readingProgression: .rtl)

extension Array where Element == AttributedSetting {
    /// The attributed setting of a key.
    subscript(key: String) -> AttributedSetting? { first { $0.key == key } }
}
