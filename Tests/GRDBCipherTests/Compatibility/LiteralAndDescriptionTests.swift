import Foundation
import Testing
@testable import GRDBCipher

/// `SQL` literals built from raw SQL and arguments, and descriptions printed
/// as GRDB prints them.
@Suite struct LiteralAndDescriptionTests {
    private func withPlayers(_ body: (Database) throws -> Void) throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE player (name TEXT, score INTEGER)")
            try body(db)
        }
    }

    @Test func literalsKeepTheirPositionalArguments() throws {
        try withPlayers { db in
            try db.execute(literal: SQL(sql: "INSERT INTO player VALUES (?, ?)", arguments: ["Arthur", 42]))
            let statement = try db.makeStatement(literal: SQL(sql: "INSERT INTO player VALUES (?, ?)", arguments: ["Barbara", 7]))
            try statement.execute()
            let cached = try db.cachedStatement(literal: SQL(sql: "INSERT INTO player VALUES (?, ?)", arguments: ["Craig", 1]))
            try cached.execute()
            let rows = try Row.fetchAll(db, literal: SQL(sql: "SELECT * FROM player WHERE score > ? ORDER BY score", arguments: [5]))
            #expect(rows.map { $0["name"] as String } == ["Barbara", "Arthur"])
            #expect(try Int.fetchOne(db, literal: SQL(sql: "SELECT score FROM player WHERE name = ?", arguments: ["Craig"])) == 1)
        }
    }

    @Test func literalsKeepTheirNamedArguments() throws {
        try withPlayers { db in
            try db.execute(literal: SQL(sql: "INSERT INTO player VALUES (:name, :score)", arguments: ["name": "Arthur", "score": 42]))
            let literal: SQL = "SELECT score FROM player WHERE name = \(sql: ":name", arguments: ["name": "Arthur"])"
            #expect(try Int.fetchOne(db, literal: literal) == 42)
            #expect(try String.fetchAll(db, literal: SQL(sql: "SELECT name FROM player WHERE score = :score", arguments: ["score": 42])) == ["Arthur"])
        }
    }

    @Test func valuesPrintAsGRDBPrintsThem() {
        #expect(DatabaseValue.null.description == "NULL")
        #expect(1.databaseValue.description == "1")
        #expect(1.5.databaseValue.description == "1.5")
        // Swift's own quoting (`String(reflecting:)`), as GRDB prints text.
        #expect("O'Brien \"the\" one".databaseValue.description == #""O\'Brien \"the\" one""#)
        #expect(Data([1, 2, 3]).databaseValue.description == "Data(3 bytes)")
    }

    @Test func rowsPrintAsGRDBPrintsThem() throws {
        try inMemoryDatabase { db throws in
            let row = try Row.fetchOne(db, sql: "SELECT 'foo' AS name, 42 AS score, NULL AS bonus, 1.5 AS ratio")!
            #expect(row.description == #"[name:"foo" score:42 bonus:NULL ratio:1.5]"#)
            #expect(row.debugDescription == row.description)
        }
    }

    @Test func argumentsPrintAsGRDBPrintsThem() {
        let arguments: StatementArguments = [1, "two", nil]
        #expect(arguments.description == #"[1, "two", NULL]"#)
        let named: StatementArguments = ["b": 2, "a": "x"]
        #expect(named.description == #"["a": "x", "b": 2]"#)
    }

    @Test func statementsAndConnectionsPrintAsGRDBPrintsThem() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let statement = try db.makeStatement(sql: "  SELECT 1 ;  ")
            #expect(statement.sql == "SELECT 1")
            #expect(statement.description == "SELECT 1")
            #expect(db.description == "GRDB.DatabaseQueue")
            #expect(db.debugDescription == "<Database: GRDB.DatabaseQueue>")
        }
        var config = Configuration()
        config.label = "Players"
        try DatabaseQueue(configuration: config).inDatabase { db in
            #expect(db.description == "Players")
        }
    }

    @Test func poolConnectionsAreLabelledAsInGRDB() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"))
        #expect(try dbPool.write { $0.description } == "GRDB.DatabasePool.writer")
        #expect(try dbPool.read { $0.description } == "GRDB.DatabasePool.reader.1")
        let snapshot = try dbPool.makeSnapshot()
        #expect(try snapshot.read { $0.description } == "GRDB.DatabasePool.snapshot.1")
    }

    @Test func connectionsKeepTheLabelTheUserSet() throws {
        let dir = try TemporaryDirectory()
        let unlabelled = try DatabasePool(path: dir.path("a.sqlite"))
        #expect(try unlabelled.write { $0.configuration.label } == nil)
        #expect(try unlabelled.read { $0.configuration.label } == nil)
        #expect(unlabelled.configuration.label == nil)

        var config = Configuration()
        config.label = "Toreador"
        let dbPool = try DatabasePool(path: dir.path("b.sqlite"), configuration: config)
        #expect(try dbPool.write { "\($0.configuration.label ?? "nil") \($0.description)" } == "Toreador Toreador.writer")
        #expect(try dbPool.read { "\($0.configuration.label ?? "nil") \($0.description)" } == "Toreador Toreador.reader.1")
        let snapshot = try dbPool.makeSnapshot()
        #expect(try snapshot.read { "\($0.configuration.label ?? "nil") \($0.description)" } == "Toreador Toreador.snapshot.1")

        let dbQueue = try DatabaseQueue(configuration: config)
        #expect(try dbQueue.read { "\($0.configuration.label ?? "nil") \($0.description)" } == "Toreador Toreador")
    }

    @Test func errorDescriptionsPrintTheTrimmedSQL() throws {
        try inMemoryDatabase { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "\n  SELECT * FROM nosuchtable;\n")
            }
            // As in GRDB, a statement that fails to compile reports the SQL as written.
            #expect(error?.sql == "\n  SELECT * FROM nosuchtable;\n")
            #expect(error?.description == "SQLite error 1: no such table: nosuchtable - while executing `SELECT * FROM nosuchtable`")
        }
        let custom = DatabaseError(resultCode: .SQLITE_CONSTRAINT, sql: " SELECT 1; ")
        #expect(custom.message == "constraint failed")
        #expect(custom.description == "SQLite error 19: constraint failed - while executing `SELECT 1`")
    }

    @Test func tracesShowTheTrimmedSQLAndTriggerComments() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE t (a);
                CREATE TABLE log (a);
                CREATE TRIGGER t_log AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.a); END;
                """)
            var events: [String] = []
            var expanded: [String] = []
            db.trace { events.append($0.description); expanded.append($0.expandedDescription) }
            try db.execute(sql: "  INSERT INTO t VALUES (?) ;", arguments: [42])
            db.trace(nil)
            // SQLite reports the trigger, then each of its statements, as comments.
            #expect(events == ["INSERT INTO t VALUES (?)", "-- TRIGGER t_log", "-- INSERT INTO log VALUES (new.a)"])
            #expect(expanded == ["INSERT INTO t VALUES (42)", "-- TRIGGER t_log", "-- INSERT INTO log VALUES (new.a)"])
        }
    }

    @Test func aFunctionErrorWithoutAMessageReportsSQLitesMessage() throws {
        try inMemoryDatabase { db throws in
            db.add(function: DatabaseFunction("fail", argumentCount: 0) { _ in
                throw DatabaseError(resultCode: .SQLITE_CONSTRAINT)
            })
            let error = #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT fail()") }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.message == "constraint failed")
        }
    }

    // `fetchOne` decodes an optional: GRDB 7.10 names `Optional<Int8>` in its
    // message (checked against GRDB itself with `make compat`).
    @Test func rowDecodingErrorsReadAsGRDBsWithPublicArguments() throws {
        var configuration = Configuration()
        configuration.publicStatementArguments = true
        try inMemoryDatabase(configuration: configuration) { db throws in
            let mismatch = #expect(throws: RowDecodingError.self) {
                try Int8.fetchOne(db, sql: "SELECT ? AS score", arguments: [1000])
            }
            #expect(mismatch?.description == """
                could not decode Optional<Int8> from database value 1000 - column: "score", column index: 0, \
                row: [score:1000], sql: `SELECT ? AS score`, arguments: [1000]
                """)
            // The cursor stays alive: its rows read its statement.
            let cursor = try Row.fetchCursor(db, sql: "SELECT 'Arthur' AS name, NULL AS score")
            let row = try #require(try cursor.next())
            let null = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "score") }
            #expect(null?.description == """
                could not decode Int from database value NULL - column: "score", column index: 1, \
                row: [name:"Arthur" score:NULL], sql: `SELECT 'Arthur' AS name, NULL AS score`, arguments: []
                """)
            let missing = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "bonus") }
            #expect(missing?.description == """
                column not found: "bonus" - row: [name:"Arthur" score:NULL], \
                sql: `SELECT 'Arthur' AS name, NULL AS score`, arguments: []
                """)
        }
    }

    @Test func rowDecodingErrorsHideValuesByDefault() throws {
        try inMemoryDatabase { db throws in
            let mismatch = #expect(throws: RowDecodingError.self) {
                try Int8.fetchOne(db, sql: "SELECT ? AS score, 'Arthur' AS name", arguments: [1000])
            }
            #expect(mismatch?.description == """
                could not decode Optional<Int8> from database value <integer> - column: "score", column index: 0, \
                row: [score:<integer> name:<text>], sql: `SELECT ? AS score, 'Arthur' AS name`
                """)
            #expect(mismatch?.description.contains("1000") == false)
            // A copied row knows no connection: its values stay hidden.
            let copied: Row = ["name": "Arthur"]
            let copiedError = #expect(throws: RowDecodingError.self) { try copied.decode(Int.self, forColumn: "name") }
            #expect(copiedError?.description == """
                could not decode Int from database value <text> - column: "name", column index: 0, row: [name:<text>]
                """)
        }
    }
}
