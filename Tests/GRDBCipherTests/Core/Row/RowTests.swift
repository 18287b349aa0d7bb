import Foundation
import Testing
@testable import GRDBCipher

/// The first row of a query, copied through `fetchAll` (RowTests checks
/// `fetchOne` separately).
private func firstRow(_ db: Database, _ sql: String) throws -> Row {
    try #require(try Row.fetchAll(db, sql: sql).first)
}

@Suite("Row")
struct RowTests {
    // MARK: - Subscripts

    @Test func indexSubscriptGivesTheNaturalValue() throws {
        try inMemoryDatabase { db throws in
            let row = try firstRow(db, "SELECT 1, 1.5, 'a', x'00', NULL")
            let values: [(any DatabaseValueConvertible)?] = (0..<row.count).map { row[$0] }
            #expect(values[0] as? Int64 == 1)
            #expect(values[1] as? Double == 1.5)
            #expect(values[2] as? String == "a")
            #expect(values[3] as? Data == Data([0]))
            #expect(values[4] == nil)
        }
    }

    @Test func indexSubscriptDecodesTheRequestedType() throws {
        try inMemoryDatabase { db throws in
            let row = try firstRow(db, "SELECT 42, 'text', NULL")
            #expect(row[0] as Int == 42)
            #expect(row[0] as Double == 42.0)
            #expect(row[1] as String == "text")
            #expect(row[2] as Int? == nil)
            #expect(row[0] as Int? == 42)
        }
    }

    @Test func nameSubscriptIsCaseInsensitive() throws {
        try inMemoryDatabase { db throws in
            let row = try firstRow(db, "SELECT 'Arthur' AS name, 1000 AS Score")
            #expect(row["name"] as String == "Arthur")
            #expect(row["NAME"] as String == "Arthur")
            #expect(row["nAmE"] as String == "Arthur")
            #expect(row["score"] as Int == 1000)
            #expect(row["SCORE"] as? Int64 == 1000)
        }
    }

    @Test func columnSubscriptReadsTheNamedColumn() throws {
        try inMemoryDatabase { db throws in
            let row = try firstRow(db, "SELECT 'Arthur' AS name, 1000 AS score")
            let name = Column("name")
            let score = Column("SCORE")
            #expect(row[name] as String == "Arthur")
            #expect(row[score] as Int == 1000)
            #expect(row[name] as? String == "Arthur")
            #expect(row[Column("missing")] as Int? == nil)
        }
    }

    @Test func leftmostDuplicateColumnWins() throws {
        try inMemoryDatabase { db throws in
            let sql = "SELECT 1 AS a, 2 AS a, 3 AS A, 4 AS b, 5 AS B"
            let row = try firstRow(db, sql)
            #expect(row["a"] as Int == 1)
            #expect(row["A"] as Int == 1)
            #expect(row["B"] as Int == 4)
            #expect(row.index(forColumn: "A") == 0)
            #expect(try row.decode(Int.self, forColumn: "A") == 1)

            // A row that reads a statement agrees.
            let cursor = try Row.fetchCursor(db, sql: sql)
            let liveRow = try #require(try cursor.next())
            #expect(liveRow["A"] as Int == 1)
            #expect(liveRow["b"] as Int == 4)
            #expect(try liveRow.decode(Int.self, forColumn: "B") == 4)
        }
    }

    @Test func leftmostCaseVariantWinsOverALaterExactMatch() throws {
        try inMemoryDatabase { db throws in
            let row = try firstRow(db, "SELECT 1 AS Name, 2 AS name")
            #expect(row["name"] as Int == 1)
            #expect(row["Name"] as Int == 1)
        }
    }

    @Test func optionalSubscriptOfNullIsNil() throws {
        try inMemoryDatabase { db throws in
            let row = try firstRow(db, "SELECT NULL AS a, 1 AS b")
            #expect(row["a"] as Int? == nil)
            #expect(row["a"] as String? == nil)
            #expect(row["b"] as Int? == 1)
            #expect(row["a"] == nil)
            #expect(row.hasNull(atIndex: 0))
            #expect(!row.hasNull(atIndex: 1))
        }
    }

    @Test func missingColumnWithOptionalTypeIsNil() throws {
        try inMemoryDatabase { db throws in
            let row = try firstRow(db, "SELECT 1 AS a")
            #expect(row["missing"] as Int? == nil)
            #expect(row["missing"] as Date? == nil)
            #expect(row["missing"] == nil)
            #expect(try row.decodeIfPresent(Int.self, forColumn: "missing") == nil)
        }
    }

