import CSQLCipherRaw

/// The workloads through the SQLite C API. Each reads every column it is
/// asked to and binds every value, like the GRDBCipher side.
public enum RawWorkloads {
    /// Workload 1: every value of every row, by column index.
    public static func fetchByIndex(_ connection: RawConnection) -> Int64 {
        let statement = connection.prepare("SELECT * FROM ints")
        defer { sqlite3_finalize(statement) }
        var sum: Int64 = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            for index in 0..<CInt(10) {
                sum &+= sqlite3_column_int64(statement, index)
            }
        }
        return sum
    }

    /// Workload 2: by column name. C code resolves the names to indexes once
    /// per statement, then reads by index.
    public static func fetchByName(_ connection: RawConnection) -> Int64 {
        let statement = connection.prepare("SELECT * FROM ints")
        defer { sqlite3_finalize(statement) }
        let names = (0..<10).map { "c\($0)" }
        let indexes: [CInt] = names.map { name in
            (0..<sqlite3_column_count(statement)).first {
                sqlite3_stricmp(sqlite3_column_name(statement, $0), name) == 0
            }!
        }
        var sum: Int64 = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            for index in indexes {
                sum &+= sqlite3_column_int64(statement, index)
            }
        }
        return sum
    }

    /// Workload 3: each row decoded into a struct.
    public static func fetchStructs(_ connection: RawConnection) -> Int64 {
        let statement = connection.prepare("SELECT * FROM ints")
        defer { sqlite3_finalize(statement) }
        var sum: Int64 = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            let row = IntsRow(
                c0: sqlite3_column_int64(statement, 0), c1: sqlite3_column_int64(statement, 1),
                c2: sqlite3_column_int64(statement, 2), c3: sqlite3_column_int64(statement, 3),
                c4: sqlite3_column_int64(statement, 4), c5: sqlite3_column_int64(statement, 5),
                c6: sqlite3_column_int64(statement, 6), c7: sqlite3_column_int64(statement, 7),
                c8: sqlite3_column_int64(statement, 8), c9: sqlite3_column_int64(statement, 9))
            sum &+= row.sum
        }
        return sum
    }

    /// Workload 4: 20,000 rows × 10 columns in one transaction, with one
    /// prepared statement reset between rows.
    public static func insert(_ connection: RawConnection) {
        connection.execute("BEGIN")
        let statement = connection.prepare("INSERT INTO ints VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for row in 0..<Int64(Fixtures.insertCount) {
            for index in 0..<CInt(10) {
                sqlite3_bind_int64(statement, index + 1, row &+ Int64(index))
            }
            precondition(sqlite3_step(statement) == SQLITE_DONE)
            sqlite3_reset(statement)
        }
        sqlite3_finalize(statement)
        connection.execute("COMMIT")
    }

    /// Workload 6: open a database with a passphrase or raw key, and run its first query.
    public static func openAndQuery(path: String, key: String) -> Int64 {
        let connection = RawConnection(path: path, key: key)
        let statement = connection.prepare("SELECT count(*) FROM sqlite_master")
        defer { sqlite3_finalize(statement) }
        precondition(sqlite3_step(statement) == SQLITE_ROW)
        return sqlite3_column_int64(statement, 0)
    }
}
