import CSQLCipher
import Foundation
import Testing
@testable import GRDBCipher

/// Calls the deprecated `dataNoCopy` methods without a deprecation warning:
/// a protocol requirement that `Row` witnesses.
private protocol DataNoCopyReading {
    func dataNoCopy(atIndex index: Int) -> Data?
    func dataNoCopy(named columnName: String) -> Data?
    func dataNoCopy(_ column: Column) -> Data?
}

extension Row: DataNoCopyReading {}

/// Runs `body` on the first row of a cursor: a row that reads its statement.
private func withCursorRow<T>(_ db: Database, _ sql: String, _ body: (Row) throws -> T) throws -> T {
    let cursor = try Row.fetchCursor(db, sql: sql)
    let row = try #require(try cursor.next())
    return try body(row)
}

@Suite("Row API")
struct RowAPITests {
    // MARK: - Collection

    @Test func rowIsACollectionOfColumnValuePairs() throws {
        try inMemoryDatabase { db throws in
            let sql = "SELECT 1 AS a, 'x' AS b, NULL AS c"
            let expectedColumns = ["a", "b", "c"]
            let expectedValues: [DatabaseValue] = [1.databaseValue, "x".databaseValue, .null]
            for row in [try #require(try Row.fetchOne(db, sql: sql)), try withCursorRow(db, sql) { $0.copy() }] {
                #expect(row.map(\.0) == expectedColumns)
                #expect(row.map(\.1) == expectedValues)
                #expect(row.count == 3)
                #expect(row.distance(from: row.startIndex, to: row.endIndex) == 3)
                let last = try #require(row.last)
                #expect(last.0 == "c" && last.1 == .null)
                #expect(row.reversed().map(\.0) == ["c", "b", "a"])
            }
            try withCursorRow(db, sql) { row throws in
                var columns: [String] = []
                for (column, dbValue) in row {
                    columns.append(column)
                    #expect(dbValue == row.databaseValues[columns.count - 1])
                }
                #expect(columns == expectedColumns)
            }
        }
    }

    @Test func rowIndexIsStrideable() throws {
        let row: Row = ["a": 1, "b": 2, "c": 3]
        let second = row.index(after: row.startIndex)
        #expect(row[second].0 == "b")
        #expect(row.startIndex < second && second < row.endIndex)
        #expect(row.startIndex.distance(to: row.endIndex) == 3)
        #expect(second.advanced(by: 1) == row.index(row.startIndex, offsetBy: 2))
        #expect(row[second.advanced(by: -1)].0 == "a")
        #expect(Row().startIndex == Row().endIndex)
        #expect(Row().isEmpty)
        #expect(!row.isEmpty)
    }

