import CSQLCipher
import Foundation

/// A format that prints one line per row, its values separated by
/// `separator` (`|` by default), with an optional header of column names:
/// the common form of ``DebugDumpFormat`` and ``ListDumpFormat``, which
/// differ only in how a value prints (`Values`).
public struct SeparatedValuesDumpFormat<Values: DumpedValueText>: Sendable {
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

extension SeparatedValuesDumpFormat: DumpFormat {
    /// Prints the current row on one line.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        if !hasPrintedRow {
            hasPrintedRow = true
            if header { stream.writeLine(statement.columnNames.joined(separator: separator)) }
        }
        var isFirst = true
        statement.forEachDumpedColumn { index, _ in
            if !isFirst { stream.write(separator) }
            isFirst = false
            stream.write(Values.text(of: statement, at: index, nullValue: nullValue))
        }
        stream.write("\n")
    }

    /// Gets ready for the next statement.
    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        hasPrintedRow = false
    }
}

/// How a ``SeparatedValuesDumpFormat`` prints one value.
public protocol DumpedValueText: Sendable {
    /// The text of the value of column `index` of the statement's current
    /// row; `nullValue` for NULL.
    static func text(of statement: Statement, at index: CInt, nullValue: String) -> String
}

/// A format that prints one line per row, for reading while debugging.
///
/// Values are separated by `|` by default. Text prints as is, NULL as an
/// empty string, and a blob as text when it is valid UTF-8, as a UUID when it
/// is 16 bytes long, and as an SQL literal (`X'80'`) otherwise.
///
/// This format is for people, not programs: it may change, and it does not
/// tell a NULL from an empty string, or text from a blob.
///
/// ```swift
/// // Arthur|500
/// // Barbara|1000
/// try db.dumpSQL("SELECT name, score FROM player", format: .debug())
/// ```
public typealias DebugDumpFormat = SeparatedValuesDumpFormat<DebugValueText>

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
public typealias ListDumpFormat = SeparatedValuesDumpFormat<ListValueText>

/// The values of ``DebugDumpFormat``: text as is, a blob as text when it
/// is valid UTF-8, as a UUID when it is 16 bytes long, as an SQL literal
/// otherwise.
public enum DebugValueText: DumpedValueText {
    /// The value of column `index` as the debug format prints it;
    /// `nullValue` for NULL.
    public static func text(of statement: Statement, at index: CInt, nullValue: String) -> String {
        switch statement.dumpedType(at: index) {
        case SQLITE_INTEGER:
            return String(statement.dumpedInt64(at: index))
        case SQLITE_FLOAT:
            return String(statement.dumpedDouble(at: index))
        case SQLITE_TEXT:
            return statement.dumpedText(at: index)
        case SQLITE_BLOB:
            let data = statement.dumpedBlob(at: index)
            if let text = String(data: data, encoding: .utf8) {
                return text
            }
            if data.count == 16 {
                return data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }.uuidString
            }
            return DatabaseValue(storage: .blob(data)).sqlLiteral
        default:
            return nullValue
        }
    }
}

/// The values of ``ListDumpFormat``: raw, as the `sqlite3` tool prints them.
public enum ListValueText: DumpedValueText {
    /// The value of column `index` as the `sqlite3` tool's list mode
    /// prints it; `nullValue` for NULL.
    public static func text(of statement: Statement, at index: CInt, nullValue: String) -> String {
        statement.rawDumpText(at: index, nullValue: nullValue)
    }
}

extension DumpFormat where Self == DebugDumpFormat {
    /// A format that prints one line per row, for reading while debugging:
    /// see ``DebugDumpFormat``.
    ///
    /// - parameters:
    ///   - header: Whether the column names are printed before the first row.
    ///   - separator: The text between two values of a row.
    ///   - nullValue: The text printed for NULL.
    public static func debug(header: Bool = false, separator: String = "|", nullValue: String = "") -> Self {
        DebugDumpFormat(header: header, separator: separator, nullValue: nullValue)
    }
}

extension DumpFormat where Self == ListDumpFormat {
    /// A format that prints one line per row, with the raw values: see
    /// ``ListDumpFormat``.
    ///
    /// - parameters:
    ///   - header: Whether the column names are printed before the first row.
    ///   - separator: The text between two values of a row.
    ///   - nullValue: The text printed for NULL.
    public static func list(header: Bool = false, separator: String = "|", nullValue: String = "") -> Self {
        ListDumpFormat(header: header, separator: separator, nullValue: nullValue)
    }
}
