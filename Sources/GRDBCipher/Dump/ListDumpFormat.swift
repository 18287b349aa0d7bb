import CSQLCipher

/// A format that prints one line per row, with the raw values, like the
/// `list` mode of the `sqlite3` command-line tool.
///
/// Values are separated by `|` by default. Text and blobs print as text (up
/// to a first NUL byte, with invalid UTF-8 repaired), NULL as an empty string.
///
/// ```swift
/// // Arthur|500
/// // Barbara|1000
/// try db.dumpSQL("SELECT name, score FROM player", format: .list())
/// ```
public struct ListDumpFormat: Sendable {
    /// Whether the column names are printed before the first row.
    public var header: Bool

    /// The text between two values of a row.
    public var separator: String

    /// The text printed for NULL.
    public var nullValue: String

    private var hasPrintedRow = false

    /// Creates the format.
    ///
    /// - parameters:
    ///   - header: Whether the column names are printed before the first row.
    ///   - separator: The text between two values of a row.
    ///   - nullValue: The text printed for NULL.
    public init(header: Bool = false, separator: String = "|", nullValue: String = "") {
        self.header = header
        self.separator = separator
        self.nullValue = nullValue
    }
}

extension ListDumpFormat: DumpFormat {
    /// Prints the current row on one line.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        var printed = hasPrintedRow
        defer { hasPrintedRow = printed }
        stream.writeSeparatedRow(of: statement, header: header, separator: separator, hasPrintedRow: &printed) { index in
            statement.rawDumpText(at: index, nullValue: nullValue)
        }
    }

    /// Gets ready for the next statement.
    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        hasPrintedRow = false
    }
}

extension DumpFormat where Self == ListDumpFormat {
    /// A format that prints one line per row, with the raw values: see
    /// ``ListDumpFormat``.
    ///
    /// ```swift
    /// // Arthur|500
    /// // Barbara|1000
    /// try db.dumpSQL("SELECT name, score FROM player", format: .list())
    /// ```
    ///
    /// - parameters:
    ///   - header: Whether the column names are printed before the first row.
    ///   - separator: The text between two values of a row.
    ///   - nullValue: The text printed for NULL.
    public static func list(header: Bool = false, separator: String = "|", nullValue: String = "") -> Self {
        ListDumpFormat(header: header, separator: separator, nullValue: nullValue)
    }
}
