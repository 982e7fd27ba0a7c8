/// Finds the name a person probably meant, for "did you mean" hints.
enum Suggestion {
    /// The candidate closest to `name` (case-insensitive, fewest edits) among those that share a
    /// four-letter prefix with it, start with it, or are within two edits of it.
    static func closest(to name: String, among candidates: [String]) -> String? {
        guard !name.isEmpty else { return nil }
        let lowered = name.lowercased()
        let scored = candidates.compactMap { candidate -> (String, Int)? in
            let other = candidate.lowercased()
            let distance = editDistance(other, lowered)
            let related =
                other.hasPrefix(lowered) || lowered.hasPrefix(other) || other.prefix(4) == lowered.prefix(4)
                || distance <= 2
            return related ? (candidate, distance) : nil
        }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// The Levenshtein distance between two strings.
    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            previous = current
        }
        return previous[b.count]
    }
}
