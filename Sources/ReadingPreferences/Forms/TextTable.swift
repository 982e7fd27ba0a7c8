/// A plain-text table with aligned columns, for terminals and logs.
package struct TextTable {
    /// One line of the table: a row of cells, or a heading printed as is across the columns.
    package enum Line {
        case cells([String])
        case heading(String)
    }

    /// The column titles.
    package var header: [String]
    /// The lines under the header.
    package var lines: [Line] = []

    /// Creates a table with its column titles.
    package init(header: [String]) {
        self.header = header
    }

    /// The table as text lines: the header, a rule, then the lines; columns are separated by two
    /// spaces, every column is as wide as its widest cell, and trailing spaces are trimmed.
    package var rendered: [String] {
        var widths = header.map(\.count)
        for case .cells(let cells) in lines {
            for (column, cell) in cells.enumerated() where column < widths.count {
                widths[column] = max(widths[column], cell.count)
            }
        }
        func render(_ cells: [String]) -> String {
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
        return [render(header), render(rule)]
            + lines.map { line in
                switch line {
                case .cells(let cells): return render(cells)
                case .heading(let heading): return heading
                }
            }
    }
}
