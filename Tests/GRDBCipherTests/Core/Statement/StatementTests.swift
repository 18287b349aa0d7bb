import Foundation
import Testing
@testable import GRDBCipher

private func configuration(publicStatementArguments: Bool) -> Configuration {
    var configuration = Configuration()
    configuration.publicStatementArguments = publicStatementArguments
    return configuration
}

/// Creates table `t` with a unique `name` that already holds "secret-name".
private func createUniqueNames(_ db: Database) throws {
    try db.execute(sql: "CREATE TABLE t (name TEXT UNIQUE)")
    try db.execute(sql: "INSERT INTO t VALUES ('secret-name')")
}

@Suite("Statements and errors")
struct StatementTests {
    // MARK: - Preparing

    @Test func cachedStatementReturnsTheSameInstance() throws {
        try inMemoryDatabase { db throws in
            let first = try db.cachedStatement(sql: "SELECT 1")
            let second = try db.cachedStatement(sql: "SELECT 1")
            let other = try db.cachedStatement(sql: "SELECT 2")
            #expect(first === second)
            #expect(first !== other)
        }
    }

    @Test func makeStatementReturnsANewInstanceEachTime() throws {
        try inMemoryDatabase { db throws in
            let first = try db.makeStatement(sql: "SELECT 1")
            let second = try db.makeStatement(sql: "SELECT 1")
            #expect(first !== second)
        }
    }

    @Test func cachedStatementInUseByACursorIsNotReturnedAgain() throws {
        try inMemoryDatabase { db throws in
            let sql = "VALUES (1), (2), (3)"
            let statement = try db.cachedStatement(sql: sql)
            let cursor = try Int.fetchCursor(statement)
            #expect(try cursor.next() == 1)
            let other = try db.cachedStatement(sql: sql)
            #expect(other !== statement)
            #expect(try Int.fetchAll(other) == [1, 2, 3])
            #expect(try cursor.next() == 2)
        }
    }

