import Foundation
import HTTPTypes
import Hummingbird
import ReadingPreferences
import ReadingPreferencesStore

/// The server as a sync replica (Specs/Server.md §6):
/// - `POST /v1/sync/push` `{"replica", "name"?, "entries": [...], "merged"?}` → `{"applied",
///   "ignored": [{"scope", "key", "reason"}], "cursor", "setAside"?: [{"scope", "movedTo"}]}`;
/// - `GET /v1/sync/changes?since=C&limit=N` → `{"entries": [...], "cursor", "more"}` (410 for a
///   cursor older than the compaction floor);
/// - `GET /v1/sync/state` → the server replica's whole state, in the replica-file format.
///
/// A device's token is bound to the replica id the device first pushes with (unless it was
/// given one when it was made), which `GET /v1/devices` lists.
struct SyncController: Sendable {
    let data: UserData
    let devices: Devices

    func addRoutes(to group: RouterGroup<ServerContext>) {
        group.post("/sync/push", use: push)
        group.get("/sync/changes", use: changes)
        group.get("/sync/state", use: state)
    }

    @Sendable func push(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let identity = try await context.tokenIdentity()
        let body = try await request.jsonBody(limit: UserData.pushLimit)
        let result = try await data.replica.push(body, of: identity.userID)
        if let device = identity.deviceID, identity.replica == nil, let replica = result.replica {
            try await devices.bind(device, to: replica.rawValue)
        }
        let ignored = result.ignored.map { item -> JSONValue in
            .object(["scope": .string(item.scope), "key": .string(item.key), "reason": .string(item.reason)])
        }
        var answer: JSONObject = [
            "applied": .number(JSONNumber(Int(result.applied))), "ignored": .array(ignored),
            "cursor": .string(result.cursor),
        ]
        if !result.setAside.isEmpty {
            answer["setAside"] = .array(
                result.setAside.map { .object(["scope": .string($0.scope), "movedTo": .string($0.movedTo)]) })
        }
        return JSONAnswer(.object(answer))
    }

    @Sendable func changes(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let user = try await context.user()
        let query = request.uri.queryParameters
        var limit = 1000
        if let text = query.get("limit") {
            guard let number = Int(text), (1...10_000).contains(number) else {
                throw Problem(.badRequest, "invalidLimit", "limit is a number from 1 to 10000, not \(text)")
            }
            limit = number
        }
        let page = try await data.replica.changes(
            of: user, since: query.get("since").map { String($0) }, limit: limit)
        return JSONAnswer(
            .object([
                "entries": .array(page.entries), "cursor": .string(page.cursor), "more": .bool(page.more),
            ]))
    }

    @Sendable func state(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        JSONAnswer(data: try await data.replica.state(of: try await context.user()))
    }
}
