import Foundation
import ReadingPreferences

/// One document of an export: where it lives, its preferences and its version.
public struct ExportedDocument: Sendable, Hashable {
    /// Where it lives.
    public var location: StorageLocation
    /// The document.
    public var document: StoredDocument

    /// Creates an exported document.
    ///
    /// - Parameters:
    ///   - location: Where it lives.
    ///   - document: The document.
    public init(location: StorageLocation, document: StoredDocument) {
        self.location = location
        self.document = document
    }
}