    @Test func cachedStatementCanBeExecutedRepeatedly() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            for n in 1...3 {
                try db.cachedStatement(sql: "INSERT INTO t VALUES (?)").execute(arguments: [n])
            }
            #expect(try Int.fetchAll(db, sql: "SELECT n FROM t ORDER BY n") == [1, 2, 3])
        }
    }

    @Test func makeStatementWithTwoStatementsThrows() throws {
        try inMemoryDatabase { db throws in
            let error = #expect(throws: DatabaseError.self) { try db.makeStatement(sql: "SELECT 1; SELECT 2") }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(throws: DatabaseError.self) { try db.cachedStatement(sql: "SELECT 1; SELECT 2") }
        }
    }

    @Test func makeStatementWithInvalidSecondStatementThrows() throws {
        try inMemoryDatabase { db throws in
            #expect(throws: DatabaseError.self) { try db.makeStatement(sql: "SELECT 1; this is not SQL") }
        }
    }

    @Test func makeStatementAcceptsTrailingSemicolonsSpacesAndComments() throws {
        try inMemoryDatabase { db throws in
            let statement = try db.makeStatement(sql: "SELECT 1; ;\n\t -- a comment\n /* another */ ")
            #expect(try Int.fetchOne(statement) == 1)
        }
    }

    @Test func makeStatementWithInvalidSQLThrowsWithTheSQL() throws {
        try inMemoryDatabase { db throws in
            let error = #expect(throws: DatabaseError.self) { try db.makeStatement(sql: "SELEKT 1") }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.sql == "SELEKT 1")
            #expect(error?.message?.contains("syntax error") == true)
        }
    }

    @Test func makeStatementWithoutSQLThrows() throws {
        try inMemoryDatabase { db throws in
            #expect(throws: DatabaseError.self) { try db.makeStatement(sql: "") }
            #expect(throws: DatabaseError.self) { try db.makeStatement(sql: "-- only a comment") }
        }
    }

    @Test func executeRunsEveryStatementOfAScript() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE t (n INTEGER);
                -- a comment between statements
                INSERT INTO t VALUES (1);
                INSERT INTO t VALUES (2);
                """)
            #expect(try Int.fetchAll(db, sql: "SELECT n FROM t ORDER BY n") == [1, 2])
        }
    }

    @Test func executeStopsAtTheFirstFailingStatement() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER UNIQUE)")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t VALUES (1); INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)")
            }
            #expect(try Int.fetchAll(db, sql: "SELECT n FROM t") == [1])
        }
    }

    // MARK: - Statement properties

    @Test func statementDescribesItsColumns() throws {
        try inMemoryDatabase { db throws in
            let statement = try db.makeStatement(sql: "SELECT 1 AS a, 2 AS Bee")
            #expect(statement.sql == "SELECT 1 AS a, 2 AS Bee")
            #expect(statement.columnCount == 2)
            #expect(statement.columnNames == ["a", "Bee"])
            #expect(statement.index(ofColumn: "bee") == 1)
            #expect(statement.index(ofColumn: "c") == nil)
        }
    }

    @Test func statementTellsWhetherItIsReadOnly() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            #expect(try db.makeStatement(sql: "SELECT * FROM t").isReadonly)
            #expect(try !db.makeStatement(sql: "INSERT INTO t VALUES (1)").isReadonly)
        }
    }

    @Test func expandedSQLInlinesTheArguments() throws {
        try inMemoryDatabase { db throws in
            let statement = try db.makeStatement(sql: "SELECT ?, ?")
            try statement.setArguments([1, "it's"])
            #expect(statement.expandedSQL == "SELECT 1, 'it''s'")
        }
    }

    // MARK: - Errors

    @Test func errorDescriptionHasCodeMessageAndSQL() throws {
        try inMemoryDatabase { db throws in
            try createUniqueNames(db)
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t VALUES ('secret-name')")
            }
            let description = try #require(error?.description)
            #expect(description.hasPrefix("SQLite error 19: "))
            #expect(description.contains("UNIQUE constraint failed: t.name"))
            #expect(description.contains("INSERT INTO t VALUES ('secret-name')"))
        }
    }

    @Test func errorDescriptionHidesArgumentsByDefault() throws {
        try inMemoryDatabase { db throws in
            try createUniqueNames(db)
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["secret-name"])
            }
            let description = try #require(error?.description)
            #expect(!description.contains("secret-name"))
            #expect(description.contains("INSERT INTO t VALUES (?)"))
            // The arguments are still there for code, and for explicit debugging.
            #expect(error?.arguments == ["secret-name"])
            #expect(error?.expandedDescription.contains("secret-name") == true)
        }
    }

    @Test func errorDescriptionShowsArgumentsWhenPublic() throws {
        try inMemoryDatabase(configuration: configuration(publicStatementArguments: true)) { db throws in
            try createUniqueNames(db)
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["secret-name"])
            }
            let description = try #require(error?.description)
            #expect(description.contains(#"with arguments ["secret-name"]"#))
        }
    }

    @Test func fetchErrorDescriptionHidesArgumentsByDefault() throws {
        try inMemoryDatabase { db throws in
            db.add(function: DatabaseFunction("fail", argumentCount: 1) { _ in throw DatabaseError(message: "failed") })
            let error = #expect(throws: DatabaseError.self) {
                try Int.fetchAll(db, sql: "SELECT fail(?)", arguments: ["secret-value"])
            }
            #expect(error?.description.contains("secret-value") == false)
        }
    }

    @Test func fetchErrorDescriptionShowsArgumentsWhenPublic() throws {
        try inMemoryDatabase(configuration: configuration(publicStatementArguments: true)) { db throws in
            db.add(function: DatabaseFunction("fail", argumentCount: 1) { _ in throw DatabaseError(message: "failed") })
            let error = #expect(throws: DatabaseError.self) {
                try Int.fetchAll(db, sql: "SELECT fail(?)", arguments: ["visible-value"])
            }
            #expect(error?.description.contains("visible-value") == true)
        }
    }

    @Test func argumentErrorDescriptionHidesArgumentsByDefault() throws {
        try inMemoryDatabase { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "SELECT ?", arguments: ["secret-value", "other-secret"])
            }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.description.contains("secret") == false)
        }
    }

    @Test func argumentCountErrorsCarryNoArgumentsAsInGRDB() throws {
        try inMemoryDatabase(configuration: configuration(publicStatementArguments: true)) { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.makeStatement(sql: "SELECT ?").execute(arguments: ["visible-value", "other-value"])
            }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message == "wrong number of statement arguments: 2")
            #expect(error?.arguments == nil)
        }
    }

    @Test func databaseErrorInitializerKeepsItsFields() {
        let error = DatabaseError(
            resultCode: .SQLITE_CONSTRAINT_UNIQUE, message: "msg", sql: "SELECT ?", arguments: [1],
            publicStatementArguments: true)
        #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
        #expect(error.resultCode == .SQLITE_CONSTRAINT)
        #expect(error.message == "msg")
        #expect(error.sql == "SELECT ?")
        #expect(error.description == "SQLite error 19: msg - while executing `SELECT ?` with arguments [1]")
        #expect(DatabaseError().resultCode == .SQLITE_ERROR)
    }

    @Test func extendedResultCodeKnowsItsPrimaryCode() {
        #expect(ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY.primaryResultCode == .SQLITE_CONSTRAINT)
        #expect(ResultCode.SQLITE_CONSTRAINT.primaryResultCode == .SQLITE_CONSTRAINT)
        #expect(ResultCode.SQLITE_BUSY_SNAPSHOT.primaryResultCode == .SQLITE_BUSY)
        #expect(ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY.rawValue == 787)
    }
}

@Suite struct StatementArgumentPropertyTests {
    @Test func settingArgumentsBindsThem() throws {
        try inMemoryDatabase { db in
            let statement = try db.makeStatement(sql: "SELECT ? + ?")
            statement.arguments = [1, 2]
            #expect(statement.arguments == [1, 2])
            #expect(try Int.fetchOne(statement) == 3)
        }
    }

    @Test func uncheckedArgumentsBindNullForMissingValues() throws {
        try inMemoryDatabase { db in
            let statement = try db.makeStatement(sql: "SELECT :a, :b")
            statement.setUncheckedArguments(["a": 1])
            let row = try #require(try Row.fetchOne(statement))
            #expect(row[0] as Int == 1)
            #expect(row.hasNull(atIndex: 1))
        }
    }

    @Test func uncheckedPositionalArgumentsBindNullForMissingValuesAndIgnoreExtras() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?)")
            statement.setUncheckedArguments([1, "x"])
            try statement.execute()
            statement.setUncheckedArguments([2])          // b: NULL, not the previous "x"
            try statement.execute()
            statement.setUncheckedArguments([3, 4, 5])    // 5 is ignored
            try statement.execute()
            #expect(statement.arguments == [3, 4, 5])
            let rows = try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY a")
            #expect(rows == [["a": 1, "b": "x"], ["a": 2, "b": nil], ["a": 3, "b": 4]])
        }
    }

    @Test func cachedStatementFromALiteral() throws {
        try inMemoryDatabase { db in
            let name = "O'Brien"
            let statement = try db.cachedStatement(literal: "SELECT \(name)")
            #expect(try String.fetchOne(statement) == name)
            #expect(try db.cachedStatement(literal: "SELECT \("other")") === statement)
        }
    }

    @Test func settingWrongArgumentsTraps() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.inDatabase { db in
                let statement = try db.makeStatement(sql: "SELECT ?")
                statement.arguments = [1, 2]
            }
        }
    }
}