    @Test func collectionSubscriptPastTheEndTraps() async {
        await #expect(processExitsWith: .failure) {
            let row: Row = ["a": 1]
            _ = row[row.endIndex]
        }
    }

    @Test func duplicateColumnsAllAppearInTheCollection() throws {
        try inMemoryDatabase { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS A"))
            #expect(row.map(\.0) == ["a", "A"])
            #expect(row.map(\.1) == [1.databaseValue, 2.databaseValue])
        }
    }

    // MARK: - Row from [AnyHashable: Any]

    @Test func rowFromAnyDictionaryConvertsEveryValue() throws {
        let dictionary: [String: Any] = ["name": "Arthur", "score": 1000, "bonus": NSNull()]
        let row = try #require(Row(dictionary))
        #expect(row.count == 3)
        #expect(row["name"] as String == "Arthur")
        #expect(row["score"] as Int == 1000)
        #expect(row["bonus"] as Int? == nil)
        #expect(row.hasColumn("bonus"))
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE player (name TEXT, score INTEGER, bonus INTEGER)")
            try db.execute(
                sql: "INSERT INTO player (name, score, bonus) VALUES (:name, :score, :bonus)",
                arguments: StatementArguments(row.map { ($0, $1 as (any DatabaseValueConvertible)?) }))
            let fetched = try #require(try Row.fetchOne(db, sql: "SELECT name, score, bonus FROM player"))
            #expect(fetched == ["name": "Arthur", "score": 1000, "bonus": nil])
        }
    }

    @Test func rowFromAnyDictionaryIsNilForANonStringKey() {
        let dictionary: [AnyHashable: Any] = ["name": "Arthur", 1: "one"]
        #expect(Row(dictionary) == nil)
    }

    @Test func rowFromAnyDictionaryIsNilForANonConvertibleValue() {
        struct NotConvertible {}
        #expect(Row(["name": "Arthur", "other": NotConvertible()] as [String: Any]) == nil)
        #expect(Row(["list": [1, 2]] as [String: Any]) == nil)
        #expect(Row([:] as [AnyHashable: Any])?.isEmpty == true)
    }

    @Test func dictionaryOfConvertiblesStillMakesANonOptionalRow() {
        // The failable initializer must not win over the convertible one.
        let row: Row = Row(["name": "Arthur"])
        #expect(row["name"] as String == "Arthur")
    }

    // MARK: - containsNonNullValue

    @Test func containsNonNullValueLooksForOneNonNullValue() throws {
        try inMemoryDatabase { db throws in
            for (sql, expected) in [("SELECT 'foo', NULL", true), ("SELECT NULL, NULL", false), ("SELECT NULL, 0", true)] {
                #expect(try Row.fetchOne(db, sql: sql)?.containsNonNullValue == expected, "\(sql)")
                #expect(try withCursorRow(db, sql) { $0.containsNonNullValue } == expected, "\(sql)")
            }
        }
        #expect(!Row().containsNonNullValue)
        #expect(!(["a": nil] as Row).containsNonNullValue)
        #expect((["a": nil, "b": ""] as Row).containsNonNullValue)
    }

    // MARK: - coalesce

    @Test func coalesceReturnsTheFirstNonNullValue() throws {
        try inMemoryDatabase { db throws in
            try withCursorRow(db, "SELECT NULL AS nickname, 'Arthur' AS name, 'Art' AS alias") { row throws in
                #expect(row.coalesce(["nickname", "name", "alias"]) as String? == "Arthur")
                #expect(row.coalesce(["alias", "name"]) as String? == "Art")
                #expect(row.coalesce([Column("nickname"), Column("alias")]) as String? == "Art")
                // A missing column counts as NULL.
                #expect(row.coalesce(["missing", "nickname", "name"]) as String? == "Arthur")
                #expect(row.coalesce(["missing", "nickname"]) as String? == nil)
                #expect(row.coalesce([String]()) as String? == nil)
            }
            let copied = try #require(try Row.fetchOne(db, sql: "SELECT NULL AS a, 42 AS b"))
            #expect(copied.coalesce(Set(["b"])) as Int? == 42)
            #expect(copied.coalesce(["a", "b"]) as Int? == 42)
        }
    }

    @Test func coalesceTrapsOnAValueThatCannotBeDecoded() async {
        await #expect(processExitsWith: .failure) {
            let row: Row = ["a": "not a date"]
            let _: Date? = row.coalesce(["a"])
        }
    }

    // MARK: - withUnsafeData

    @Test func withUnsafeDataLendsTheStatementBufferOfACursorRow() throws {
        try inMemoryDatabase { db throws in
            // Foundation copies data of up to 14 bytes inline: the blob is larger.
            let bytes = Data((0..<64).map { UInt8($0) })
            let hex = bytes.map { String(format: "%02X", $0) }.joined()
            try withCursorRow(db, "SELECT x'\(hex)' AS blob") { row throws in
                let sqliteStatement = try #require(row.sqliteStatement)
                try row.withUnsafeData(atIndex: 0) { data in
                    let data = try #require(data)
                    #expect(data == bytes)
                    // The very bytes of SQLite, not a copy.
                    let address = data.withUnsafeBytes { UnsafeRawPointer($0.baseAddress) }
                    #expect(address == sqlite3_column_blob(sqliteStatement, 0))
                }
                #expect(try row.withUnsafeData(named: "BLOB") { $0?.count } == 64)
                #expect(try row.withUnsafeData(at: Column("blob")) { $0?.last } == 63)
            }
        }
    }

    @Test func withUnsafeDataReadsEveryValueOfACursorRowAsBytes() throws {
        try inMemoryDatabase { db throws in
            try withCursorRow(db, "SELECT NULL, x'', 'héllo', 42, 1.5") { row throws in
                #expect(try row.withUnsafeData(atIndex: 0) { $0 } == nil)
                #expect(try row.withUnsafeData(atIndex: 1) { $0 } == Data())
                #expect(try row.withUnsafeData(atIndex: 2) { $0 } == Data("héllo".utf8))
                // SQLite converts numbers to their text.
                #expect(try row.withUnsafeData(atIndex: 3) { $0 } == Data("42".utf8))
                #expect(try row.withUnsafeData(atIndex: 4) { $0 } == Data("1.5".utf8))
            }
        }
    }

    @Test func withUnsafeDataOfACopiedRowReadsBlobsAndTexts() throws {
        try inMemoryDatabase { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT x'0A0B' AS b, 'abc' AS t, NULL AS n, x'' AS e"))
            #expect(try row.withUnsafeData(named: "b") { $0 } == Data([0x0A, 0x0B]))
            #expect(try row.withUnsafeData(named: "t") { $0 } == Data("abc".utf8))
            #expect(try row.withUnsafeData(named: "n") { $0 } == nil)
            #expect(try row.withUnsafeData(named: "e") { $0 } == Data())
            #expect(try row.withUnsafeData(named: "missing") { $0 } == nil)
        }
    }

    @Test func withUnsafeDataOfACopiedRowThrowsForANumber() throws {
        try inMemoryDatabase { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 42 AS answer"))
            let error = #expect(throws: RowDecodingError.self) {
                try row.withUnsafeData(named: "answer") { _ in Issue.record("body must not run") }
            }
            #expect(error?.kind == .valueMismatch)
            #expect(error?.column == "answer")
        }
    }

    @Test func withUnsafeDataRethrowsWhatTheBodyThrows() throws {
        struct BodyError: Error {}
        let row: Row = ["a": Data([1])]
        #expect(throws: BodyError.self) {
            try row.withUnsafeData(atIndex: 0) { _ in throw BodyError() }
        }
    }

    @Test func withUnsafeDataOutOfRangeTraps() async {
        await #expect(processExitsWith: .failure) {
            let row: Row = ["a": Data([1])]
            _ = try? row.withUnsafeData(atIndex: 1) { $0 }
        }
    }

    @Test func dataNoCopyReturnsTheData() throws {
        try inMemoryDatabase { db throws in
            try withCursorRow(db, "SELECT x'CAFE' AS data, NULL AS none") { row throws in
                let reader: any DataNoCopyReading = row
                #expect(reader.dataNoCopy(atIndex: 0) == Data([0xCA, 0xFE]))
                #expect(reader.dataNoCopy(named: "DATA") == Data([0xCA, 0xFE]))
                #expect(reader.dataNoCopy(Column("data")) == Data([0xCA, 0xFE]))
                #expect(reader.dataNoCopy(atIndex: 1) == nil)
                #expect(reader.dataNoCopy(named: "missing") == nil)
            }
        }
    }

    @Test func dataNoCopyTrapsOnANumberOfACopiedRow() async {
        await #expect(processExitsWith: .failure) {
            let reader: any DataNoCopyReading = ["a": 1] as Row
            _ = reader.dataNoCopy(atIndex: 0)
        }
    }
}
