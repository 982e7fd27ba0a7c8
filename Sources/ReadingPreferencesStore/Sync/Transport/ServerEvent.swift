import Foundation
import ReadingPreferences

/// What a reading back end's event stream tells a device (Specs/Server.md §9.1): that the
/// stream is open, or that the account's data changed.
///
/// An event is a poke, not the data: on ``changed(_:)``, sync (or read the settings again with
/// `If-None-Match`). See ``ServerTransport/events(resumingAfter:)``.
public enum ServerEvent: Sendable, Equatable {
    /// The server accepted the stream: anything may have changed while none was open.
    case opened
    /// The account's data changed.
    case changed(ServerChange)
}

/// A change the server announced: where the account's change cursor stands now, and what
/// changed since the stream's previous event.
public struct ServerChange: Sendable, Equatable {
    /// The account's change cursor (`c42`): the event's id, and what `GET /v1/sync/changes?since=`
    /// takes.
    public var cursor: String
    /// The configurables whose documents changed (`epub`).
    public var configurables: [String]
    /// The synced documents that changed (`epub/shared`, `epub/publication/urn:isbn:978-0`).
    public var scopes: [SyncScope]

    /// Creates a change.
    ///
    /// - Parameters:
    ///   - cursor: The account's change cursor.
    ///   - configurables: The configurables that changed.
    ///   - scopes: The documents that changed.
    public init(cursor: String, configurables: [String], scopes: [SyncScope]) {
        self.cursor = cursor
        self.configurables = configurables
        self.scopes = scopes
    }

    /// A change read from an event's data, `{"cursor", "configurables", "scopes"}`, or `nil`.
    init?(data: String) {
        guard let object = try? JSONValue(json: data).objectValue, let cursor = object["cursor"]?.stringValue
        else { return nil }
        self.cursor = cursor
        configurables = object["configurables"]?.arrayValue?.compactMap(\.stringValue) ?? []
        scopes = object["scopes"]?.arrayValue?.compactMap { $0.stringValue.flatMap(SyncScope.init) } ?? []
    }
}

/// Why an event stream ended.
public struct ServerEventError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Whether the server refused the stream (a token it does not know, a revoked device: 401
    /// or 403), which opening it again would not change; otherwise the connection was lost or
    /// the server was busy, and opening it again later may work.
    public var isRefusal: Bool
    /// The status the server answered, when it answered.
    public var status: Int?
    /// What happened, for people.
    public var description: String
}
