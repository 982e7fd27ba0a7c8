import Foundation
import ReadingPreferencesStore

/// Settings and CSS answers this instance has built, reused while the documents they were built
/// from are unchanged.
///
/// An answer is a pure function of the documents the store loaded for it (each named with the
/// version it had, or as absent), the publication context (from the request's query) and the
/// schema. Every request still
/// reads the current versions of the documents it would read (one query, with its token's), and
/// an answer is served only when each document it depends on has the same version now, so a
/// write through any instance, a sync, or a deletion is seen at once: the storage gives every
/// save a new random version. An answer whose making loaded a document outside the prefetched
/// set (a profile's), listed names, or wrote anything (a damaged document set aside) is not kept.
///
/// The cache is bounded by the bytes it holds: when an answer would take it over its budget, it
/// starts again empty. At most ``budget`` bytes, whatever the requests.
final class AnswerCache: @unchecked Sendable {
    /// What an answer answers.
    struct Key: Hashable {
        enum Kind: Hashable {
            case settings
            case css
        }
        var kind: Kind
        var user: String
        var configurable: String
        var publication: String
        /// The request's query, which holds its publication context: a query another request
        /// writes differently (parameters in another order) is kept apart, never confused.
        var query: String
    }

    /// A kept answer.
    struct Answer {
        /// The version of each document it was built from (`nil`: the document was absent).
        var dependencies: [StorageLocation: StorageVersion?]
        var etag: String
        /// The body, or `nil` when only the ETag was computed (a 304 answered from scratch).
        var body: Data?

    }

    /// What an answer and its key take, roughly, in bytes.
    static func cost(_ key: Key, _ answer: Answer) -> Int {
        (answer.body?.count ?? 0) + answer.etag.utf8.count + 64 * answer.dependencies.count + 256
            + key.user.utf8.count + key.publication.utf8.count + key.query.utf8.count
    }

    /// The most bytes the cache holds.
    let budget: Int
    private let lock = NSLock()
    private var answers: [Key: Answer] = [:]
    private var used = 0

    init(budget: Int = 32 << 20) {
        self.budget = budget
    }

    /// The answer kept for `key`, when every document it depends on has now (`versions`: each
    /// document read, with its version or `nil` when absent) the version it was built from.
    func answer(for key: Key, versions: [StorageLocation: StorageVersion?]) -> Answer? {
        guard let answer = lock.withLock({ answers[key] }) else { return nil }
        for (location, version) in answer.dependencies {
            guard let current = versions[location], current == version else { return nil }
        }
        return answer
    }

    /// Keeps an answer built with `storage`, when its making only read prefetched documents.
    func keep(_ key: Key, etag: String, body: Data?, builtWith storage: PrefetchedStorage) {
        guard let dependencies = storage.dependencies else { return }
        let answer = Answer(dependencies: dependencies, etag: etag, body: body)
        let size = Self.cost(key, answer)
        guard size <= budget else { return }
        lock.withLock {
            if let old = answers[key] { used -= Self.cost(key, old) }
            if used + size > budget {
                answers.removeAll(keepingCapacity: true)
                used = 0
            }
            answers[key] = answer
            used += size
        }
    }
}
