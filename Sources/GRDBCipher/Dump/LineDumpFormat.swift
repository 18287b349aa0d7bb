/// A format that prints one line per value, `column = value`, with a blank
/// line between rows, like the `line` mode of the `sqlite3` command-line tool.
///
/// Column names are aligned on the right. Text and blobs print as text (up to
/// a first NUL byte, with invalid UTF-8 repaired), NULL as an empty string.
///
/// ```swift
/// //  name = Arthur
/// // score = 500
/// //
/// //  name = Barbara
/// // score = 1000
/// try db.dumpSQL("SELECT name, score FROM player", format: .line())
/// ```
public struct LineDumpFormat: Sendable {
    /// The text printed for NULL.
    public var nullValue: String

    private var hasPrintedRow = false

    /// Creates the format.
    ///
    /// - parameter nullValue: The text printed for NULL.
    public init(nullValue: String = "") {
        self.nullValue = nullValue
    }
}

extension LineDumpFormat: DumpFormat {
    /// Prints the current row, one line per column.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        var lines: [(name: String, value: String)] = []
        statement.forEachDumpedColumn { index, name in
            lines.append((name, statement.rawDumpText(at: index, nullValue: nullValue)))
        }
        guard let width = lines.map(\.name.count).max() else { return }
        if hasPrintedRow { stream.write("\n") }
        hasPrintedRow = true
        for line in lines {
            stream.write(String(repeating: " ", count: width - line.name.count))
            stream.write(line.name)
            stream.write(" = ")
            stream.writeLine(line.value)
        }
    }

    /// Asks for a blank line before what follows the rows, if there were any.
    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        if hasPrintedRow { stream.margin() }
        hasPrintedRow = false
    }
}

extension DumpFormat where Self == LineDumpFormat {
    /// A format that prints one line per value, `column = value`: see
    /// ``LineDumpFormat``.
    ///
    /// ```swift
    /// //  name = Arthur
    /// // score = 500
    /// try db.dumpSQL("SELECT name, score FROM player", format: .line())
    /// ```
    ///
    /// - parameter nullValue: The text printed for NULL.
    public static func line(nullValue: String = "") -> Self {
        LineDumpFormat(nullValue: nullValue)
    }
}
