import Foundation
import GRDBCipher

/// Rows as a table, like the `table` mode of the `sqlite3` shell:
///
/// ```
/// +----+--------+
/// | id | name   |
/// +----+--------+
/// | 1  | Arthur |
/// +----+--------+
/// ```
///
/// NULL prints as `NULL`, a blob as an SQL literal (`X'0102'`) and text as
/// is, with line breaks shown as `\n`. A statement without rows prints
/// nothing. The rows are kept until the last one, to size the columns.
struct TableDumpFormat: DumpFormat {
    private var columnNames: [String] = []
    private var rows: [[String]] = []

    mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        if columnNames.isEmpty { columnNames = statement.columnNames }
        rows.append((0..<CInt(statement.columnCount)).map { index in
            Self.text(DatabaseValue(sqliteStatement: statement.sqliteStatement, index: index))
        })
    }

    mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        guard !rows.isEmpty else { return }
        var widths = columnNames.map(\.count)
        for row in rows {
            for (index, value) in row.enumerated() { widths[index] = max(widths[index], value.count) }
        }
        let rule = "+" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "+") + "+"
        func line(_ values: [String]) -> String {
            "| " + zip(values, widths).map { value, width in
                value + String(repeating: " ", count: width - value.count)
            }.joined(separator: " | ") + " |"
        }
        var output = [rule, line(columnNames), rule]
        output += rows.map(line)
        output.append(rule)
        stream.write(output.joined(separator: "\n") + "\n")
        rows = []
    }

    static func text(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null:
            return "NULL"
        case let .int64(integer):
            return String(integer)
        case let .double(double):
            return String(double)
        case let .string(string):
            return string.replacingOccurrences(of: "\n", with: "\\n")
        case let .blob(data):
            return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}
