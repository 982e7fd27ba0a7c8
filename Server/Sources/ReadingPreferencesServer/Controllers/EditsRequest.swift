import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// The body of `POST …/edits` read (Specs/Server.md §5.4): `{"edits": [...], "layer"?,
/// "publication"?}`, where each item is a key-based edit or a move (`{"op": "move", "key", "to"}`).
/// Every failure is a problem a client can act on: 400 for a malformed body, 422 for a layer the
/// server cannot write (this device's, or a class the request does not name).
struct EditsRequest: Sendable {
    /// Where the edits write, when the client says (the settings page's choice).
    enum Layer: Sendable, Equatable {
        /// Shared, or the active profile (`base`, formerly `allBooks`).
        case base
        /// The class the query names (`class`).
        case deviceClass(String)
        /// The book's own document (`book`).
        case book
    }

    /// A value moved to another layer, kept (Specs/Store.md §3.7).
    struct Move: Sendable, Equatable {
        /// The setting's key.
        let key: String
        /// Where it goes: the base, the class or the book.
        let target: EditTarget
    }

    /// The key-based edits, in order.
    var edits: [PreferenceEdit] = []
    /// The moves, applied after the edits, in order.
    var moves: [Move] = []
    /// The values the edits say their keys hold.
    var expectations: [ExpectedValue] = []
    /// The layer named, or `nil` for the save rule.
    var layer: Layer?

    /// The layer a body's `layer` names: `base` (or `allBooks`), `class`, `book`; `device` is
    /// refused (the server holds no device documents).
    static func layer(_ value: JSONValue?, deviceClass: String?) throws -> Layer? {
        switch value {
        case nil, .null?: return nil
        case .string("base")?, .string("allBooks")?: return .base
        case .string("book")?: return .book
        case .string("class")?:
            guard let deviceClass else { throw noClass(member: "layer") }
            return .deviceClass(deviceClass)
        case .string("device")?: throw DeviceLayerRefusal.problem(member: "layer")
        default:
            throw Problem(
                .badRequest, "invalidEdits",
                "layer is \"base\" (shared, or the active profile; also \"allBooks\"), \"class\" "
                    + "(the query's deviceClass) or \"book\" (this book only)")
        }
    }

    /// One move: `{"op": "move", "key": K, "to": "base" | "class" | "book"}`.
    static func move(_ object: JSONObject, at index: Int, deviceClass: String?) throws -> Move {
        guard let key = object["key"]?.stringValue else {
            throw Problem(.badRequest, "invalidEdits", "edits[\(index)] needs \"key\"")
        }
        switch object["to"]?.stringValue {
        case "base"?: return Move(key: key, target: .base)
        case "book"?: return Move(key: key, target: .book)
        case "class"?:
            guard deviceClass != nil else { throw noClass(member: "edits[\(index)].to") }
            return Move(key: key, target: .deviceClass)
        case "device"?: throw DeviceLayerRefusal.problem(member: "edits[\(index)].to")
        default:
            throw Problem(
                .badRequest, "invalidEdits", "edits[\(index)].to is \"base\", \"class\" or \"book\"")
        }
    }

    /// The 422 for the class layer of a request that names no class.
    static func noClass(member: String) -> Problem {
        Problem.unprocessable(
            "noDeviceClass", member: member,
            "the class layer needs the device's class: add ?deviceClass=ID (eink, phone...) to the URL")
    }

    /// The store's layer for the named one, on `publication`, or `nil` for the save rule.
    func storeLayer<Schema: ResolvableSchema>(in store: PreferencesStore<Schema>, publication: String)
        async throws -> StoreLayer?
    {
        switch layer {
        case nil: return nil
        case .base?: return try await store.layer(for: .base)
        case .deviceClass(let id)?: return .deviceClass(id)
        case .book?: return .publication(publication)
        }
    }
}

extension EditsRequest {
    /// Reads a body for a request that names `deviceClass` (or none).
    ///
    /// - Parameters:
    ///   - body: The body.
    ///   - deviceClass: The query's class.
    /// - Throws: A ``Problem``.
    init(_ body: JSONObject, deviceClass: String?) throws {
        guard let list = body["edits"]?.arrayValue else {
            throw Problem(
                .badRequest, "invalidEdits", "the body is {\"edits\": [...], \"publication\"?: {...}}")
        }
        for (index, item) in list.enumerated() {
            if let object = item.objectValue, object["op"]?.stringValue == "move" {
                moves.append(try Self.move(object, at: index, deviceClass: deviceClass))
            } else {
                edits.append(try PublicationsController.edit(item, at: index))
            }
            if let expectation = try PublicationsController.expectation(item, at: index) {
                expectations.append(expectation)
            }
        }
        layer = try Self.layer(body["layer"], deviceClass: deviceClass)
    }
}
