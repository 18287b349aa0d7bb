import GRDBCipher

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
