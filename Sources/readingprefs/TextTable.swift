/// A plain-text table with aligned columns, for terminals.
struct TextTable {
    /// The column titles.
    var header: [String]
    /// The rows, each with one cell per column.
    var rows: [[String]] = []

    /// The table as lines: the header, a rule, then the rows; columns are separated by two
    /// spaces and trailing spaces are trimmed.
    var lines: [String] {
        var widths = header.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() where column < widths.count {
                widths[column] = max(widths[column], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            var text = ""
            for (column, cell) in cells.enumerated() {
                if column > 0 { text += "  " }
                text += cell
                if column < widths.count - 1 {
                    text += String(repeating: " ", count: max(widths[column] - cell.count, 0))
                }
            }
            while text.last == " " { text.removeLast() }
            return text
        }
        let rule = widths.map { String(repeating: "-", count: $0) }
        return [line(header), line(rule)] + rows.map(line)
    }
}
