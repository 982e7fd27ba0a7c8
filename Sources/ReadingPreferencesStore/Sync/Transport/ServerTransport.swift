import Foundation
import ReadingPreferences

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sync through a reading back end (Specs/Server.md §6): the server is one more replica, reached over HTTP
/// with `URLSession`, instead of a shared folder.
///
/// ```swift
/// let url = URL(string: "https://reader.example.com")!
/// try await store.sync(with: .server(url, token: accountToken))
/// ```
///
/// A sync reads the server's whole state (`GET /v1/sync/state`, in the replica-file format of
/// `Specs/Sync.md`), reconciles with it exactly as with a folder's files, and publishes this
/// replica's entries (`POST /v1/sync/push`). The server merges them with the same rules and
/// never restamps them; an entry it ignores (a stamp more than 24 hours ahead of its clock) is
/// reported as a ``SyncProblem``, never a reason to fail the sync.
public struct ServerTransport: ReplicaTransport {
    /// The server's base address, such as `https://reader.example.com`.
    public let url: URL
    /// The account's bearer token.
    public let token: String
    /// How long one request may take, in seconds.
    public var timeout: TimeInterval
    /// The limits the server's state is read with.
    public var limits: ReplicaFileLimits

    /// Creates a transport to a server.
    ///
    /// - Parameters:
    ///   - url: The server's base address.
    ///   - token: The account's bearer token.
    ///   - timeout: How long one request may take, in seconds.
    public init(url: URL, token: String, timeout: TimeInterval = 60) {
        self.url = url
        self.token = token
        self.timeout = timeout
        limits = ReplicaFileLimits()
    }

    /// Nothing to prepare: the server is checked by the first request.
    ///
    /// - Parameter localFolder: The store's folder (unused: a server cannot overlap it).
    /// - Returns: No problems.
    /// - Throws: Nothing: a server that cannot be used fails the first request instead.
    public func prepare(localFolder: URL?) async throws(SyncError) -> [SyncProblem] { [] }

    /// Reads the server's state.
    ///
    /// - Parameter replica: The local replica.
    /// - Returns: The server's state as one replica's.
    /// - Throws: ``SyncError/transport(_:)`` when the server cannot be reached, refuses the token,
    ///   or answers something that is not a replica file.
    public func receive(for replica: ReplicaID) async throws(SyncError) -> ReplicaInbox {
        let (data, status) = try await send("GET", "v1/sync/state", body: nil)
        guard status == 200 else { throw Self.refused(status, data, "reading the server's state") }
        var inbox = ReplicaInbox()
        do throws(ReplicaFileError) {
            let file = try ReplicaState.read(data, limits: limits)
            for skipped in file.skipped {
                inbox.problems.append(.skippedEntry(source: url.absoluteString, detail: skipped))
            }
            // The server's state names this replica's own entries too; they are history, never
            // the replica's own file (which only this device writes).
            inbox.others.append(ReplicaInbox.Received(source: url.absoluteString, file: file))
        } catch {
            throw .transport("the server's state is not a replica file: \(error)")
        }
        return inbox
    }

    /// Pushes this replica's entries to the server.
    ///
    /// - Parameter state: The local replica's state.
    /// - Returns: One problem per entry the server ignored.
    /// - Throws: ``SyncError/transport(_:)`` when the server cannot be reached or refuses.
    public func publish(_ state: ReplicaState) async throws(SyncError) -> [SyncProblem] {
        let (data, status) = try await send("POST", "v1/sync/push", body: Self.pushBody(state))
        guard status == 200 else { throw Self.refused(status, data, "pushing to the server") }
        var problems: [SyncProblem] = []
        let answer = try? JSONValue(json: data).objectValue
        for item in answer?["ignored"]?.arrayValue ?? [] {
            let object = item.objectValue
            let scope = object?["scope"]?.stringValue ?? "?"
            let key = object?["key"]?.stringValue ?? "?"
            let reason = object?["reason"]?.stringValue ?? "ignored"
            problems.append(.skippedEntry(source: url.absoluteString, detail: "\(scope) \(key): \(reason)"))
        }
        return problems
    }

    // MARK: - The push body

    /// The body of `POST /v1/sync/push` for a state: `{"replica": ID, "name"?: NAME, "writer": W,
    /// "merged": {...}, "entries": [{"scope", "key", entry...}]}`, every entry of the state as a replica
    /// file holds it, with its scope and key (`Specs/Sync.md`, section 7).
    ///
    /// - Parameter state: The state.
    /// - Returns: The JSON body.
    public static func pushBody(_ state: ReplicaState) -> Data {
        var entries: [JSONValue] = []
        entries.reserveCapacity(state.entryCount)
        for scope in state.documents.keys.sorted() {
            guard let document = state.documents[scope] else { continue }
            for (key, entry) in document.all {
                var object: JSONObject = ["scope": .string(scope.description), "key": .string(key)]
                for member in entry.jsonValue.objectValue?.members ?? [] { object[member.key] = member.value }
                entries.append(.object(object))
            }
        }
        var merged = JSONObject()
        for replica in state.merged.keys.sorted() {
            if let stamp = state.merged[replica] { merged[replica.rawValue] = stamp.jsonValue }
        }
        var body: JSONObject = [
            "replica": .string(state.replica.rawValue), "writer": .string(state.writer),
            "merged": .object(merged),
            "entries": .array(entries),
        ]
        if let name = state.name { body["name"] = .string(name) }
        return JSONValue.object(body).jsonData()
    }

    // MARK: - Requests

    func send(_ method: String, _ path: String, body: Data?) async throws(SyncError) -> (Data, Int) {
        var request = URLRequest(url: url.appendingPathComponent(path), timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let outcome: Result<(Data, Int), SyncError> = await withCheckedContinuation { continuation in
            let task = URLSession.shared.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(
                        returning: .failure(.transport("\(method) \(path): \(error.localizedDescription)")))
                } else {
                    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                    continuation.resume(returning: .success((data ?? Data(), status)))
                }
            }
            task.resume()
        }
        return try outcome.get()
    }

    /// The error of a refused request, with the server's problem detail when it gave one.
    static func refused(_ status: Int, _ data: Data, _ what: String) -> SyncError {
        let problem = try? JSONValue(json: data).objectValue
        let detail = problem?["detail"]?.stringValue ?? problem?["title"]?.stringValue ?? ""
        let reason: String
        switch status {
        case 401: reason = "the server does not know this token"
        case 403:
            return .transport(
                "\(what): the server refuses this store's replica id"
                    + (detail.isEmpty ? "" : " (\(detail))")
                    + "; sync again with a new id: `readingprefs sync --new-replica` "
                    + "(SyncOptions.newReplica), which keeps every edit")
        default: reason = "the server answered \(status)"
        }
        return .transport("\(what): \(reason)" + (detail.isEmpty ? "" : " (\(detail))"))
    }
}

extension ReplicaTransport where Self == ServerTransport {
    /// A reading back end at `url`, reached with an account's bearer token.
    ///
    /// ```swift
    /// try await store.sync(with: .server(URL(string: "https://reader.example.com")!, token: token))
    /// ```
    ///
    /// - Parameters:
    ///   - url: The server's base address.
    ///   - token: The account's bearer token.
    /// - Returns: The transport.
    public static func server(_ url: URL, token: String) -> ServerTransport {
        ServerTransport(url: url, token: token)
    }
}
