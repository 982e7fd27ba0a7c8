import Foundation
import ReadingPreferences

/// What ``PreferencesStore/syncContinuously(with:options:minimumInterval:onEvent:)`` reports as it goes.
public enum LiveSyncEvent: Sendable {
    /// The server's event stream is open (first, and after each reconnection).
    case connected
    /// A sync ran: when the stream opened, or after the server announced a change.
    case synced(SyncReport)
    /// A sync failed; the next announcement (or reconnection) tries again.
    case syncFailed(any Error)
    /// The stream was lost; it is opened again after `retryAfter` seconds.
    case disconnected(reason: String, retryAfter: TimeInterval)
}

extension PreferencesStore {
    /// Keeps this store in sync with a reading back end for as long as the calling task runs
    /// (Specs/Server.md §9.4): it syncs at once, keeps the server's event stream open, and syncs
    /// again each time the server announces a change (made by another device, the settings page,
    /// or this one), at most once every `minimumInterval` seconds (several announcements in that
    /// time make one sync), and each time the stream opens again after it was lost.
    ///
    /// ```swift
    /// // In SwiftUI: .task { try? await store.syncContinuously(with: .server(url, token: token)) }
    /// try await store.syncContinuously(with: .server(url, token: token)) { event in
    ///     if case .synced(let report) = event { print(report.changes.count, "changed") }
    /// }
    /// ```
    ///
    /// A lost stream is opened again after 1 second, then 2, 4... up to a minute. It returns when
    /// its task is cancelled, once a sync under way has finished (a sync is never cut in half).
    ///
    /// - Parameters:
    ///   - server: The server.
    ///   - options: How each sync behaves.
    ///   - minimumInterval: The least time between two syncs' starts, in seconds (1).
    ///   - onEvent: Told of each connection, sync and loss.
    /// - Throws: ``ServerEventError`` when the server refuses the stream (an unknown token, a
    ///   revoked device): opening it again would not help.
    public func syncContinuously(
        with server: ServerTransport, options: SyncOptions = SyncOptions(), minimumInterval: TimeInterval = 1,
        onEvent: @escaping @Sendable (LiveSyncEvent) async -> Void = { _ in }
    ) async throws {
        let (requests, requested) = AsyncStream.makeStream(
            of: Void.self, bufferingPolicy: .bufferingNewest(1))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { requested.finish() }
                try await Self.follow(server, requesting: requested, onEvent: onEvent)
            }
            group.addTask {
                var lastStart: TimeInterval?
                for await _ in requests {
                    if let lastStart {
                        let wait = lastStart + minimumInterval - ProcessInfo.processInfo.systemUptime
                        if wait > 0 {
                            do { try await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000)) } catch {
                                return
                            }
                        }
                    }
                    lastStart = ProcessInfo.processInfo.systemUptime
                    do {
                        await onEvent(.synced(try await self.sync(with: server, options: options)))
                    } catch {
                        await onEvent(.syncFailed(error))
                    }
                }
            }
            // The first to end ends both: the stream refused (thrown), or the task cancelled;
            // a refusal is thrown whichever ended first.
            do {
                try await group.next()
            } catch {
                group.cancelAll()
                throw error
            }
            group.cancelAll()
            try await group.waitForAll()
        }
    }

    /// Keeps the event stream open, asking for a sync when it opens and at each change, until
    /// the task is cancelled or the server refuses the stream.
    private static func follow(
        _ server: ServerTransport, requesting requested: AsyncStream<Void>.Continuation,
        onEvent: @Sendable (LiveSyncEvent) async -> Void
    ) async throws {
        var cursor: String?
        var pause: TimeInterval = 1
        while !Task.isCancelled {
            let reason: String
            do {
                for try await event in server.events(resumingAfter: cursor) {
                    switch event {
                    case .opened:
                        pause = 1
                        await onEvent(.connected)
                    case .changed(let change):
                        cursor = change.cursor
                    }
                    requested.yield()
                }
                reason = "the server ended the stream"
            } catch let error as ServerEventError {
                if error.isRefusal { throw error }
                reason = error.description
            }
            guard !Task.isCancelled else { return }
            await onEvent(.disconnected(reason: reason, retryAfter: pause))
            do { try await Task.sleep(nanoseconds: UInt64(pause * 1_000_000_000)) } catch { return }
            pause = min(pause * 2, 60)
        }
    }
}
