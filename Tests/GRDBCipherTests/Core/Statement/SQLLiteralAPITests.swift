import Foundation
import Testing
@testable import GRDBCipher

/// A type a user interpolates through their own `SQLInterpolation` extension.
private struct Point {
    var x: Double
    var y: Double
}

extension SQLInterpolation {
    fileprivate mutating func appendInterpolation(point: Point) {
        appendInterpolation(sql: "(? || ',' || ?)", arguments: [point.x, point.y])
    }

    fileprivate mutating func appendInterpolation(upper string: String) {
        appendLiteral("upper(")
        appendInterpolation(string)
        appendLiteral(")")
    }
}

private enum CodingKeys: String, CodingKey {
    case name
    case groupName = "group"
}

@Suite("SQL literal API")
struct SQLLiteralAPITests {
    // MARK: - SQLInterpolation

    @Test func sqlStringInterpolationIsThePublicSQLInterpolation() {
        #expect(SQL.StringInterpolation.self == SQLInterpolation.self)
        var interpolation = SQLInterpolation(literalCapacity: 8, interpolationCount: 1)
        interpolation.appendLiteral("SELECT ")
        interpolation.appendInterpolation(1)
        let query = SQL(stringInterpolation: interpolation)
        #expect(query.sql == "SELECT ?")
        #expect(query.arguments == [1])
    }

    @Test func usersExtendSQLInterpolation() throws {
        let query: SQL = "SELECT \(point: Point(x: 1.5, y: 2)), \(upper: "abc")"
        #expect(query.sql == "SELECT (? || ',' || ?), upper(?)")
        #expect(query.arguments == [1.5, 2.0, "abc"])
        try inMemoryDatabase { db throws in
            let row = try #require(try Row.fetchOne(db, literal: query))
            #expect(row[0] as String == "1.5,2.0")
            #expect(row[1] as String == "ABC")
        }
    }

    // MARK: - Identifiers

    @Test func identifierInterpolationQuotes() throws {
        let table = "group"
        let query: SQL = "INSERT INTO \(identifier: table) (\(identifier: "order")) VALUES (\(1))"
        #expect(query.sql == #"INSERT INTO "group" ("order") VALUES (?)"#)
        #expect(query.arguments == [1])
        try inMemoryDatabase { db throws in
            // Both names are keywords: the statement only runs if they are quoted.
            try db.execute(literal: "CREATE TABLE \(identifier: table) (\(identifier: "order") INTEGER)")
            try db.execute(literal: query)
            #expect(try Int.fetchOne(db, literal: "SELECT \(identifier: "order") FROM \(identifier: table)") == 1)
        }
    }

    @Test func codingKeyInterpolationIsAQuotedColumn() throws {
        let key: any CodingKey = CodingKeys.groupName
        let query: SQL = "SELECT \(CodingKeys.name), \(key) FROM t"
        #expect(query.sql == #"SELECT "name", "group" FROM t"#)
        #expect(query.arguments.isEmpty)
        #expect(Column(CodingKeys.groupName).name == "group")
        try inMemoryDatabase { db throws in
            try db.execute(sql: #"CREATE TABLE t (name TEXT, "group" TEXT)"#)
            try db.execute(literal: "INSERT INTO t (\(CodingKeys.name), \(key)) VALUES (\("a"), \("b"))")
            let row = try #require(try Row.fetchOne(db, literal: query))
            #expect(row == ["name": "a", "group": "b"])
        }
    }

    @Test func collationInterpolationIsItsName() throws {
        let collation = DatabaseCollation.caseInsensitiveCompare
        let query: SQL = "SELECT name FROM t ORDER BY name COLLATE \(collation)"
        #expect(query.sql == "SELECT name FROM t ORDER BY name COLLATE swiftCaseInsensitiveCompare")
        #expect(query.arguments.isEmpty)
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('b'), ('A'), ('a2')")
            #expect(try String.fetchAll(db, literal: query) == ["A", "a2", "b"])
        }
    }

    // MARK: - Values

