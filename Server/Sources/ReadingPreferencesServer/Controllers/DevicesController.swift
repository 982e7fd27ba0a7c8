import Foundation
import HTTPTypes
import Hummingbird
import ReadingPreferences
import ReadingPreferencesStore

/// A user's devices and their tokens (Specs/Server.md §3.4):
/// - `POST /v1/devices` `{"name", "class"?, "replica"?}` → 201 `{"id", "token"}` (the token is
///   shown once; the server keeps its SHA-256);
/// - `GET /v1/devices` → `[{"id", "name", "class", "replica", "created", "lastSeen"}]`;
/// - `DELETE /v1/devices/{id}` → 204: its token fails from its next request on, and its open
///   event streams end within a second, on every instance.
struct DevicesController: Sendable {
    let devices: Devices
    let bodyLimit: Int

    /// The longest name, in bytes.
    static let nameLimit = 200

    func addRoutes(to group: RouterGroup<ServerContext>) {
        group.post("/devices", use: create)
        group.get("/devices", use: list)
        group.delete("/devices/:device", use: revoke)
    }

    @Sendable func create(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let user = try await context.user()
        let body = try await request.object(limit: bodyLimit)
        guard let name = body["name"]?.stringValue,
            !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, name.utf8.count <= Self.nameLimit,
            !name.utf8.contains(0)
        else {
            throw Problem(
                .badRequest, "invalidDevice",
                "\"name\" is a name for people: a string of 1 to \(Self.nameLimit) bytes, not only spaces")
        }
        let deviceClass = try Self.identifier(body["class"], named: "class", example: "eink")
        let replica = try Self.identifier(body["replica"], named: "replica", example: "kobo-clara")
        for member in body.members where !["name", "class", "replica"].contains(member.key) {
            throw Problem(
                .badRequest, "invalidDevice", "a device has name, class and replica, not \(member.key)")
        }
        let made = try await devices.create(for: user, name: name, deviceClass: deviceClass, replica: replica)
        return JSONAnswer(.object(["id": .string(made.id), "token": .string(made.token)]), status: .created)
    }

    @Sendable func list(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let found = try await devices.list(of: try await context.user())
        return JSONAnswer(
            .array(
                found.map { device in
                    .object([
                        "id": .string(device.id), "name": .string(device.name),
                        "class": device.deviceClass.map { .string($0) } ?? .null,
                        "replica": device.replica.map { .string($0) } ?? .null,
                        "created": .string(Self.timestamp(device.created)),
                        "lastSeen": device.lastSeen.map { .string(Self.timestamp($0)) } ?? .null,
                    ])
                }))
    }

    @Sendable func revoke(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let user = try await context.user()
        let id = try Request.decoded(try context.parameters.require("device"))
        guard try await devices.revoke(id, of: user) else {
            throw Problem(.notFound, "unknownDevice", "this account has no device \(id)")
        }
        return .noContent
    }

    /// A class or replica id: absent, `null`, or a replica-style id (400 otherwise).
    static func identifier(_ value: JSONValue?, named name: String, example: String) throws -> String? {
        guard let value, value != .null else { return nil }
        guard let text = value.stringValue, ReplicaID.isValid(text) else {
            throw Problem(
                .badRequest, "invalidDevice",
                "\"\(name)\" is 1 to 64 lower-case letters, digits and hyphens, starting with a letter or digit "
                    + "(such as \(example))")
        }
        return text
    }

    /// An instant as RFC 3339 text in UTC, to the millisecond (`2026-11-28T22:57:01.250Z`).
    static func timestamp(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
