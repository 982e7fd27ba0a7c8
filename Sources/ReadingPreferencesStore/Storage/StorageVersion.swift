import Foundation
import ReadingPreferences

/// An opaque version of a stored document: equal versions mean the same document.
public struct StorageVersion: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The storage's own text (a digest of the contents, a database row version).
    public let rawValue: String

    /// Wraps a storage's version text.
    ///
    /// - Parameter rawValue: The text.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The text.
    public var description: String { rawValue }
}
