import CSQLCipher
import Foundation

/// How the dump formats read the current row of a statement.
extension Statement {
    /// Calls `body` with the index and name of each column a dump prints:
    /// all but GRDB's own columns, whose names start with `grdb_`.
    func forEachDumpedColumn(_ body: (_ index: CInt, _ name: String) throws -> Void) rethrows {
        let names = columnNames
        for offset in names.indices where !names[offset].hasPrefix("grdb_") {
            try body(CInt(offset), names[offset])
        }
    }

    /// The storage class of a column of the current row (`SQLITE_INTEGER`, ...).
    func dumpedType(at index: CInt) -> CInt {
        sqlite3_column_type(sqliteStatement, index)
    }

    /// A column as text, as SQLite converts it: like a C string, the text
    /// ends at the first NUL byte, and invalid UTF-8 is repaired.
    func dumpedText(at index: CInt) -> String {
        guard let text = sqlite3_column_text(sqliteStatement, index) else { return "" }
        return String(cString: text)
    }

    /// A column as an integer.
    func dumpedInt64(at index: CInt) -> Int64 {
        sqlite3_column_int64(sqliteStatement, index)
    }

    /// A column as a double.
    func dumpedDouble(at index: CInt) -> Double {
        sqlite3_column_double(sqliteStatement, index)
    }

    /// A column as bytes.
    func dumpedBlob(at index: CInt) -> Data {
        Data(unsafeColumnBlob: sqliteStatement, index: index)
    }

    /// A column as the `list` and `line` formats print it: numbers as Swift
    /// prints them, text and blobs as text, NULL as `nullValue`.
    func rawDumpText(at index: CInt, nullValue: String) -> String {
        switch dumpedType(at: index) {
        case SQLITE_INTEGER:
            return String(dumpedInt64(at: index))
        case SQLITE_FLOAT:
            return String(dumpedDouble(at: index))
        case SQLITE_TEXT, SQLITE_BLOB:
            return dumpedText(at: index)
        default:
            return nullValue
        }
    }

    /// A column as SQLite's `quote()` prints it: `NULL`, `1`, `1.5`,
    /// `'it''s'`, `X'0A1B'`.
    func dumpedSQLLiteral(at index: CInt) -> String {
        if dumpedType(at: index) == SQLITE_NULL { return "NULL" }
        let value = sqlite3_column_value(sqliteStatement, index)
        return database.sqlQuote(
            bind: { sqlite3_bind_value($0, 1, value) },
            fallback: { DatabaseValue(sqliteStatement: sqliteStatement, index: index).sqlLiteral })
    }
}

extension Database {
    /// `text` as an SQL string literal, as SQLite's `quote()` prints it.
    func sqlQuote(_ text: String) -> String {
        sqlQuote(
            bind: { text.databaseValue.bind(to: $0, at: 1) },
            fallback: { text.databaseValue.sqlLiteral })
    }

    /// Runs SQLite's `quote()` on the value that `bind` binds to parameter 1.
    ///
    /// SQLite knows best how to print its values (reals, above all), so it
    /// does the quoting. Should it fail (out of memory, an interrupt), the
    /// dump goes on with `fallback`, and the dumped statement reports the
    /// error at its next step.
    fileprivate func sqlQuote(bind: (SQLiteStatement) -> CInt, fallback: () -> String) -> String {
        guard let quote = try? cachedStatement(sql: "SELECT QUOTE(?)") else { return fallback() }
        let handle = quote.sqliteStatement
        defer {
            // The statement is the connection's cached one, which the user
            // may hold too: the dumped value does not stay bound (it may be
            // secret), and the statement's own arguments bind again at its
            // next run.
            quote.reset()
            sqlite3_clear_bindings(handle)
            quote.argumentsAreBound = false
        }
        guard bind(handle) == SQLITE_OK,
              sqlite3_step(handle) == SQLITE_ROW,
              let text = sqlite3_column_text(handle, 0)
        else { return fallback() }
        return String(cString: text)
    }
}
