import Foundation
import ReadingPreferences

/// One subscriber of a store: what it watches, what it saw last, and where its changes go.
struct ChangeSubscriber: Sendable {
    /// What a subscriber watches.
    enum Scope: Sendable {
        /// A publication's effective values (overrides, defaults and rules included).
        case effective(publication: String?, context: PublicationContext)
        /// The stored values of shared or the active profile.
        case stored
    }

    /// Where changes go.
    enum Target: Sendable {
        /// A ``PreferenceChangeStream`` stream.
        case stream(ChangeBuffer)
        /// One notification per change on a center.
        case notifications(NotificationCenter, id: UUID)
    }

    let scope: Scope
    let target: Target
    /// The values seen last, by key; a missing key has no value.
    var last: [JSONScalarKey: JSONValue]

    /// Whether the consumer is gone.
    var isFinished: Bool {
        if case .stream(let buffer) = target { return buffer.isFinished }
        return false
    }
}

extension Notification.Name {
    /// Posted by a store's notification bridge, once per changed key
    /// (``PreferencesStore/postNotifications(for:context:center:)``). The `userInfo` holds the
    /// keys of ``PreferencesStoreNotificationKey``.
    public static let readingPreferencesDidChange = Notification.Name("org.readingprefs.preferencesDidChange")
}

/// The `userInfo` keys of `Notification.Name.readingPreferencesDidChange`.
public enum PreferencesStoreNotificationKey {
    /// The changed key (`String`).
    public static let key = "key"
    /// The old value (`JSONValue`), absent when there was none.
    public static let oldValue = "oldValue"
    /// The new value (`JSONValue`), absent when there is none.
    public static let newValue = "newValue"
    /// The cause (``ChangeCause``'s raw value, `String`).
    public static let cause = "cause"
    /// The configurable's identifier (`String`).
    public static let configurable = "configurable"
    /// The publication's identifier (`String`), absent for shared.
    public static let publication = "publication"
}
