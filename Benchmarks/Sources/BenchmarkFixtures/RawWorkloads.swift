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

    /// Workload 4: 20,000 rows × 10 columns in one transaction, with a
    /// statement prepared once per connection and reset between rows.
    public static func insert(_ connection: RawConnection) {
        connection.execute("BEGIN")
        let statement = connection.cachedStatement("INSERT INTO ints VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for row in 0..<Int64(Fixtures.insertCount) {
            for index in 0..<CInt(10) {
                sqlite3_bind_int64(statement, index + 1, row &+ Int64(index))
            }
            precondition(sqlite3_step(statement) == SQLITE_DONE)
            sqlite3_reset(statement)
        }
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

    /// Workload 8a: copy every page of a database into another one with the
    /// same key and settings (the backup API, in one step).
    public static func backup(from source: RawConnection, to destination: RawConnection) {
        let backup = sqlite3_backup_init(destination.handle, "main", source.handle, "main")
        precondition(backup != nil, String(cString: sqlite3_errmsg(destination.handle)))
        precondition(sqlite3_backup_step(backup, -1) == SQLITE_DONE)
        precondition(sqlite3_backup_finish(backup) == SQLITE_OK)
    }

    /// Workload 8b: export a database to a new file encrypted with another
    /// passphrase (`sqlcipher_export` in a transaction), then open the copy
    /// and read it once, as a careful caller would before trusting it.
    public static func export(from source: RawConnection, to path: String, key: String) {
        source.execute("ATTACH DATABASE '\(path)' AS copy KEY '\(key)'")
        source.execute("BEGIN; SELECT sqlcipher_export('copy'); COMMIT")
        source.execute("DETACH DATABASE copy")
        blackHole(openAndQuery(path: path, key: key))
    }
}

/// Keeps a value alive for the optimizer.
@inline(never)
private func blackHole<T>(_ value: T) {}
