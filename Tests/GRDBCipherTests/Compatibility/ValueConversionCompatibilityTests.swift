import Foundation
import Testing
@testable import GRDBCipher

/// Value conversions that GRDB 7 code relies on.
@Suite struct ValueConversionCompatibilityTests {
    @Test func sqlCipherPragmasReadAsIntegers() throws {
        // SQLCipher's pragmas return their numbers as text.
        let dbQueue = try DatabaseQueue(configuration: keyedWithDefaultSettings("secret"))
        try dbQueue.read { db in
            #expect(try DatabaseValue.fetchOne(db, sql: "PRAGMA kdf_iter") == "256000".databaseValue)
            #expect(try Int.fetchOne(db, sql: "PRAGMA kdf_iter") == 256_000)
            #expect(try Int.fetchOne(db, sql: "PRAGMA cipher_page_size") == 4096)
            let rows = try Row.fetchCursor(db, sql: "PRAGMA kdf_iter")
            let cursorRow = try #require(try rows.next())
            #expect(cursorRow[0] as Int == 256_000)
        }
    }

    @Test func blobsDecodeAsStrings() throws {
        try inMemoryDatabase { db throws in
            // Fetch path: SQLite's own conversion.
            #expect(try String.fetchOne(db, sql: "SELECT CAST('héllo' AS BLOB)") == "héllo")
            // DatabaseValue path: the bytes as UTF-8.
            let row = try #require(try Row.fetchAll(db, sql: "SELECT CAST('héllo' AS BLOB) AS b").first)
            #expect(row["b"] as String == "héllo")
            #expect(String.fromDatabaseValue(Data([0xFF, 0xFE]).databaseValue) == nil)
        }
    }

    @Test func numbersDecodeAsStringsOnTheFetchPath() throws {
        try inMemoryDatabase { db throws in
            #expect(try String.fetchAll(db, sql: "VALUES (42), (1.5)") == ["42", "1.5"])
            #expect(String.fromDatabaseValue(42.databaseValue) == nil)
        }
    }

    @Test func numbersDecodeAsDataOnTheFetchPath() throws {
        try inMemoryDatabase { db throws in
            // As GRDB: the bytes SQLite gives for the column.
            #expect(try Data.fetchOne(db, sql: "SELECT 42") == Data("42".utf8))
            let rows = try Row.fetchCursor(db, sql: "SELECT 1.5 AS d")
            let row = try #require(try rows.next())
            #expect(row["d"] as Data == Data("1.5".utf8))
            // A copied row decodes its value: a number is not data.
            #expect(Data.fromDatabaseValue(42.databaseValue) == nil)
        }
    }

    @Test func realsDecodeAsDecimals() throws {
        try inMemoryDatabase { db throws in
            #expect(try Decimal.fetchOne(db, sql: "SELECT 2.5") == Decimal(2.5))
            let row = try #require(try Row.fetchAll(db, sql: "SELECT 2.5 AS d").first)
            #expect(row["d"] as Decimal == Decimal(2.5))
            #expect(Decimal.fromDatabaseValue(0.1.databaseValue) == Decimal(0.1))
        }
    }

    @Test func aMissingColumnDecodesAsNilIntoAnOptional() throws {
        try inMemoryDatabase { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS a"))
            #expect(try row.decode(Int?.self, forColumn: "missing") == nil)
            #expect(try row.decode(String?.self, forColumn: "missing") == nil)
            #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "missing") }
            let copied = row.copy()
            #expect(try copied.decode(Int?.self, forColumn: "missing") == nil)
        }
    }
}

@Suite struct MissingColumnTests {
    @Test func onlyOptionalsDecodeAMissingColumn() throws {
        try inMemoryDatabase { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS a"))
            // DatabaseValue decodes NULL, but a missing column is an error, as in GRDB.
            let error = #expect(throws: RowDecodingError.self) { try row.decode(DatabaseValue.self, forColumn: "missing") }
            #expect(error?.kind == .columnNotFound)
            #expect(try row.decode(DatabaseValue?.self, forColumn: "missing") == nil)
            #expect(row["missing"] as Int? == nil)
        }
    }
}

/// Behaviours found by the differential harness (`make compat`), which runs
/// the same programs against GRDB 7.10 and GRDBCipher.
@Suite("Differences found against GRDB itself")
struct DifferentialFindingsTests {
    @Test func databaseValueFetchOneReadsNullAsAValue() throws {
        try inMemoryDatabase { db throws in
            // GRDB: `Optional<DatabaseValue>` decodes NULL as `.null`, so
            // `DatabaseValue.fetchOne(...)!` does not crash on NULL.
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT NULL") == .some(.null))
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT 1 WHERE 0") == nil)
            #expect(try DatabaseValue.fetchAll(db, sql: "SELECT NULL") == [.null])
            // Other types still read NULL as nil.
            #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT NULL AS a"))
            let value: DatabaseValue? = row["a"]
            #expect(value == .some(.null))
            let int: Int? = row["a"]
            #expect(int == nil)
        }
    }

    @Test func aFailingOptionalIsNamedAsAnOptional() throws {
        try inMemoryDatabase { db throws in
            // Through the generic `fetchOne` (the fast path of a concrete
            // `Bool.fetchOne` reads 'true' as SQLite does, 0, as GRDB's).
            func fetchOne<T: DatabaseValueConvertible>(_ type: T.Type) throws -> T? {
                try T.fetchOne(db, sql: "SELECT 'true'")
            }
            let error = #expect(throws: RowDecodingError.self) { try fetchOne(Bool.self) }
            #expect(error?.description.hasPrefix("could not decode Optional<Bool> from database value") == true)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'true' AS flag"))
            let optional = #expect(throws: RowDecodingError.self) { try row.decode(Bool?.self, forColumn: "flag") }
            #expect(optional?.description.hasPrefix("could not decode Optional<Bool> from database value") == true)
            let plain = #expect(throws: RowDecodingError.self) { try row.decode(Bool.self, forColumn: "flag") }
            #expect(plain?.description.hasPrefix("could not decode Bool from database value") == true)
        }
    }

    @Test func aPoolSetsUpWALWithGRDBsStatements() throws {
        let dir = try TemporaryDirectory()
        let traced = LockedValue<[String]>([])
        var configuration = Configuration()
        configuration.passphrase = "wal secret"
        configuration.prepareDatabase { db in
            db.trace { event in traced.withLock { $0.append(event.description) } }
        }
        let dbPool = try DatabasePool(path: dir.path("wal.sqlite"), configuration: configuration)
        try dbPool.close()
        #expect(traced.withLock { $0 }.contains("CREATE TABLE grdb_issue_102 (id INTEGER PRIMARY KEY)"),
                "\(traced.withLock { $0 })")
    }
}
