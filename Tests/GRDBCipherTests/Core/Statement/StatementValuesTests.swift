import CSQLCipher
import Foundation
import Testing
@testable import GRDBCipher

/// A type that relies on the default `bind(to:at:)`, through `databaseValue`.
private struct Email: DatabaseValueConvertible, Equatable {
    var address: String
    var databaseValue: DatabaseValue { address.lowercased().databaseValue }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Email? {
        String.fromDatabaseValue(dbValue).map(Email.init)
    }
}

/// A type that binds itself, and counts how often it does.
private final class CountingValue: DatabaseValueConvertible, @unchecked Sendable {  // safe: used on one thread
    var bindCount = 0
    var databaseValue: DatabaseValue { 7.databaseValue }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> CountingValue? { nil }
    func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        bindCount += 1
        return sqlite3_bind_int64(sqliteStatement, index, 7)
    }
}

/// A value whose binding fails with a given code, without binding anything.
private struct FailingValue: DatabaseValueConvertible {
    var code: CInt
    var databaseValue: DatabaseValue { .null }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FailingValue? { nil }
    func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt { code }
}

private func publicArguments() -> Configuration {
    var configuration = Configuration()
    configuration.publicStatementArguments = true
    return configuration
}

@Suite("Statement.execute(values:)")
struct StatementValuesTests {
    @Test func bindsEachValueWithItsOwnType() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b, c, d, e, f, g, h)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
            let uuid = UUID()
            try statement.execute(
                values: Int8(-3), UInt32.max, 2.5, Float(0.5), true, "text", Data([0, 1]), uuid)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM t"))
            #expect(row[0] as Int == -3)
            #expect(row[1] as Int64 == 4_294_967_295)
            #expect(row[2] as Double == 2.5)
            #expect(row[3] as Double == 0.5)
            #expect(row[4] as Int == 1)
            #expect(row[5] as String == "text")
            #expect(row[6] as Data == Data([0, 1]))
            #expect(row[7] as UUID == uuid)
            let types = try String.fetchAll(db, sql: """
                SELECT typeof(a) || typeof(b) || typeof(c) || typeof(d) || typeof(e) || typeof(f) || typeof(g) || typeof(h) FROM t
                """)
            #expect(types == ["integerintegerrealrealintegertextblobblob"])
        }
    }

    @Test func bindsNullForNilAndValuesOfCustomTypes() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b, c, d)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?, ?, ?)")
            try statement.execute(
                values: Int?.none, String?.some("x"), Email(address: "A@B.C"), DatabaseValue(storage: .double(1.5)))
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM t"))
            #expect(row[0] == nil)
            #expect(row[1] as String == "x")
            #expect(row[2] as Email == Email(address: "a@b.c"))
            #expect(row[3] as Double == 1.5)
        }
    }

    @Test func callsTheBindingOfTheValueType() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            let value = CountingValue()
            try db.makeStatement(sql: "INSERT INTO t VALUES (?)").execute(values: value)
            #expect(value.bindCount == 1)
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t") == [7])
        }
    }

    @Test func runsACachedStatementManyTimes() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a INTEGER, b TEXT)")
            for n in 1...100 {
                try db.cachedStatement(sql: "INSERT INTO t VALUES (?, ?)").execute(values: n, "#\(n)")
            }
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 100)
            #expect(try Int.fetchOne(db, sql: "SELECT sum(a) FROM t") == 5050)
            #expect(try String.fetchOne(db, sql: "SELECT b FROM t WHERE a = 42") == "#42")
        }
    }

    @Test func namedAndNumberedParametersTakeTheValuesInOrder() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b, c)")
            // `:x` is parameter 1 (twice), `?` parameter 2, `?3` parameter 3.
            try db.makeStatement(sql: "INSERT INTO t VALUES (:x, ?, :x || ?3)").execute(values: 1, 2, 3)
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM t") == ["a": 1, "b": 2, "c": "13"])
        }
    }

    @Test func numberedParametersNeedAValueForEachIndex() throws {
        try inMemoryDatabase { db throws in
            let statement = try db.makeStatement(sql: "SELECT ?1, ?3")
            let error = #expect(throws: DatabaseError.self) { try statement.execute(values: 1, 3) }
            #expect(error?.message == "wrong number of statement arguments: 2")
            try statement.execute(values: 1, 2, 3)
            #expect(try Row.fetchOne(statement) == [ "?1": 1, "?3": 3])
        }
    }

    @Test func keysInStatementsStayOutOfErrors() throws {
        try inMemoryDatabase(configuration: publicArguments()) { db throws in
            let statement = try db.makeStatement(sql: "ATTACH DATABASE ? AS other KEY ?")
            let error = #expect(throws: DatabaseError.self) {
                try statement.execute(values: "/nonexistent-folder/other.sqlite", "attached-secret-key")
            }
            #expect(error?.arguments == nil)
            #expect(!"\(try #require(error))".contains("attached-secret-key"))
        }
    }

    @Test func wrongNumberOfValuesThrowsAndRunsNothing() throws {
        try inMemoryDatabase(configuration: publicArguments()) { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?)")
            let tooFew = #expect(throws: DatabaseError.self) { try statement.execute(values: 1) }
            #expect(tooFew?.resultCode == .SQLITE_MISUSE)
            #expect(tooFew?.message == "wrong number of statement arguments: 1")
            #expect(tooFew?.arguments == [1])
            let tooMany = #expect(throws: DatabaseError.self) { try statement.execute(values: 1, 2, 3) }
            #expect(tooMany?.message == "wrong number of statement arguments: 3")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 0)
        }
    }

    @Test func failedStepThrowsWithTheValuesAndLeavesTheStatementUsable() throws {
        try inMemoryDatabase(configuration: publicArguments()) { db throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?)")
            try statement.execute(values: 1, "first")
            let error = #expect(throws: DatabaseError.self) { try statement.execute(values: 1, "again") }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.sql == "INSERT INTO t VALUES (?, ?)")
            #expect(error?.arguments == [1, "again"])
            try statement.execute(values: 2, "second")
            #expect(try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY id") == ["first", "second"])
        }
    }

    @Test func errorsHideTheValuesByDefault() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (name TEXT UNIQUE)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?)")
            try statement.execute(values: "secret-name")
            let error = #expect(throws: DatabaseError.self) { try statement.execute(values: "secret-name") }
            #expect(!"\(try #require(error))".contains("secret-name"))
            #expect(error?.arguments == ["secret-name"])
        }
    }

    @Test func failedBindReportsSQLiteErrorAndRunsNothing() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b, c)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?, ?)")
            // Texts longer than 100 bytes cannot be bound any longer.
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, 100)
            let error = #expect(throws: DatabaseError.self) {
                try statement.execute(values: 1, String(repeating: "x", count: 200), 3)
            }
            #expect(error?.resultCode == .SQLITE_TOOBIG)
            #expect(error?.message == "string or blob too big")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 0)
            try statement.execute(values: 1, "short", 3)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 1)
        }
    }

    @Test func severalFailedBindsReportTheFirstOne() throws {
        try inMemoryDatabase(configuration: publicArguments()) { db throws in
            let statement = try db.makeStatement(sql: "SELECT ?, ?, ?")
            // Or-ed together, these two codes would read as a third one.
            let error = #expect(throws: DatabaseError.self) {
                try statement.execute(
                    values: 1, FailingValue(code: SQLITE_TOOBIG), FailingValue(code: SQLITE_RANGE))
            }
            #expect(error?.resultCode == .SQLITE_TOOBIG)
            #expect(error?.arguments == [1, nil, nil])
        }
    }

    @Test func resetsAStatementThatIsStillRunning() throws {
        try inMemoryDatabase { db throws in
            let statement = try db.makeStatement(sql: "SELECT ? UNION ALL SELECT 2")
            #expect(try statement.step() == true)
            try statement.execute(values: 1)
            #expect(try Int.fetchAll(statement, arguments: [5]) == [5, 2])
        }
    }

    @Test func forgetsThePreviousArguments() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?)")
            try statement.execute(arguments: [1])
            #expect(statement.arguments == [1])
            try statement.execute(values: 2)
            #expect(statement.arguments.isEmpty)
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t") == [1, 2])
        }
    }

    @Test func closedConnectionThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let statement = try db.makeStatement(sql: "SELECT ?")
            db.closeEvenIfBusy()
            let error = #expect(throws: DatabaseError.self) { try statement.execute(values: 1) }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            // GRDB's message (SQLite's when there is no connection), and ours in the hint.
            #expect(error?.message == "out of memory")
            #expect(error?.sql == "SELECT ?")
            #expect(error?.hint?.contains("closed") == true)
        }
    }

    @Test func executeWithoutValuesStillMeansExecuteWithoutArguments() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?)")
            try statement.execute(values: 3)
            // No values at all: `execute(arguments: nil)`, which keeps the bindings.
            try statement.execute()
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t") == [3, 3])
        }
    }

    @Test func bindingAnUnsignedValueAboveInt64MaxTraps() async {
        await #expect(processExitsWith: .failure) {
            // A thrown error exits with success: only a trap fails.
            do {
                let dbQueue = try DatabaseQueue()
                try dbQueue.inDatabase { db in
                    try db.makeStatement(sql: "SELECT ?").execute(values: UInt64.max)
                }
            } catch {
                exit(0)
            }
        }
    }
}