    @Test func missingColumnWithNonOptionalTypeTraps() async {
        await #expect(processExitsWith: .failure) {
            let row: Row = ["a": 1]
            let value: Int = row["missing"]
            _ = value
        }
    }

    @Test func undecodableValueInANonOptionalSubscriptTraps() async {
        await #expect(processExitsWith: .failure) {
            let row: Row = ["a": "text"]
            let value: Int = row["a"]
            _ = value
        }
    }

    // MARK: - decode

    @Test func decodeOfMissingColumnThrowsColumnNotFound() throws {
        try inMemoryDatabase { db throws in
            let sql = "SELECT 1 AS a"
            let row = try firstRow(db, sql)
            let error = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "missing") }
            #expect(error?.kind == .columnNotFound)
            #expect(error?.column == "missing")
            #expect(error?.description.contains("missing") == true)

            let cursor = try Row.fetchCursor(db, sql: sql)
            let liveRow = try #require(try cursor.next())
            let liveError = #expect(throws: RowDecodingError.self) {
                try liveRow.decode(String.self, forColumn: Column("missing"))
            }
            #expect(liveError?.kind == .columnNotFound)
            #expect(liveError?.sql == sql)
        }
    }

    @Test func decodeOfWrongTypeThrowsValueMismatch() throws {
        try inMemoryDatabase { db throws in
            let row = try firstRow(db, "SELECT 'text' AS a, NULL AS b")
            let error = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "a") }
            #expect(error?.kind == .valueMismatch)
            #expect(error?.column == "a")
            let nullError = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "b") }
            #expect(nullError?.kind == .valueMismatch)
            let indexError = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, atIndex: 0) }
            #expect(indexError?.kind == .valueMismatch)
            #expect(indexError?.column == "a")
        }
    }

    @Test func decodeIfPresentThrowsValueMismatchForAnUndecodableValue() throws {
        try inMemoryDatabase { db throws in
            let row = try firstRow(db, "SELECT 'text' AS a, NULL AS b, 7 AS c")
            let error = #expect(throws: RowDecodingError.self) { try row.decodeIfPresent(Int.self, forColumn: "a") }
            #expect(error?.kind == .valueMismatch)
            #expect(try row.decodeIfPresent(Int.self, forColumn: "b") == nil)
            #expect(try row.decodeIfPresent(Int.self, forColumn: "C") == 7)
            #expect(try row.decodeIfPresent(Int.self, atIndex: 1) == nil)
            #expect(try row.decodeIfPresent(Int.self, atIndex: 2) == 7)
            #expect(throws: RowDecodingError.self) { try row.decodeIfPresent(Int.self, atIndex: 0) }
        }
    }

    @Test func decodeByIndexAndNameAgree() throws {
        try inMemoryDatabase { db throws in
            let row = try firstRow(db, "SELECT 'Arthur' AS name, 1000 AS score")
            #expect(try row.decode(String.self, atIndex: 0) == "Arthur")
            #expect(try row.decode(Int.self, atIndex: 1) == 1000)
            #expect(try row.decode(Int.self, forColumn: "score") == 1000)
            #expect(try row.decode(Int.self, forColumn: Column("SCORE")) == 1000)
            #expect(try row.decode(Decimal.self, forColumn: "score") == Decimal(1000))
        }
    }

    @Test func decodingErrorDoesNotRevealTheValue() throws {
        try inMemoryDatabase { db throws in
            let row = try firstRow(db, "SELECT 'secret-value' AS a")
            let error = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "a") }
            let description = try #require(error?.description)
            #expect(!description.contains("secret-value"))
            #expect(description.contains("a"))
        }
    }

    // MARK: - Properties

    @Test func columnNamesAndValuesAreInOrder() throws {
        try inMemoryDatabase { db throws in
            let row = try firstRow(db, "SELECT 1 AS a, 'x' AS B, NULL AS c")
            #expect(row.count == 3)
            #expect(row.columnNames == ["a", "B", "c"])
            #expect(row.databaseValues == [1.databaseValue, "x".databaseValue, .null])
            #expect(row.index(forColumn: "b") == 1)
            #expect(row.index(forColumn: "d") == nil)
        }
    }

    @Test func hasColumnIsCaseInsensitive() throws {
        try inMemoryDatabase { db throws in
            let row = try firstRow(db, "SELECT 1 AS Name")
            #expect(row.hasColumn("Name"))
            #expect(row.hasColumn("name"))
            #expect(row.hasColumn("NAME"))
            #expect(!row.hasColumn("nam"))
        }
    }

    @Test func dictionaryLiteralKeepsTheLiteralOrder() {
        let row: Row = ["name": "Arthur", "score": 1000, "bonus": nil]
        #expect(row.columnNames == ["name", "score", "bonus"])
        #expect(row["name"] as String == "Arthur")
        #expect(row["score"] as Int == 1000)
        #expect(row["bonus"] as Int? == nil)
        #expect(row.databaseValues == ["Arthur".databaseValue, 1000.databaseValue, .null])
    }

    @Test func pairsInitializerKeepsOrder() {
        let row = Row([("b", 2), ("a", "x"), ("c", nil)])
        #expect(row.columnNames == ["b", "a", "c"])
        #expect(row.databaseValues == [2.databaseValue, "x".databaseValue, .null])
        #expect(Row().count == 0)
    }

    @Test func rowsWithSameNamesAndValuesAreEqual() throws {
        try inMemoryDatabase { db throws in
            let fetched = try firstRow(db, "SELECT 'Arthur' AS name, 1000 AS score")
            let literal: Row = ["name": "Arthur", "score": 1000]
            #expect(fetched == literal)
            #expect(fetched.hashValue == literal.hashValue)
            #expect(Set([fetched, literal]).count == 1)
        }
    }

    @Test func rowsDifferingInValueNameCaseOrOrderAreNotEqual() {
        let row: Row = ["name": "Arthur", "score": 1000]
        #expect(row != ["name": "Arthur", "score": 999])
        #expect(row != ["NAME": "Arthur", "score": 1000])
        #expect(row != ["score": 1000, "name": "Arthur"])
        #expect(row != ["name": "Arthur"])
    }

    @Test func descriptionListsColumnsAndValuesAsGRDBPrintsThem() {
        let row: Row = ["name": "O'Brien", "score": 1000, "bonus": nil, "ratio": 0.5, "data": Data([0x0A])]
        #expect(row.description == #"[name:"O\'Brien" score:1000 bonus:NULL ratio:0.5 data:Data(1 bytes)]"#)
        #expect(row.debugDescription == row.description)
    }

    // MARK: - Rows of cursors and fetch methods

    @Test func cursorRowChangesAsTheCursorMovesButCopyKeepsItsValues() throws {
        try inMemoryDatabase { db throws in
            let cursor = try Row.fetchCursor(db, sql: "VALUES (1, 'one'), (2, 'two')")
            let row = try #require(try cursor.next())
            let copy = row.copy()
            #expect(row[0] as Int == 1)
            #expect(copy[0] as Int == 1)
            let next = try #require(try cursor.next())
            #expect(next === row)
            #expect(row[0] as Int == 2)
            #expect(row[1] as String == "two")
            #expect(copy[0] as Int == 1)
            #expect(copy[1] as String == "one")
            #expect(copy.columnNames == ["column1", "column2"])
        }
    }

    @Test func copyOfACopyIsEqual() {
        let row: Row = ["a": 1]
        #expect(row.copy() == row)
    }

    @Test func fetchOneReturnsTheValuesOfTheFirstRow() throws {
        try inMemoryDatabase { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "VALUES (1, 'one'), (2, 'two')"))
            #expect(row.databaseValues == [1.databaseValue, "one".databaseValue])
            #expect(row["column2"] as String? == "one")
        }
    }

    @Test func fetchOneFromAStatementReturnsTheValuesOfTheFirstRow() throws {
        try inMemoryDatabase { db throws in
            let statement = try db.makeStatement(sql: "SELECT ? AS a, ? AS b")
            let row = try #require(try Row.fetchOne(statement, arguments: [1, "x"]))
            #expect(row == ["a": 1, "b": "x"])
        }
    }

    @Test func fetchOneOfNoRowIsNil() throws {
        try inMemoryDatabase { db throws in
            #expect(try Row.fetchOne(db, sql: "SELECT 1 WHERE 0") == nil)
        }
    }

    @Test func fetchAllReturnsIndependentCopies() throws {
        try inMemoryDatabase { db throws in
            let rows = try Row.fetchAll(db, sql: "VALUES (1, 'one'), (2, 'two'), (3, 'three')")
            #expect(rows.map { $0[0] as Int } == [1, 2, 3])
            #expect(rows.map { $0[1] as String } == ["one", "two", "three"])
        }
    }

    @Test func fetchSetRemovesDuplicateRows() throws {
        try inMemoryDatabase { db throws in
            let rows = try Row.fetchSet(db, sql: "VALUES (1, 'a'), (1, 'a'), (2, 'b')")
            #expect(rows == [["column1": 1, "column2": "a"], ["column1": 2, "column2": "b"]])
        }
    }
}

