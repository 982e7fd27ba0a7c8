import Foundation
import ReadingPreferences

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ServerTransport {
    /// The account's change events, on one connection to `GET /v1/events` (Specs/Server.md §9.1):
    /// ``ServerEvent/opened`` once the server accepts it, then ``ServerEvent/changed(_:)`` each
    /// time the account's data changes on any instance of the server.
    ///
    /// ```swift
    /// var last: String?
    /// for try await event in server.events(resumingAfter: last) {
    ///     if case .changed(let change) = event { last = change.cursor }
    ///     try await store.sync(with: server)
    /// }
    /// ```
    ///
    /// The sequence ends when the server ends the stream (its shutdown) and throws
    /// ``ServerEventError`` when the connection fails or the server refuses it; leaving the loop
    /// closes the connection. It is read with a data task's delegate, which works with
    /// `FoundationNetworking` on Linux as on Apple platforms. A connection silent for longer
    /// than ``ServerTransport/timeout`` (the server writes a comment every 15 seconds) counts as
    /// lost. ``PreferencesStore/syncContinuously(with:options:minimumInterval:onEvent:)`` keeps a store in sync
    /// with these events, reconnecting as needed.
    ///
    /// - Parameter cursor: The cursor of the last change seen: the server then first sends one
    ///   event when anything changed since (`Last-Event-ID`).
    /// - Returns: The events.
    public func events(resumingAfter cursor: String? = nil) -> AsyncThrowingStream<ServerEvent, any Error> {
        var request = URLRequest(url: url.appendingPathComponent("v1/events"))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        if let cursor { request.setValue(cursor, forHTTPHeaderField: "Last-Event-ID") }
        let configuration = URLSessionConfiguration.ephemeral
        // Between two pieces of data: the server's heartbeat comes every 15 seconds.
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = 365 * 24 * 3600
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: ServerEvent.self, throwing: (any Error).self)
        let reader = EventStreamReader(continuation: continuation)
        let session = URLSession(configuration: configuration, delegate: reader, delegateQueue: nil)
        let task = session.dataTask(with: request)
        continuation.onTermination = { _ in
            task.cancel()
            session.invalidateAndCancel()
        }
        task.resume()
        return stream
    }
}

/// A data task's delegate that reads an event stream as it arrives and yields its events.
final class EventStreamReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let continuation: AsyncThrowingStream<ServerEvent, any Error>.Continuation
    private let lock = NSLock()
    private var parser = EventStreamParser()
    /// The status of a refusal, and its body so far (for the problem's detail).
    private var refused: (status: Int, body: Data)?

    init(continuation: AsyncThrowingStream<ServerEvent, any Error>.Continuation) {
        self.continuation = continuation
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let type = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") ?? ""
        if status == 200, type.lowercased().hasPrefix("text/event-stream") {
            continuation.yield(.opened)
        } else {
            lock.withLock { refused = (status, Data()) }
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let outcome = lock.withLock { () -> Result<[EventStreamParser.Event], any Error> in
            if refused != nil {
                if let count = refused?.body.count, count < 65536 { refused?.body.append(data) }
                return .success([])
            }
            return Result { try parser.feed(data) }
        }
        switch outcome {
        case .success(let events):
            for event in events where event.type == "changed" {
                if let change = ServerChange(data: event.data) { continuation.yield(.changed(change)) }
            }
        case .failure:
            continuation.finish(
                throwing: ServerEventError(
                    isRefusal: false, status: 200, description: "the server sent a line longer than 1 MiB"))
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let refusal = lock.withLock { refused }
        session.finishTasksAndInvalidate()
        if let refusal {
            let problem = try? JSONValue(json: refusal.body).objectValue
            let detail = problem?["detail"]?.stringValue ?? ""
            continuation.finish(
                throwing: ServerEventError(
                    isRefusal: refusal.status == 401 || refusal.status == 403, status: refusal.status,
                    description: "the server refused the event stream (\(refusal.status))"
                        + (detail.isEmpty ? "" : ": \(detail)")))
        } else if let error {
            continuation.finish(
                throwing: ServerEventError(
                    isRefusal: false, status: nil,
                    description: "the event stream was lost: \(error.localizedDescription)"))
        } else {
            continuation.finish()
        }
    }
}
