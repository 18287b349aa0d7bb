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

    @Test func numbersOfARunAreClearedToo() throws {
        // As GRDB: after the run, a raw step of the statement inserts NULL,
        // and `execute()` binds the run's arguments again.
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b, c)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?, ?)")
            try statement.execute(arguments: [42, 1.23, Data([0x2A])])
            #expect(boundSQL(statement) == "INSERT INTO t VALUES (NULL, NULL, NULL)")
            try statement.execute()
            try statement.execute(arguments: StatementArguments([3.databaseValue, .null, 4.databaseValue]))
            #expect(boundSQL(statement) == "INSERT INTO t VALUES (NULL, NULL, NULL)")
            try statement.execute()
            let named = try db.makeStatement(sql: "INSERT INTO t VALUES (:a, :b, 0)")
            try named.execute(arguments: ["a": 1, "b": 2])
            #expect(boundSQL(named) == "INSERT INTO t VALUES (NULL, NULL, 0)")
            let rows = try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY rowid").map { Array($0.databaseValues) }
            let expected: [[DatabaseValue]] = [
                [42.databaseValue, 1.23.databaseValue], [42.databaseValue, 1.23.databaseValue],
                [3.databaseValue, .null], [3.databaseValue, .null], [1.databaseValue, 2.databaseValue],
            ]
            #expect(rows == expected)
        }
    }

    @Test func aDumpDoesNotChangeWhatACachedQuoteStatementRuns() throws {
        // The dump quotes values with the connection's cached
        // `SELECT QUOTE(?)`: a user's statement of the same SQL still runs
        // its own arguments after a dump, and the dumped value is not left
        // bound.
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES ('dumped')")
            let statement = try db.cachedStatement(sql: "SELECT QUOTE(?)")
            try statement.setArguments([1])
            try db.dumpSQL("SELECT a FROM t", format: .quote(), to: String())
            #expect(boundSQL(statement) == "SELECT QUOTE(NULL)")
            #expect(try String.fetchOne(statement) == "1")
            try statement.execute(arguments: [2])
            try db.dumpSQL("SELECT a FROM t", format: .quote(), to: String())
            #expect(try String.fetchOne(statement) == "2")
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
