import Foundation
import Testing
@testable import GRDBCipher

/// Transactions as GRDB 7 runs them: writes begin IMMEDIATE, a rollback
/// outside a transaction does nothing, a transaction that SQLite aborted
/// reports SQLITE_ABORT, savepoints are named `grdb`.
@Suite struct TransactionBehaviourTests {
    /// The SQL of the statements `body` runs, as traced.
    private func tracedSQL(_ db: Database, _ body: () throws -> Void) rethrows -> [String] {
        var statements: [String] = []
        db.trace { statements.append($0.description) }
        defer { db.trace(nil) }
        try body()
        return statements
    }

    @Test func writesAndTransactionsWithoutAKindBeginImmediate() throws {
        let dbQueue = try DatabaseQueue()
        var statements: [String] = []
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            db.trace { statements.append($0.description) }
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        try dbQueue.inDatabase { db in
            try db.inTransaction { .commit }
            try db.beginTransaction()
            try db.commit()
            try db.inSavepoint { .commit }
        }
        #expect(statements == [
            "BEGIN IMMEDIATE TRANSACTION", "INSERT INTO t VALUES (1)", "COMMIT TRANSACTION",
            "BEGIN IMMEDIATE TRANSACTION", "COMMIT TRANSACTION",
            "BEGIN IMMEDIATE TRANSACTION", "COMMIT TRANSACTION",
            "BEGIN IMMEDIATE TRANSACTION", "COMMIT TRANSACTION",
        ])
    }

    @Test func readOnlyAccessesBeginDeferred() throws {
        let dbQueue = try DatabaseQueue()
        let statements = try dbQueue.inDatabase { db in
            try tracedSQL(db) {
                try db.readOnly { try db.inTransaction { .commit } }
            }
        }
        #expect(statements == ["PRAGMA query_only = 1", "BEGIN DEFERRED TRANSACTION", "COMMIT TRANSACTION", "PRAGMA query_only = 0"])
        // A queue's read access begins its transaction DEFERRED.
        var readStatements: [String] = []
        dbQueue.inDatabase { db in db.trace { readStatements.append($0.description) } }
        try dbQueue.read { _ in }
        #expect(readStatements.contains("BEGIN DEFERRED TRANSACTION"))
        #expect(!readStatements.contains { $0.contains("IMMEDIATE") })
    }

    @Test func anImmediateWriteWaitsForTheLockInsteadOfFailingOnTheUpgrade() throws {
        // Two connections on one rollback-journal file. With DEFERRED, the
        // reader-turned-writer would fail with SQLITE_BUSY on its upgrade
        // whatever the busy timeout; IMMEDIATE takes the lock first.
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        var config = keyed("secret")
        config.busyMode = .timeout(2)
        let first = try DatabaseQueue(path: path, configuration: config)
        let second = try DatabaseQueue(path: path, configuration: config)
        try first.write { try $0.execute(sql: "CREATE TABLE t (a)") }
        let firstIsWriting = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? first.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                firstIsWriting.signal()
                Thread.sleep(forTimeInterval: 0.3)
            }
            done.signal()
        }
        firstIsWriting.wait()
        try second.write { db in
            // Under DEFERRED this read would take a shared lock that
            // deadlocks with the first writer's pending commit.
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
            try db.execute(sql: "INSERT INTO t VALUES (2)")
        }
        done.wait()
        #expect(try second.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 2)
    }

    @Test func rollbackOutsideATransactionDoesNothing() throws {
        try inMemoryDatabase { db throws in
            #expect(!db.isInsideTransaction)
            try db.rollback()
            #expect(!db.isInsideTransaction)
        }
    }

    @Test func aStatementAfterSQLiteAbortedTheTransactionThrowsSQLiteAbort() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t (a)") }
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                try db.execute(sql: "ROLLBACK")
                try db.execute(sql: "INSERT INTO t VALUES (2)")
            }
        }
        #expect(error?.resultCode == .SQLITE_ABORT)
        #expect(error?.message == "Transaction was aborted")
        #expect(error?.sql == "INSERT INTO t VALUES (2)")
        // Neither insert was committed, the second never ran.
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test func committingATransactionThatSQLiteAbortedThrowsSQLiteAbort() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            let error = #expect(throws: DatabaseError.self) {
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                    try db.execute(sql: "ROLLBACK")
                    return .commit
                }
            }
            #expect(error?.resultCode == .SQLITE_ABORT)
            #expect(error?.message == "Transaction was aborted")
            #expect(!db.isInsideTransaction)
            // Outside the block, statements run again.
            try db.execute(sql: "INSERT INTO t VALUES (2)")
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t") == [2])
        }
    }

    @Test func theFirstErrorIsThrown() throws {
        struct Failure: Error {}
        try inMemoryDatabase { db throws in
            #expect(throws: Failure.self) {
                try db.inTransaction {
                    try db.execute(sql: "ROLLBACK")
                    throw Failure()
                }
            }
        }
    }

    @Test func savepointsAreNamedAsGRDBNamesThem() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            let statements = try tracedSQL(db) {
                try db.inTransaction {
                    try db.inSavepoint { .commit }
                    try db.inSavepoint { .rollback }
                    return .commit
                }
            }
            #expect(statements == [
                "BEGIN IMMEDIATE TRANSACTION",
                "SAVEPOINT grdb", "RELEASE SAVEPOINT grdb",
                "SAVEPOINT grdb", "ROLLBACK TRANSACTION TO SAVEPOINT grdb", "RELEASE SAVEPOINT grdb",
                "COMMIT TRANSACTION",
            ])
        }
    }

    @Test func readOnlyForbidsWritesAndNests() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            let error = #expect(throws: DatabaseError.self) {
                try db.readOnly {
                    try db.readOnly { _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
                    // Still read-only after the inner call.
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                }
            }
            #expect(error?.resultCode == .SQLITE_READONLY)
            // Writable again afterwards.
            try db.execute(sql: "INSERT INTO t VALUES (2)")
            #expect(try db.readOnly { try Int.fetchOne(db, sql: "SELECT a FROM t") } == 2)
        }
    }
}

