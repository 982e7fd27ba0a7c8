import Foundation
import ReadingPreferences

/// A loaded document and its version.
public struct StoredDocument: Sendable, Hashable {
    /// The document's preferences, reserved `$` keys included.
    public var preferences: Preferences
    /// Its version.
    public var version: StorageVersion

    /// Creates a loaded document.
    ///
    /// - Parameters:
    ///   - preferences: The preferences.
    ///   - version: The version.
    public init(preferences: Preferences, version: StorageVersion) {
        self.preferences = preferences
        self.version = version
    }
}
