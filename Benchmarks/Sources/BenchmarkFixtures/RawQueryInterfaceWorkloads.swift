import CSQLCipherRaw

// Workloads 12 and 13 in C: the SQL that the query-interface requests of
// QueryInterfaceWorkloads.swift generate.

extension RawWorkloads {
    /// Workload 12, in C: the SQL of the request, each row read into a
    /// struct and kept in an array, as `fetchAll` does.
    public static func fetchFilteredStructs(_ connection: RawConnection) -> Int64 {
        let statement = connection.prepare(#"SELECT * FROM "ints" WHERE "c0" >= ? ORDER BY "c0""#)
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int64(statement, 1, 0)
        var rows: [IntsRow] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append(IntsRow(
                c0: sqlite3_column_int64(statement, 0), c1: sqlite3_column_int64(statement, 1),
                c2: sqlite3_column_int64(statement, 2), c3: sqlite3_column_int64(statement, 3),
                c4: sqlite3_column_int64(statement, 4), c5: sqlite3_column_int64(statement, 5),
                c6: sqlite3_column_int64(statement, 6), c7: sqlite3_column_int64(statement, 7),
                c8: sqlite3_column_int64(statement, 8), c9: sqlite3_column_int64(statement, 9)))
        }
        var sum: Int64 = 0
        for row in rows { sum &+= row.sum }
        return sum
    }

    /// Workload 13, in C: one statement prepared once, bound, stepped,
    /// read and reset for each lookup, in one read transaction as the
    /// library's `read` runs them (without it, each lookup would take and
    /// release the file lock, and check the file for changes).
    public static func fetchStructsByKey(_ connection: RawConnection) -> Int64 {
        let statement = connection.cachedStatement(#"SELECT * FROM "ints" WHERE "rowid" = ?"#)
        connection.execute("BEGIN")
        defer { connection.execute("COMMIT") }
        var sum: Int64 = 0
        for key in 0..<Int64(Fixtures.rowCount) {
            sqlite3_bind_int64(statement, 1, key % Int64(Fixtures.rowCount) + 1)
            if sqlite3_step(statement) == SQLITE_ROW {
                let row = IntsRow(
                    c0: sqlite3_column_int64(statement, 0), c1: sqlite3_column_int64(statement, 1),
                    c2: sqlite3_column_int64(statement, 2), c3: sqlite3_column_int64(statement, 3),
                    c4: sqlite3_column_int64(statement, 4), c5: sqlite3_column_int64(statement, 5),
                    c6: sqlite3_column_int64(statement, 6), c7: sqlite3_column_int64(statement, 7),
                    c8: sqlite3_column_int64(statement, 8), c9: sqlite3_column_int64(statement, 9))
                sum &+= row.sum
            }
            sqlite3_reset(statement)
        }
        return sum
    }
}