    @Test func nilAndNullInterpolateAsTheNULLKeyword() throws {
        let none: Int? = nil
        let unknown: (any DatabaseValueConvertible)? = nil
        let query: SQL = "SELECT \(none) IS NULL, \(DatabaseValue.null) IS NULL, \(unknown) IS NULL, \(NSNull()) IS NULL"
        #expect(query.sql == "SELECT NULL IS NULL, NULL IS NULL, NULL IS NULL, NULL IS NULL")
        #expect(query.arguments.isEmpty)
        #expect(SQL(none).sql == "NULL")
        try inMemoryDatabase { db throws in
            let row = try #require(try Row.fetchOne(db, literal: query))
            #expect(row.databaseValues == Array(repeating: 1.databaseValue, count: 4))
        }
    }

    @Test func valuesInterpolateAsBoundArguments() throws {
        let some: Int? = 3
        let existential: (any DatabaseValueConvertible)? = "e"
        let substring = "abcdef".dropFirst(2).prefix(2)
        let data = Data([0xAB, 0xCD])
        let query: SQL = "SELECT \(1), \(some), \(existential), \(substring), \(data), \(true), \(2.5)"
        #expect(query.sql == "SELECT ?, ?, ?, ?, ?, ?, ?")
        #expect(query.arguments == [1, 3, "e", "cd", data, true, 2.5])
        try inMemoryDatabase { db throws in
            let row = try #require(try Row.fetchOne(db, literal: query))
            let expected: [any DatabaseValueConvertible] = [1, 3, "e", "cd", data, 1, 2.5]
            #expect(row.databaseValues == expected.map(\.databaseValue))
        }
    }

    // MARK: - Lists

