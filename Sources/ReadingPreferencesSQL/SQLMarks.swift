/// The placeholders of a statement's list of values: `?, ?, ?` for `IN (...)`, or a row's
/// placeholders repeated for a multi-row `VALUES`.
public enum SQLMarks {
    /// `count` times `mark`, separated by commas.
    ///
    /// ```swift
    /// SQLMarks.list(3)                 // "?, ?, ?"
    /// SQLMarks.list(2, of: "(?, ?)")   // "(?, ?), (?, ?)"
    /// ```
    ///
    /// - Parameters:
    ///   - count: How many.
    ///   - mark: One value's placeholders.
    /// - Returns: The list.
    public static func list(_ count: Int, of mark: String = "?") -> String {
        if mark == "?", count < short.count { return short[count] }
        return Array(repeating: mark, count: max(count, 0)).joined(separator: ", ")
    }

    /// The lists of a few `?`, made once (a request's reads name three or four scopes).
    private static let short = (0..<9).map { Array(repeating: "?", count: $0).joined(separator: ", ") }
}