@Suite struct RowColumnGuessTests {
    @Test func cursorRowsFindColumnsInAnyOrder() throws {
        try inMemoryDatabase { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT 1 AS a, 2 AS b, 3 AS c UNION ALL SELECT 4, 5, 6")
            var seen: [[Int]] = []
            while let row = try rows.next() {
                // In order (the guess), out of order, repeated, other case.
                seen.append([row["a"], row["b"], row["c"], row["a"], row["c"], row["c"], row["B"], row["b"]])
            }
            #expect(seen == [[1, 2, 3, 1, 3, 3, 2, 2], [4, 5, 6, 4, 6, 6, 5, 5]])
        }
    }

    @Test func theLeftmostColumnWinsOverTheGuess() throws {
        try inMemoryDatabase { db in
            // Duplicate names, and names that differ only by case.
            let rows = try Row.fetchCursor(db, sql: "SELECT 1 AS x, 2 AS x, 3 AS z")
            while let row = try rows.next() {
                let values: [Int] = [row["x"], row["x"], row["z"], row["x"]]
                #expect(values == [1, 1, 3, 1])
            }
            let variants = try Row.fetchCursor(db, sql: "SELECT 3 AS Y, 4 AS y")
            while let row = try variants.next() {
                let values: [Int] = [row["y"], row["Y"], row["y"]]
                #expect(values == [3, 3, 3])
            }
        }
    }
}
