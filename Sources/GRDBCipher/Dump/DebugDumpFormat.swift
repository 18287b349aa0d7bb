import CSQLCipher
import Foundation

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
public struct DebugDumpFormat: Sendable {
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

extension DebugDumpFormat: DumpFormat {
    /// Prints the current row on one line.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        var printed = hasPrintedRow
        defer { hasPrintedRow = printed }
        stream.writeSeparatedRow(of: statement, header: header, separator: separator, hasPrintedRow: &printed) { index in
            text(of: statement, at: index)
        }
    }

    /// Gets ready for the next statement.
    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        hasPrintedRow = false
    }

    private func text(of statement: Statement, at index: CInt) -> String {
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

extension DumpFormat where Self == DebugDumpFormat {
    /// A format that prints one line per row, for reading while debugging:
    /// see ``DebugDumpFormat``.
    ///
    /// ```swift
    /// // Arthur|500
    /// // Barbara|1000
    /// try db.dumpSQL("SELECT name, score FROM player", format: .debug())
    /// ```
    ///
    /// - parameters:
    ///   - header: Whether the column names are printed before the first row.
    ///   - separator: The text between two values of a row.
    ///   - nullValue: The text printed for NULL.
    public static func debug(header: Bool = false, separator: String = "|", nullValue: String = "") -> Self {
        DebugDumpFormat(header: header, separator: separator, nullValue: nullValue)
    }
}
