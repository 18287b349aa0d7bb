import Foundation
import GRDBCipher

extension EncryptionCheck {
    /// Checks that the reference `sqlcipher` shell, keyed with `key` (given
    /// through its standard input, never its command line), reads from the
    /// database at `path` the same rows as GRDBCipher does for the query
    /// `sql`: a round trip through an independent implementation.
    ///
    /// Both sides run `sql` (one `SELECT`, or `VALUES`; give it an `ORDER
    /// BY`) and compare each value as SQLite's `quote()` renders it, so that
    /// integers, reals, text, blobs and NULL are told apart.
    ///
    /// ```swift
    /// try EncryptionCheck.sqlcipherShellReads(path, with: key, sameRowsAs: "SELECT * FROM player ORDER BY id")
    /// ```
    ///
    /// - throws: ``Unavailable`` when the shell is not installed; a
    ///   ``Failure`` when a side cannot run the query, or when the rows
    ///   differ (it shows the first row that differs on each side).
    public static func sqlcipherShellReads(_ path: String, with key: TestKey, sameRowsAs sql: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw Failure("\(path) does not exist: there is nothing to read")
        }
        let query = sql.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: ";")))
        let expected: [[String]]
        let quotedQuery: String
        do {
            let dbQueue = try DatabaseQueue(path: path, configuration: key.configuration)
            defer { try? dbQueue.close() }
            (quotedQuery, expected) = try dbQueue.read { db in
                let columnCount = try db.makeStatement(sql: query).columnCount
                guard columnCount > 0 else {
                    throw Failure("the query returns no column: give a SELECT (\(query))")
                }
                // Columns renamed c1...cN: the query's own names may repeat.
                let columns = (1...columnCount).map { "c\($0)" }
                let quotedQuery = "WITH q(\(columns.joined(separator: ", "))) AS (\(query)) SELECT "
                    + columns.map { "hex(quote(\($0)))" }.joined(separator: ", ") + " FROM q"
                let rows = try Row.fetchAll(db, sql: quotedQuery).map { row in
                    (0..<row.count).map { index in row[index] as String? ?? "" }
                }
                return (quotedQuery, rows)
            }
        } catch let failure as Failure {
            throw failure
        } catch let error as DatabaseError {
            throw Failure("GRDBCipher cannot read \(path) with the key: \(KeyOutcome.describe(error)) (query: \(query))")
        }
        let output = try SQLCipherShell.run(path, key: key, script: ".headers off\n.mode list\n.separator |\n\(quotedQuery);")
        let shellRows = output.split(separator: "\n", omittingEmptySubsequences: true).map {
            $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        }
        guard shellRows != expected else { return }
        let index = zip(expected, shellRows).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(expected.count, shellRows.count)
        func show(_ rows: [[String]]) -> String {
            index < rows.count ? "(" + rows[index].map(unhex).joined(separator: ", ") + ")" : "no row"
        }
        throw Failure(
            "the sqlcipher shell read \(shellRows.count) rows from \(path), GRDBCipher \(expected.count); "
                + "row \(index + 1): GRDBCipher read \(show(expected)), the shell read \(show(shellRows)) (query: \(query))")
    }

    /// The text of a value that `hex(quote(...))` encoded.
    private static func unhex(_ hex: String) -> String {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex),
              let byte = UInt8(hex[index..<next], radix: 16)
        {
            bytes.append(byte)
            index = next
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
