import Foundation
import Testing
@testable import GRDBCipher

/// Arguments keep an array literal as given, and convert other values at
/// once: both forms must read, compare, combine and bind the same.
@Suite("The two forms of statement arguments")
struct StatementArgumentsFormsTests {
    @Test func aLiteralAndConvertedValuesAreEqualAndHashTheSame() {
        let literal: StatementArguments = [1, "two", nil, 4.5]
        let converted = StatementArguments([1.databaseValue, "two".databaseValue, .null, 4.5.databaseValue])
        #expect(literal == converted)
        #expect(literal.hashValue == converted.hashValue)
        #expect(literal.values == converted.values)
        #expect(literal.namedValues.isEmpty)
        #expect(!literal.isEmpty)
        let empty: StatementArguments = []
        #expect(empty.isEmpty)
        #expect(empty == StatementArguments())
    }

    @Test func aLiteralCombinesWithNamedValues() {
        var arguments: StatementArguments = [1, 2]
        let replaced = arguments.append(contentsOf: ["a": 3] + [4])
        #expect(replaced.isEmpty)
        #expect(arguments.values == [1.databaseValue, 2.databaseValue, 4.databaseValue])
        #expect(arguments.namedValues == ["a": 3.databaseValue])
        let again = arguments.append(contentsOf: ["a": 5])
        #expect(again == ["a": 3.databaseValue])
        #expect(arguments.namedValues == ["a": 5.databaseValue])
        #expect(([1] as StatementArguments) + [2] == [1, 2])
    }

    @Test func aLiteralOfEveryKeptTypeBindsItsValues() throws {
        try inMemoryDatabase { db throws in
            let arguments: StatementArguments = [
                true, Int32(-3), Int16(4), Int8(-5), UInt8(6), UInt16(7), UInt32(8), Float(1.5), Data([1, 2]),
                Int64.max, Int.min, 2.25, "text", nil,
            ]
            let expected: [DatabaseValue] = [
                true.databaseValue, Int32(-3).databaseValue, Int16(4).databaseValue, Int8(-5).databaseValue,
                UInt8(6).databaseValue, UInt16(7).databaseValue, UInt32(8).databaseValue, Float(1.5).databaseValue,
                Data([1, 2]).databaseValue, Int64.max.databaseValue, Int.min.databaseValue, 2.25.databaseValue,
                "text".databaseValue, .null,
            ]
            #expect(arguments.values == expected)
            let sql = "SELECT " + Array(repeating: "?", count: expected.count).joined(separator: ", ")
            let row = try #require(try Row.fetchOne(db, sql: sql, arguments: arguments))
            #expect(Array(row.databaseValues) == expected)
        }
    }

    @Test func aLiteralOfOtherTypesIsConverted() {
        // A type outside the kept ones (here a Date) makes the literal
        // convert its values when it is made.
        let date = Date(timeIntervalSince1970: 0)
        let arguments: StatementArguments = [1, date]
        #expect(arguments.values == [1.databaseValue, date.databaseValue])
    }

    @Test func aStatementKeepsTheArgumentsOfItsLastRun() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            let statement = try db.cachedStatement(sql: "INSERT INTO t VALUES (?, ?)")
            for row in 0..<3 {
                try statement.execute(arguments: [row, "row \(row)"])
            }
            #expect(statement.arguments == [2, "row 2"])
            statement.setUncheckedArguments([7, nil])
            #expect(statement.arguments == [7, nil])
            try statement.execute()
            let rows = try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY rowid")
            #expect(rows.map { $0[0] as Int64 } == [0, 1, 2, 7])
            #expect(rows.last.map { $0["b"] as DatabaseValue } == .null)
        }
    }

    @Test func namedParametersAreToldFromNumberedOnes() throws {
        try inMemoryDatabase { db throws in
            let numbered = try db.makeStatement(sql: "SELECT ?2, ?1")
            try numbered.setArguments([1, 2])
            #expect(try Row.fetchOne(numbered).map { [$0[0] as Int, $0[1] as Int] } == [2, 1])
            let named = try db.makeStatement(sql: "SELECT :a, ?")
            try named.setArguments(["a": 1] + [2])
            #expect(try Row.fetchOne(named).map { [$0[0] as Int, $0[1] as Int] } == [1, 2])
            #expect(throws: DatabaseError.self) { try named.setArguments([1]) }
        }
    }
}
