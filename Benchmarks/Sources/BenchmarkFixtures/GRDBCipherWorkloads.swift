// Shared with Benchmarks/SideBySide, which builds this file against GRDB 7.10 too.
#if SIDE_BY_SIDE_GRDB
import GRDB
#else
import GRDBCipher
#endif

/// The workloads through GRDBCipher's public API.
public enum GRDBCipherWorkloads {
    /// Workload 1: every value of every row, by column index.
    public static func fetchByIndex(_ db: Database) throws -> Int64 {
        let rows = try Row.fetchCursor(db, sql: "SELECT * FROM ints")
        var sum: Int64 = 0
        while let row = try rows.next() {
            for index in 0..<10 {
                sum &+= row[index] as Int64
            }
        }
        return sum
    }

    /// Workload 2: every value of every row, by column name.
    public static func fetchByName(_ db: Database) throws -> Int64 {
        let rows = try Row.fetchCursor(db, sql: "SELECT * FROM ints")
        var sum: Int64 = 0
        while let row = try rows.next() {
            sum &+= row["c0"] as Int64
            sum &+= row["c1"] as Int64
            sum &+= row["c2"] as Int64
            sum &+= row["c3"] as Int64
            sum &+= row["c4"] as Int64
            sum &+= row["c5"] as Int64
            sum &+= row["c6"] as Int64
            sum &+= row["c7"] as Int64
            sum &+= row["c8"] as Int64
            sum &+= row["c9"] as Int64
        }
        return sum
    }

    /// Workload 3: each row decoded into a struct (through `Row` until records exist).
    public static func fetchStructs(_ db: Database) throws -> Int64 {
        let rows = try Row.fetchCursor(db, sql: "SELECT * FROM ints")
        var sum: Int64 = 0
        while let row = try rows.next() {
            let value = IntsRow(
                c0: row[0], c1: row[1], c2: row[2], c3: row[3], c4: row[4],
                c5: row[5], c6: row[6], c7: row[7], c8: row[8], c9: row[9])
            sum &+= value.sum
        }
        return sum
    }

    /// Workload 4: 20,000 rows × 10 columns in one transaction, with a cached
    /// statement and array-literal arguments, as GRDB code writes it.
    public static func insert(_ db: Database) throws {
        try db.inTransaction {
            let statement = try db.cachedStatement(sql: "INSERT INTO ints VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            for row in 0..<Int64(Fixtures.insertCount) {
                try statement.execute(arguments: [
                    row, row &+ 1, row &+ 2, row &+ 3, row &+ 4, row &+ 5, row &+ 6, row &+ 7, row &+ 8, row &+ 9,
                ])
            }
            return .commit
        }
    }

    #if !SIDE_BY_SIDE_GRDB
    /// Workload 4, with `execute(values:)`: each value keeps its type, so no
    /// array of `any DatabaseValueConvertible` is built and released per row.
    public static func insertValues(_ db: Database) throws {
        try db.inTransaction {
            let statement = try db.cachedStatement(sql: "INSERT INTO ints VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            for row in 0..<Int64(Fixtures.insertCount) {
                try statement.execute(
                    values: row, row &+ 1, row &+ 2, row &+ 3, row &+ 4, row &+ 5, row &+ 6, row &+ 7, row &+ 8, row &+ 9)
            }
            return .commit
        }
    }
    #endif

    /// Workload 4, as GRDB documents bulk inserts: a prepared statement,
    /// `setUncheckedArguments` with an array literal, then `execute()`.
    public static func insertUnchecked(_ db: Database) throws {
        try db.inTransaction {
            let statement = try db.makeStatement(sql: "INSERT INTO ints VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            for row in 0..<Int64(Fixtures.insertCount) {
                statement.setUncheckedArguments([
                    row, row &+ 1, row &+ 2, row &+ 3, row &+ 4, row &+ 5, row &+ 6, row &+ 7, row &+ 8, row &+ 9,
                ])
                try statement.execute()
            }
            return .commit
        }
    }

    #if !SIDE_BY_SIDE_GRDB
    /// Workload 6: open a database with a passphrase (or a raw key
    /// specification, until raw keys have their own API) and run its first query.
    public static func openAndQuery(path: String, key: String) throws -> Int64 {
        var config = Configuration()
        config.passphrase = key
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        return try dbQueue.read { db in try Int64.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")! }
    }
    #endif
}
