import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ReadingPreferences
import ReadingPreferencesSQL
import ServiceLifecycle

/// Changes pushed, not polled (Specs/Server.md §9):
/// - `POST /v1/events/tickets` (with the bearer token) → `{"ticket"}`: opens one stream within
///   60 seconds, for a browser's `EventSource`, which cannot send `Authorization`;
/// - `GET /v1/events` (with `Authorization`, or `?ticket=`) → `text/event-stream`: an event
///   `changed` with `id:` the user's change cursor and `{"cursor", "configurables", "scopes"}`
///   each time the user's data changes, on any instance; `Last-Event-ID` first sends one event
///   when anything changed since; a comment every heartbeat (15 s). A stream ends when the
///   client goes, when its device is revoked, and at shutdown.
///
/// A user holds at most ``LiveEvents/streamsPerUser`` streams at once, on every instance
/// together (429 with `Retry-After` beyond).
struct EventsController: Sendable {
    let live: LiveEvents
    let authentication: Authentication

    func addRoutes(to router: Router<ServerContext>, api: RouterGroup<ServerContext>) {
        api.post("/events/tickets", use: ticket)
        // Outside the bearer middleware: a stream opened with a ticket carries no token.
        router.get("/v1/events", use: stream)
        router.head("/v1/events", use: head)
    }

    @Sendable func ticket(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let identity = try await context.tokenIdentity()
        do {
            let ticket = try await live.tickets.issue(for: identity)
            return JSONAnswer(.object(["ticket": .string(ticket)]))
        } catch EventTickets.Refusal.tooMany {
            var problem = Problem(
                .tooManyRequests, "tooManyTickets",
                "this account holds \(EventTickets.perUser) tickets that have not expired; use one, or wait a minute"
            )
            problem.headers[.retryAfter] = "60"
            throw problem
        }
    }

    /// What opening a stream needs, checked before its answer starts: who it is, where it
    /// resumes from.
    private func opening(_ request: Request, redeeming: Bool) async throws -> (TokenIdentity, resume: String?)
    {
        let ticket = request.uri.queryParameters.get("ticket")
        let identity: TokenIdentity
        // A ticket, when given, decides (an `EventSource` sends nothing else); otherwise the
        // token of `Authorization`. Never a token from the URL.
        switch (ticket, request.headers[.authorization]) {
        case (let ticket?, _):
            let found =
                redeeming
                ? try await live.tickets.redeem(String(ticket)) : try await live.tickets.peek(String(ticket))
            guard let found else {
                throw Problem(
                    .unauthorized, "unknownTicket",
                    "the ticket is not known, was used already or expired (a ticket opens one stream within 60 s)"
                )
            }
            identity = found
        case (nil, .some):
            identity = try await authentication.identity(forToken: try Authentication.token(of: request))
        case (nil, nil):
            throw Problem(
                .unauthorized, "unauthorized",
                "this route needs Authorization: Bearer <token>, or ?ticket= from POST /v1/events/tickets")
        }
        var resume: String?
        if let last = request.headers[.lastEventID] {
            guard SQLSyncLog.sequence(of: last) != nil else {
                throw Problem(
                    .badRequest, "invalidLastEventID",
                    "Last-Event-ID is an event's id (c and digits), not \(last)")
            }
            resume = last
        }
        return (identity, resume)
    }

    @Sendable func head(_ request: Request, context: ServerContext) async throws -> Response {
        _ = try await opening(request, redeeming: false)
        return Response(status: .ok, headers: Self.streamHeaders)
    }

    @Sendable func stream(_ request: Request, context: ServerContext) async throws -> Response {
        let (identity, resume) = try await opening(request, redeeming: true)
        guard
            let slot = try await live.streams.open(
                for: identity.userID, limit: live.streamsPerUser, lease: live.publisher.leaseLength)
        else {
            var problem = Problem(
                .tooManyRequests, "tooManyStreams",
                "this account holds \(live.streamsPerUser) open event streams already; close one first")
            problem.headers[.retryAfter] = String(live.publisher.heartbeat.components.seconds)
            throw problem
        }
        try? await live.devices.noteSeen(identity)
        let live = live
        return Response(
            status: .ok, headers: Self.streamHeaders,
            body: ResponseBody { writer in
                let subscriber = live.publisher.subscribe(
                    userID: identity.userID, deviceID: identity.deviceID, slot: slot)
                do {
                    try await withGracefulShutdownHandler {
                        try await request.body.consumeWithInboundCloseHandler { _ in
                            try await EventStream(live: live, subscriber: subscriber).run(
                                resuming: resume, writer: &writer)
                        } onInboundClosed: {
                            subscriber.close()
                        }
                    } onGracefulShutdown: {
                        subscriber.close()
                    }
                } catch {
                    try? await live.streams.close(slot)
                    live.publisher.unsubscribe(subscriber)
                    throw error
                }
                try? await live.streams.close(slot)
                live.publisher.unsubscribe(subscriber)
                try await writer.finish(nil)
            })
    }

    /// The headers of a stream: not cached, and not buffered by a proxy that reads
    /// `X-Accel-Buffering` (nginx).
    static let streamHeaders: HTTPFields = [
        .contentType: "text/event-stream", .cacheControl: "no-store",
        HTTPField.Name("X-Accel-Buffering") ?? .via: "no",
    ]
}

extension HTTPField.Name {
    /// `Last-Event-ID`, which an `EventSource` sends when it reconnects.
    static let lastEventID = HTTPField.Name("Last-Event-ID") ?? .via
}
