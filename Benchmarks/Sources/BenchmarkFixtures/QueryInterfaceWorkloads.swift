// Shared with Benchmarks/SideBySide, which builds this file against GRDB 7.10 too.
#if SIDE_BY_SIDE_GRDB
import GRDB
#else
import GRDBCipher
#endif

// Workloads 12 and 13: query-interface requests, against raw C loops that
// run the SQL the requests generate.

extension GRDBCipherWorkloads {
    /// Workload 12: the 100,000 records of a filtered, ordered request.
    public static func fetchFilteredRecords(_ db: Database) throws -> Int64 {
        let records = try IntsRecord
            .filter(Column("c0") >= 0)
            .order(Column("c0"))
            .fetchAll(db)
        var sum: Int64 = 0
        for record in records { sum &+= record.sum }
        return sum
    }

    /// Workload 13: 100,000 point lookups by primary key (the rowid of
    /// `ints`), each a `fetchOne(_:key:)`.
    public static func fetchRecordsByKey(_ db: Database) throws -> Int64 {
        var sum: Int64 = 0
        for key in 0..<Int64(Fixtures.rowCount) {
            if let record = try IntsRecord.fetchOne(db, key: key % Int64(Fixtures.rowCount) + 1) {
                sum &+= record.sum
            }
        }
        return sum
    }
}