/// Review findings: reads as transaction blocks, statements without their
/// arguments, reads inside writes.
@Suite struct AccessBehaviourTests {
    @Test func aReadIsATransactionBlockThatCommits() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: keyed("secret"))
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t (a)") }
        var statements: [String] = []
        try dbPool.read { db in
            db.trace { statements.append($0.description) }
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
        }
        try dbPool.read { db in db.trace(nil) }
        // Then the next read's start on the same reader: as in GRDB.
        #expect(statements == ["SELECT COUNT(*) FROM t", "COMMIT TRANSACTION", "BEGIN DEFERRED TRANSACTION", "PRAGMA schema_version"])
        let error = #expect(throws: DatabaseError.self) {
            try dbPool.read { db in
                try db.execute(sql: "ROLLBACK")
                _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
            }
        }
        #expect(error?.resultCode == .SQLITE_ABORT)
    }

    @Test func aStatementWithParametersDoesNotRunWithoutArguments() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            let insert = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?)")
            let error = #expect(throws: DatabaseError.self) { try insert.execute() }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message == "wrong number of statement arguments: 0")
            let select = try db.makeStatement(sql: "SELECT * FROM t WHERE a = :a")
            #expect(throws: DatabaseError.self) { try Row.fetchAll(select) }
            // Once bound, the arguments stay for later executions, as in GRDB.
            try insert.execute(arguments: [1, 2])
            try insert.execute()
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 2)
        }
    }

    @Test func argumentAndStatementErrorsReadAsGRDBs() throws {
        try inMemoryDatabase { db throws in
            let error = #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT ?, ?", arguments: [1]) }
            #expect(error?.message == "wrong number of statement arguments: 1")
            let named = #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT :a", arguments: ["b": 1]) }
            #expect(named?.message == "missing statement argument: a")
            let empty = #expect(throws: DatabaseError.self) { try db.makeStatement(sql: " ") }
            #expect(empty?.resultCode == .SQLITE_ERROR)
            #expect(empty?.message == "empty statement")
            let multiple = #expect(throws: DatabaseError.self) { try db.makeStatement(sql: "SELECT 1; SELECT 2") }
            #expect(multiple?.resultCode == .SQLITE_MISUSE)
            #expect(multiple?.message?.hasPrefix("Multiple statements found.") == true)
        }
    }

    @Test func aTransactionLeftOpenTrapsAsInGRDB() async {
        await #expect(processExitsWith: .failure) {
            // A thrown error exits with success: only a trap fails.
            do {
                let dbQueue = try DatabaseQueue()
                try dbQueue.inDatabase { try $0.execute(sql: "BEGIN") }
            } catch {
                exit(0)
            }
        }
    }

    @Test func aTransactionLeftOpenOnAReadOnlyConnectionTrapsToo() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try await DatabaseQueue(path: path, configuration: keyed("secret")).write { try $0.execute(sql: "CREATE TABLE t (a)") }
        await #expect(processExitsWith: .failure) { [path = path as String] in
            do {
                var configuration = keyed("secret")
                configuration.readonly = true
                let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
                try dbQueue.inDatabase { try $0.execute(sql: "BEGIN; SELECT * FROM t") }
            } catch {
                exit(0)
            }
        }
    }

    @Test func allowsUnsafeTransactionsKeepsAReadOnlyTransactionOpen() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try DatabaseQueue(path: path, configuration: keyed("secret")).write { try $0.execute(sql: "CREATE TABLE t (a)") }
        var configuration = keyed("secret")
        configuration.readonly = true
        configuration.allowsUnsafeTransactions = true
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        try dbQueue.inDatabase { try $0.execute(sql: "BEGIN") }
        #expect(dbQueue.inDatabase { $0.isInsideTransaction })
        try dbQueue.inDatabase { try $0.commit() }
    }

    @Test func anInterruptDoesNotStopARollback() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1), (2), (3)")
            try db.beginTransaction()
            try db.execute(sql: "INSERT INTO t VALUES (4)")
            // A statement still running keeps the connection interrupted.
            let cursor = try Int.fetchCursor(db, sql: "SELECT a FROM t")
            _ = try cursor.next()
            db.interrupt()
            try db.rollback()
            #expect(!db.isInsideTransaction)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 3)
        }
    }

    @Test func anInterruptDoesNotLeaveTheConnectionReadOnly() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1), (2)")
            try db.readOnly {
                let cursor = try Int.fetchCursor(db, sql: "SELECT a FROM t")
                _ = try cursor.next()
                db.interrupt()
            }
            try db.execute(sql: "INSERT INTO t VALUES (3)")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 3)
        }
    }

    @Test func extraArgumentsAreReportedAfterEveryStatementRan() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)", arguments: [1, 2, 3])
            }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message == "wrong number of statement arguments: 3")
            #expect(error?.sql == nil)
            // Both statements ran before the error, as in GRDB.
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") == [1, 2])

            // Too few: the count is what the failing statement was offered.
            let tooFew = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "DELETE FROM t WHERE a = ?; SELECT ?, ?", arguments: [1, 2])
            }
            #expect(tooFew?.message == "wrong number of statement arguments: 1")
            #expect(tooFew?.sql == "SELECT ?, ?")
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t") == [2])
        }
    }

    @Test func aPoolReadMayRunInsideAWrite() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: keyed("secret"))
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        let counts = try dbPool.write { db in
            try db.execute(sql: "INSERT INTO t VALUES (2)")
            // The read sees what is committed, not this uncommitted row.
            let committed = try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t")! }
            return (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!, committed)
        }
        #expect(counts.0 == 2 && counts.1 == 1)
    }
}
