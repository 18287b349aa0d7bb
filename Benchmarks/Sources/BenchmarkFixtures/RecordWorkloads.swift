// Shared with Benchmarks/SideBySide, which builds this file against GRDB 7.10 too.
#if SIDE_BY_SIDE_GRDB
import GRDB
#else
import GRDBCipher
#endif

/// A record of the `ints` table with a hand-written `init(row:)` that reads
/// its columns by name, as GRDB's documentation writes records.
public struct IntsRecord: FetchableRecord, TableRecord, Sendable {
    public static let databaseTableName = "ints"
    public var c0, c1, c2, c3, c4, c5, c6, c7, c8, c9: Int64

    public init(row: Row) throws {
        c0 = row["c0"]
        c1 = row["c1"]
        c2 = row["c2"]
        c3 = row["c3"]
        c4 = row["c4"]
        c5 = row["c5"]
        c6 = row["c6"]
        c7 = row["c7"]
        c8 = row["c8"]
        c9 = row["c9"]
    }

    /// A checksum, so that the optimizer keeps the decoding.
    public var sum: Int64 { c0 &+ c1 &+ c2 &+ c3 &+ c4 &+ c5 &+ c6 &+ c7 &+ c8 &+ c9 }
}

/// The same record, decoded by its `Decodable` conformance.
public struct IntsCodableRecord: FetchableRecord, TableRecord, Decodable, Sendable {
    public static let databaseTableName = "ints"
    public var c0, c1, c2, c3, c4, c5, c6, c7, c8, c9: Int64

    /// A checksum, so that the optimizer keeps the decoding.
    public var sum: Int64 { c0 &+ c1 &+ c2 &+ c3 &+ c4 &+ c5 &+ c6 &+ c7 &+ c8 &+ c9 }
}

extension GRDBCipherWorkloads {
    /// Workload 10a: 100,000 records decoded by `init(row:)`, by column name.
    public static func fetchRecords(_ db: Database) throws -> Int64 {
        let records = try IntsRecord.fetchCursor(db)
        var sum: Int64 = 0
        while let record = try records.next() {
            sum &+= record.sum
        }
        return sum
    }

    /// Workload 10b: 100,000 records decoded by `Decodable`.
    public static func fetchDecodableRecords(_ db: Database) throws -> Int64 {
        let records = try IntsCodableRecord.fetchCursor(db)
        var sum: Int64 = 0
        while let record = try records.next() {
            sum &+= record.sum
        }
        return sum
    }
}

/// A persistable record of the `ints` table with a hand-written `encode(to:)`.
public struct IntsPersistableRecord: PersistableRecord, Sendable {
    public static let databaseTableName = "ints"
    public var c0, c1, c2, c3, c4, c5, c6, c7, c8, c9: Int64

    public init(row: Int64) {
        (c0, c1, c2, c3, c4) = (row, row &+ 1, row &+ 2, row &+ 3, row &+ 4)
        (c5, c6, c7, c8, c9) = (row &+ 5, row &+ 6, row &+ 7, row &+ 8, row &+ 9)
    }

    public func encode(to container: inout PersistenceContainer) throws {
        container["c0"] = c0
        container["c1"] = c1
        container["c2"] = c2
        container["c3"] = c3
        container["c4"] = c4
        container["c5"] = c5
        container["c6"] = c6
        container["c7"] = c7
        container["c8"] = c8
        container["c9"] = c9
    }
}

/// The same record, encoded by its `Encodable` conformance.
public struct IntsEncodableRecord: PersistableRecord, Encodable, Sendable {
    public static let databaseTableName = "ints"
    public var c0, c1, c2, c3, c4, c5, c6, c7, c8, c9: Int64

    public init(row: Int64) {
        (c0, c1, c2, c3, c4) = (row, row &+ 1, row &+ 2, row &+ 3, row &+ 4)
        (c5, c6, c7, c8, c9) = (row &+ 5, row &+ 6, row &+ 7, row &+ 8, row &+ 9)
    }
}

extension GRDBCipherWorkloads {
    /// Workload 11a: 20,000 records inserted through `encode(to:)`, in one transaction.
    public static func insertRecords(_ db: Database) throws {
        try db.inTransaction {
            for row in 0..<Int64(Fixtures.insertCount) {
                try IntsPersistableRecord(row: row).insert(db)
            }
            return .commit
        }
    }

    /// Workload 11b: 20,000 records inserted through `Encodable`, in one transaction.
    public static func insertEncodableRecords(_ db: Database) throws {
        try db.inTransaction {
            for row in 0..<Int64(Fixtures.insertCount) {
                try IntsEncodableRecord(row: row).insert(db)
            }
            return .commit
        }
    }
}
