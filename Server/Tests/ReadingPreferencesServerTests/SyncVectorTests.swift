import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReadingPreferences
import ReadingPreferencesConformance
import ReadingPreferencesStore
import Testing

@testable import ReadingPreferencesServer

/// The sync vectors' merges (`Specs/Conformance/sync/`), run through the server: each replica
/// file pushed to a fresh account, in order, then the server's state and documents compared with
/// what the vector expects. Reconciliation vectors (a local replica, a clock) test a device's
/// sync, not the server's merge, and are left to the library's runner.
@Suite("The sync vectors through the server")
struct SyncVectorTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Specs/Conformance/sync").path

    static let cases: [ConformanceEntry] = ConformanceRunner().loadCases(at: [folder]).filter { entry in
        guard case .success(let testCase) = entry.content, let merge = testCase.syncMerge else {
            return false
        }
        return merge.localReplica == nil && (merge.documents != nil || merge.preferences != nil)
    }

    @Test("the vector files are found")
    func found() { #expect(Self.cases.count >= 10, "\(Self.folder)") }

    // Replica ids belong to the first account that pushes with them, so the vectors (which
    // reuse ids) run on a fresh SQLite database each.
    @Test("each merge vector gives the expected documents", arguments: cases)
    func vector(_ entry: ConformanceEntry) async throws {
        guard case .success(let testCase) = entry.content, let merge = testCase.syncMerge else { return }
        // A vector with stamps beyond the server's future bound (Specs/Sync.md §4: 24 hours) tests the
        // pure merge; the server must ignore and report those entries instead.
        let bound = UInt64(Date().timeIntervalSince1970 * 1000) + 24 * 3600 * 1000
        let future = merge.replicas.flatMap { file in
            file.state.documents.values.flatMap { document in
                document.all.filter { $0.entry.stamp.time > bound }
            }
        }
        try await withServer(.sqlite) { client, token, _, _ in
            var ignored = 0
            for file in merge.replicas {
                let body = String(decoding: ServerTransport.pushBody(file.state), as: UTF8.self)
                let answer = try await client.send(.post, "/v1/sync/push", token: token, body: body)
                #expect(answer.status == .ok, "\(entry.label): \(answer.body)")
                ignored += answer.json?.objectValue?["ignored"]?.arrayValue?.count ?? 0
            }
            guard future.isEmpty else {
                #expect(ignored >= future.count, "\(entry.label): future entries not reported")
                return
            }
            let state = try ReplicaState.read(
                Data(try await client.send(.get, "/v1/sync/state", token: token).body.utf8)
            ).state
            if let documents = merge.documents {
                for (scope, expected) in documents {
                    #expect(state.documents[scope] == expected, "\(entry.label): \(scope)")
                }
                let extra = state.documents.keys.filter {
                    documents[$0] == nil && !(state.documents[$0]?.isEmpty ?? true)
                }
                #expect(extra.isEmpty, "\(entry.label): unexpected \(extra)")
            }
            for (scope, expected) in merge.preferences ?? [:] {
                let location = "/v1/\(scope.configurable)/preferences/" + Self.path(of: scope.layer)
                let answer = try await client.send(.get, location, token: token)
                let stored = answer.status == .notFound ? Preferences() : try Preferences(json: answer.body)
                #expect(stored == expected, "\(entry.label): \(scope) is \(answer.body)")
            }
        }
    }

    static func path(of layer: StoreLayer) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        switch layer {
        case .shared: return "shared"
        case .overrides: return "overrides"
        case .rules: return "rules"
        case .profile(let id):
            return "profiles/" + (id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id)
        case .publication(let id):
            return "publications/" + (id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id)
        case .deviceClass(let id): return "classes/" + id
        case .device: return "device"
        }
    }
}
