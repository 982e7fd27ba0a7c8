import Foundation
import ReadingPreferences

/// Where ``PreferencesStorage/quarantine(_:expecting:replacement:)`` put damaged data.
public struct Quarantine: Sendable, Hashable {
    /// Where the damaged data is kept now (a file's path, a table's row), for people.
    public var movedTo: String
    /// The version of the replacement, or `nil` when the location holds nothing now.
    public var version: StorageVersion?

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - movedTo: Where the damaged data went.
    ///   - version: The replacement's version.
    public init(movedTo: String, version: StorageVersion?) {
        self.movedTo = movedTo
        self.version = version
    }
}
