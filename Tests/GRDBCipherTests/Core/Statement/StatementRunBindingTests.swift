import CSQLCipher
import Foundation
import Testing
@testable import GRDBCipher

/// The SQL of a statement with what SQLite holds bound now (NULL for nothing).
private func boundSQL(_ statement: Statement) -> String {
    guard let text = sqlite3_expanded_sql(statement.sqliteStatement) else { return "" }
    defer { sqlite3_free(text) }
    return String(cString: text)
}

@Suite("Arguments of one run, and arguments that stay bound")
struct StatementRunBindingTests {
    @Test func argumentsOfExecuteAreClearedAfterTheRun() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a TEXT)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?)")
            try statement.execute(arguments: ["secret"])
            #expect(boundSQL(statement) == "INSERT INTO t VALUES (NULL)")
            #expect(statement.arguments == ["secret"])
        }
    }

    @Test func stringsAndBlobsAmongNumbersAreClearedAfterTheRun() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b, c)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?, ?)")
            try statement.execute(arguments: [1, Data([0x2A]), 2.5])
            #expect(boundSQL(statement) == "INSERT INTO t VALUES (NULL, NULL, NULL)")
            try statement.execute(arguments: StatementArguments([1.databaseValue, "secret".databaseValue, .null]))
            #expect(boundSQL(statement) == "INSERT INTO t VALUES (NULL, NULL, NULL)")
            // Named parameters bind through another path.
            let named = try db.makeStatement(sql: "INSERT INTO t VALUES (:a, :b, 0)")
            try named.execute(arguments: ["a": 1, "b": "secret"])
            #expect(boundSQL(named) == "INSERT INTO t VALUES (NULL, NULL, 0)")
        }
    }

    @Test func numbersOfARunStayBoundAndRunAgainAsGiven() throws {
        // Numbers and NULL hold no memory in SQLite: they are not cleared
        // (one call less per cached insert), and `execute()` runs them again.
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b, c)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?, ?)")
            try statement.execute(arguments: [1, nil, 2.5])
            try statement.execute()
            try statement.execute(arguments: StatementArguments([3.databaseValue, .null, 4.databaseValue]))
            try statement.execute()
            let rows = try Row.fetchAll(db, sql: "SELECT a, b, c FROM t ORDER BY rowid").map { Array($0.databaseValues) }
            let expected: [[DatabaseValue]] = [
                [1.databaseValue, .null, 2.5.databaseValue], [1.databaseValue, .null, 2.5.databaseValue],
                [3.databaseValue, .null, 4.databaseValue], [3.databaseValue, .null, 4.databaseValue],
            ]
            #expect(rows == expected)
            #expect(statement.arguments == [3, nil, 4])
            // Strings after numbers are cleared again.
            try statement.execute(arguments: ["x", 1, 2])
            #expect(boundSQL(statement) == "INSERT INTO t VALUES (NULL, NULL, NULL)")
            try statement.execute()
            #expect(try String.fetchAll(db, sql: "SELECT a FROM t WHERE typeof(a) = 'text'") == ["x", "x"])
        }
    }

    @Test func argumentsOfStatementsWithMoreThanTwentyParametersStayBound() throws {
        try inMemoryDatabase { db throws in
            let columns = (0...20).map { "a\($0)" }
            try db.execute(sql: "CREATE TABLE t (\(columns.joined(separator: ", ")))")
            let statement = try db.makeStatement(
                sql: "INSERT INTO t VALUES (\(Array(repeating: "?", count: 21).joined(separator: ", ")))")
            try statement.execute(arguments: StatementArguments(["kept"] + Array(repeating: 0, count: 20)))
            #expect(boundSQL(statement).hasPrefix("INSERT INTO t VALUES ('kept', 0"))
            // A raw step inserts the same values again, as with GRDB.
            sqlite3_reset(statement.sqliteStatement)
            sqlite3_step(statement.sqliteStatement)
            sqlite3_reset(statement.sqliteStatement)
            #expect(try String.fetchSet(db, sql: "SELECT a0 FROM t") == ["kept"])
        }
    }

    @Test func argumentsOfAFailedRunAreClearedToo() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a TEXT UNIQUE)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?)")
            try statement.execute(arguments: ["x"])
            #expect(throws: DatabaseError.self) { try statement.execute(arguments: ["x"]) }
            #expect(boundSQL(statement) == "INSERT INTO t VALUES (NULL)")
        }
    }

    @Test func executeWithoutArgumentsRunsAgainWithThePreviousOnes() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a TEXT)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?)")
            try statement.execute(arguments: ["again"])
            try statement.execute()
            #expect(try String.fetchAll(db, sql: "SELECT a FROM t") == ["again", "again"])
        }
    }

    @Test func setArgumentsStayBound() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a TEXT)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?)")
            try statement.setArguments(["kept"])
            try statement.execute()
            #expect(boundSQL(statement) == "INSERT INTO t VALUES ('kept')")
            try statement.execute()
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE a = 'kept'") == 2)
        }
    }

    @Test func literalStatementsKeepTheirArguments() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a INTEGER)")
            try db.makeStatement(literal: "INSERT INTO t VALUES (\(1))").execute()
            try db.cachedStatement(literal: "INSERT INTO t VALUES (\(2))").execute()
            try db.makeStatement(literal: SQL(sql: "INSERT INTO t VALUES (:a)", arguments: ["a": 3])).execute()
            let statements = try db.allStatements(literal: "INSERT INTO t VALUES (\(4)); INSERT INTO t VALUES (\(5))")
            while let statement = try statements.next() { try statement.execute() }
            #expect(try Int.fetchAll(db.makeStatement(literal: "SELECT a FROM t WHERE a > \(0) ORDER BY a")) == [1, 2, 3, 4, 5])
            #expect(try Row.fetchAll(db.cachedStatement(literal: "SELECT a FROM t WHERE a = \(5)")).count == 1)
        }
    }
}