    @Test func sequenceInterpolatesAsAnInListWithoutSpaces() throws {
        let ids = [1, 3, 5]
        let query: SQL = "SELECT id FROM t WHERE id IN \(ids) ORDER BY id"
        #expect(query.sql == "SELECT id FROM t WHERE id IN (?,?,?) ORDER BY id")
        #expect(query.arguments == [1, 3, 5])
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)")
            for id in 1...6 { try db.execute(literal: "INSERT INTO t VALUES (\(id))") }
            #expect(try Int.fetchAll(db, literal: query) == [1, 3, 5])
            let mixed: [any DatabaseValueConvertible] = [2, "4"]
            let mixedQuery: SQL = "SELECT id FROM t WHERE id IN \(mixed) ORDER BY id"
            #expect(mixedQuery.sql == "SELECT id FROM t WHERE id IN (?,?) ORDER BY id")
            #expect(mixedQuery.arguments == [2, "4"])
            #expect(try Int.fetchAll(db, literal: mixedQuery) == [2, 4])
        }
    }

    @Test func emptySequenceInterpolatesAsAnEmptySubquery() throws {
        let ids: [Int] = []
        let query: SQL = "SELECT COUNT(*) FROM t WHERE id IN \(ids)"
        #expect(query.sql == "SELECT COUNT(*) FROM t WHERE id IN (SELECT NULL WHERE NULL)")
        #expect(query.arguments.isEmpty)
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER); INSERT INTO t VALUES (1), (NULL)")
            #expect(try Int.fetchOne(db, literal: query) == 0)
            #expect(try Int.fetchOne(db, literal: "SELECT COUNT(*) FROM t WHERE id NOT IN \(ids)") == 2)
        }
    }

    @Test func nilElementsOfAListAreNULL() throws {
        let values: [Int?] = [1, nil, 2]
        let query: SQL = "SELECT 2 IN \(values)"
        #expect(query.sql == "SELECT 2 IN (?,NULL,?)")
        #expect(query.arguments == [1, 2])
        try inMemoryDatabase { db throws in
            #expect(try Bool.fetchOne(db, literal: query) == true)
        }
    }

    // MARK: - Raw SQL and nested literals

    @Test func rawAndNestedInterpolationsKeepArgumentsInOrder() throws {
        let condition: SQL = "a = \(1)"
        let query: SQL = """
            SELECT \(sql: "?", arguments: [0]) FROM t WHERE \(condition) AND \(literal: "b = \(2)") AND \(sql: "c = :c", arguments: ["c": 3])
            """
        #expect(query.sql == "SELECT ? FROM t WHERE a = ? AND b = ? AND c = :c")
        #expect(query.arguments.values == [0, 1, 2].map(\.databaseValue))
        #expect(query.arguments.namedValues == ["c": 3.databaseValue])
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b, c); INSERT INTO t VALUES (1, 2, 3), (1, 2, 4)")
            #expect(try Int.fetchAll(db, literal: query) == [0])
        }
    }

    @Test func buildReturnsTheTextAndArguments() throws {
        let query: SQL = "SELECT \(1) + \(sql: "?", arguments: [2])"
        try inMemoryDatabase { db throws in
            let (sql, arguments) = try query.build(db)
            #expect(sql == "SELECT ? + ?")
            #expect(arguments == [1, 2])
            #expect(try Int.fetchOne(db, sql: sql, arguments: arguments) == 3)
        }
    }

    // MARK: - isEmpty, +=, joined

    @Test func isEmptyLooksAtTheTextOnly() {
        #expect(SQL("").isEmpty)
        #expect(SQL(sql: "").isEmpty)
        #expect(("" as SQL).isEmpty)
        #expect(SQL(sql: "", arguments: [1]).isEmpty)
        #expect(!SQL(" ").isEmpty)
        #expect(!("\(1)" as SQL).isEmpty)
        #expect(!("\(nil as Int?)" as SQL).isEmpty)
        #expect(!("\([Int]())" as SQL).isEmpty)
        #expect([SQL]().joined().isEmpty)
    }

    @Test func plusEqualsAppendsTextAndArguments() throws {
        var query: SQL = "SELECT \(1)"
        query += ", \(2)"
        query += SQL(sql: ", ?", arguments: [3])
        #expect(query.sql == "SELECT ?, ?, ?")
        #expect(query.arguments == [1, 2, 3])
        try inMemoryDatabase { db throws in
            let row = try #require(try Row.fetchOne(db, literal: query))
            #expect(row.databaseValues == [1, 2, 3].map(\.databaseValue))
        }
    }

    @Test func plusEqualsTrapsOnANamedArgumentDefinedTwice() async {
        await #expect(processExitsWith: .failure) {
            var query = SQL(sql: ":a", arguments: ["a": 1])
            query += SQL(sql: ":a", arguments: ["a": 2])
        }
    }

    @Test func joinedConcatenatesWithARawSeparator() throws {
        let name = "Arthur"
        let components: [SQL] = ["SELECT COUNT(*) FROM player", "WHERE name = \(name)", "AND score > \(10)"]
        let query = components.joined(separator: " ")
        #expect(query.sql == "SELECT COUNT(*) FROM player WHERE name = ? AND score > ?")
        #expect(query.arguments == ["Arthur", 10])
        let conditions: [SQL] = ["a = \(1)", "b = \(2)"]
        #expect(conditions.joined().sql == "a = ?b = ?")
        #expect(conditions.joined(separator: " AND ").sql == "a = ? AND b = ?")
        #expect(conditions.joined(separator: " AND ").arguments == [1, 2])
        // Any sequence, not only collections.
        let sequence = AnySequence(conditions)
        #expect(sequence.joined(separator: " OR ").sql == "a = ? OR b = ?")
        #expect([SQL("x")].joined(separator: ", ").sql == "x")
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE player (name TEXT, score INTEGER)")
            try db.execute(sql: "INSERT INTO player VALUES ('Arthur', 100), ('Arthur', 5), ('Barbara', 100)")
            #expect(try Int.fetchOne(db, literal: query) == 1)
        }
    }

    // MARK: - databaseQuestionMarks

    @Test func databaseQuestionMarksAreSeparatedByCommas() throws {
        #expect(databaseQuestionMarks(count: 0) == "")
        #expect(databaseQuestionMarks(count: 1) == "?")
        #expect(databaseQuestionMarks(count: 3) == "?,?,?")
        try inMemoryDatabase { db throws in
            let values = [1, 2, 3]
            let sql = "SELECT \(databaseQuestionMarks(count: values.count))"
            let row = try #require(try Row.fetchOne(db, sql: sql, arguments: StatementArguments(values)))
            #expect(row.databaseValues == values.map(\.databaseValue))
        }
    }
}
