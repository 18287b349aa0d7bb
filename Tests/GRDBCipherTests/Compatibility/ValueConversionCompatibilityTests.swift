import Foundation
import Testing
@testable import GRDBCipher

/// Value conversions that GRDB 7 code relies on.
@Suite struct ValueConversionCompatibilityTests {
    @Test func sqlCipherPragmasReadAsIntegers() throws {
        // SQLCipher's pragmas return their numbers as text.
        let dbQueue = try DatabaseQueue(configuration: keyed("secret"))
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
