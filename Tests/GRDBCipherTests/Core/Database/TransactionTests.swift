import Foundation
import Testing
@testable import GRDBCipher

private func values(_ db: Database) throws -> [Int] {
    try Int.fetchAll(db, sql: "SELECT n FROM t ORDER BY n")
}

private func insert(_ n: Int, _ db: Database) throws {
    try db.execute(sql: "INSERT INTO t (n) VALUES (?)", arguments: [n])
}

private struct Failure: Error {}

/// Creates `author` and `book`, whose `authorId` references `author`.
private func createAuthorsAndBooks(_ db: Database) throws {
    try db.execute(sql: """
        CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT UNIQUE);
        CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id));
        INSERT INTO author (id, name) VALUES (1, 'Arthur');
        """)
}

@Suite("Transactions")
struct TransactionTests {
    // MARK: - inTransaction

    @Test func inTransactionCommits() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            try db.inTransaction {
                #expect(db.isInsideTransaction)
                try insert(1, db)
                return .commit
            }
            #expect(!db.isInsideTransaction)
            #expect(try values(db) == [1])
        }
    }

    @Test func inTransactionRollsBack() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            try db.inTransaction {
                try insert(1, db)
                return .rollback
            }
            #expect(!db.isInsideTransaction)
            #expect(try values(db) == [])
        }
    }

    @Test func inTransactionRollsBackAndRethrowsOnError() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            #expect(throws: Failure.self) {
                try db.inTransaction {
                    try insert(1, db)
                    throw Failure()
                }
            }
            #expect(!db.isInsideTransaction)
            #expect(try values(db) == [])
        }
    }

    @Test(arguments: [Database.TransactionKind.deferred, .immediate, .exclusive])
    func inTransactionAcceptsEveryKind(kind: Database.TransactionKind) throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"))
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            try db.inTransaction(kind) {
                try insert(1, db)
                return .commit
            }
            #expect(try values(db) == [1])
        }
    }

    @Test func failedCommitRollsBackAndThrows() throws {
        try inMemoryDatabase { db throws in
            try createAuthorsAndBooks(db)
            let error = #expect(throws: DatabaseError.self) {
                try db.inTransaction {
                    try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
                    try db.execute(sql: "INSERT INTO book (authorId) VALUES (42)")
                    return .commit
                }
            }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            #expect(!db.isInsideTransaction)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book") == 0)
        }
    }

    // MARK: - Savepoints

    @Test func innermostSavepointRollbackKeepsOuterChanges() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            try db.inTransaction {
                try insert(1, db)
                try db.inSavepoint {
                    try insert(2, db)
                    try db.inSavepoint {
                        try insert(3, db)
                        try db.inSavepoint {
                            try insert(4, db)
                            return .rollback
                        }
                        #expect(try values(db) == [1, 2, 3])
                        return .commit
                    }
                    return .commit
                }
                return .commit
            }
            #expect(try values(db) == [1, 2, 3])
        }
    }

    @Test func middleSavepointRollbackUndoesItsCommittedInnerSavepoint() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            try db.inTransaction {
                try insert(1, db)
                try db.inSavepoint {
                    try insert(2, db)
                    try db.inSavepoint {
                        try insert(3, db)
                        return .commit
                    }
                    return .rollback
                }
                try insert(5, db)
                return .commit
            }
            #expect(try values(db) == [1, 5])
        }
    }

    @Test func savepointThatThrowsRollsBackOnlyItself() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            try db.inTransaction {
                try insert(1, db)
                #expect(throws: Failure.self) {
                    try db.inSavepoint {
                        try insert(2, db)
                        throw Failure()
                    }
                }
                #expect(db.isInsideTransaction)
                try insert(3, db)
                return .commit
            }
            #expect(try values(db) == [1, 3])
        }
    }

    @Test func savepointsCanBeReusedAfterRelease() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            try db.inTransaction {
                for n in 1...3 {
                    try db.inSavepoint {
                        try insert(n, db)
                        return n == 2 ? .rollback : .commit
                    }
                }
                return .commit
            }
            #expect(try values(db) == [1, 3])
        }
    }

    @Test func savepointOutsideATransactionOpensOneAndCommits() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            #expect(!db.isInsideTransaction)
            try db.inSavepoint {
                #expect(db.isInsideTransaction)
                try insert(1, db)
                return .commit
            }
            #expect(!db.isInsideTransaction)
            #expect(try values(db) == [1])
        }
    }

    @Test func savepointOutsideATransactionRollsBack() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            try db.inSavepoint {
                try insert(1, db)
                return .rollback
            }
            #expect(!db.isInsideTransaction)
            #expect(try values(db) == [])
        }
    }

    @Test func savepointInsideAManualTransaction() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            try db.beginTransaction()
            try insert(1, db)
            try db.inSavepoint {
                try insert(2, db)
                return .rollback
            }
            #expect(db.isInsideTransaction)
            try db.commit()
            #expect(try values(db) == [1])
        }
    }

    // MARK: - Manual transactions

    @Test func beginAndCommit() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            #expect(!db.isInsideTransaction)
            try db.beginTransaction()
            #expect(db.isInsideTransaction)
            try insert(1, db)
            try db.commit()
            #expect(!db.isInsideTransaction)
            #expect(try values(db) == [1])
        }
    }

    @Test func beginAndRollback() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            try db.beginTransaction(.immediate)
            try insert(1, db)
            try db.rollback()
            #expect(!db.isInsideTransaction)
            #expect(try values(db) == [])
        }
    }

    @Test func beginInsideATransactionThrows() throws {
        try inMemoryDatabase { db throws in
            try db.beginTransaction()
            let error = #expect(throws: DatabaseError.self) { try db.beginTransaction() }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(db.isInsideTransaction)
            try db.rollback()
        }
    }

    @Test func commitWithoutATransactionThrowsAndRollbackDoesNothing() throws {
        try inMemoryDatabase { db throws in
            #expect(throws: DatabaseError.self) { try db.commit() }
            // As in GRDB: SQLite may have rolled back on its own already.
            try db.rollback()
        }
    }

    @Test func isInsideTransactionFollowsSQLTransactionStatements() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "BEGIN")
            #expect(db.isInsideTransaction)
            try db.execute(sql: "COMMIT")
            #expect(!db.isInsideTransaction)
            try db.execute(sql: "SAVEPOINT s")
            #expect(db.isInsideTransaction)
            try db.execute(sql: "RELEASE s")
            #expect(!db.isInsideTransaction)
        }
    }

    // MARK: - Changes

    @Test func lastInsertedRowIDIsTheRowidOfTheLastInsert() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER)")
            try db.execute(sql: "INSERT INTO t (n) VALUES (1)")
            #expect(db.lastInsertedRowID == 1)
            try db.execute(sql: "INSERT INTO t (id, n) VALUES (42, 2)")
            #expect(db.lastInsertedRowID == 42)
            try db.execute(sql: "INSERT INTO t (n) VALUES (3)")
            #expect(db.lastInsertedRowID == 43)
        }
    }

    @Test func changesCountIsTheNumberOfRowsChangedByTheLastStatement() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            try db.execute(sql: "INSERT INTO t VALUES (1), (2), (3), (4)")
            #expect(db.changesCount == 4)
            try db.execute(sql: "UPDATE t SET n = n + 10 WHERE n > 1")
            #expect(db.changesCount == 3)
            try db.execute(sql: "DELETE FROM t WHERE n = 1")
            #expect(db.changesCount == 1)
        }
    }

    @Test func totalChangesCountAccumulates() throws {
        try inMemoryDatabase { db throws in
            let start = db.totalChangesCount
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            try db.execute(sql: "INSERT INTO t VALUES (1), (2)")
            try db.execute(sql: "UPDATE t SET n = 0")
            #expect(db.totalChangesCount - start == 4)
        }
    }

    // MARK: - Constraints

    @Test func foreignKeysAreEnforcedByDefault() throws {
        try inMemoryDatabase { db throws in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
    }

    @Test func foreignKeysCanBeDisabled() throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        try inMemoryDatabase(configuration: configuration) { db throws in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == false)
            try createAuthorsAndBooks(db)
            try db.execute(sql: "INSERT INTO book (authorId) VALUES (42)")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book") == 1)
        }
    }

    @Test func foreignKeyViolationIsCaughtByItsExtendedCode() throws {
        try inMemoryDatabase { db throws in
            try createAuthorsAndBooks(db)
            var caught = false
            do {
                try db.execute(sql: "INSERT INTO book (authorId) VALUES (?)", arguments: [42])
            } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
                caught = true
            }
            #expect(caught)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book") == 0)
        }
    }

    @Test func foreignKeyViolationIsCaughtByThePrimaryCode() throws {
        try inMemoryDatabase { db throws in
            try createAuthorsAndBooks(db)
            var caught = false
            do {
                try db.execute(sql: "INSERT INTO book (authorId) VALUES (?)", arguments: [42])
            } catch DatabaseError.SQLITE_CONSTRAINT {
                caught = true
            }
            #expect(caught)
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO book (authorId) VALUES (?)", arguments: [42])
            }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        }
    }

    @Test func uniqueViolationDoesNotMatchTheForeignKeyPattern() throws {
        try inMemoryDatabase { db throws in
            try createAuthorsAndBooks(db)
            var matched: String?
            do {
                try db.execute(sql: "INSERT INTO author (name) VALUES ('Arthur')")
            } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
                matched = "foreign key"
            } catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE {
                matched = "unique"
            } catch DatabaseError.SQLITE_CONSTRAINT {
                matched = "other constraint"
            }
            #expect(matched == "unique")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO author (name) VALUES ('Arthur')")
            }
            #expect(error.map { DatabaseError.SQLITE_CONSTRAINT ~= $0 } == true)
            #expect(error.map { DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY ~= $0 } == false)
        }
    }

    @Test func resultCodePatternsIgnoreOtherErrors() {
        #expect(!(DatabaseError.SQLITE_CONSTRAINT ~= Failure()))
        let error = DatabaseError(resultCode: .SQLITE_BUSY_TIMEOUT)
        #expect(DatabaseError.SQLITE_BUSY ~= error)
        #expect(DatabaseError.SQLITE_BUSY_TIMEOUT ~= error)
        #expect(!(DatabaseError.SQLITE_BUSY_SNAPSHOT ~= error))
        #expect(!(DatabaseError.SQLITE_CONSTRAINT ~= error))
    }

    // MARK: - Double-quoted string literals

    @Test func doubleQuotedStringLiteralsAreRejectedByDefault() throws {
        try inMemoryDatabase { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try String.fetchOne(db, sql: "SELECT \"nosuchcolumn\"")
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message?.contains("nosuchcolumn") == true)
            try db.execute(sql: "CREATE TABLE t (name TEXT)")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t (name) VALUES (\"typo\")")
            }
        }
    }

    @Test func doubleQuotedStringLiteralsAreAcceptedWhenConfigured() throws {
        var configuration = Configuration()
        configuration.acceptsDoubleQuotedStringLiterals = true
        try inMemoryDatabase(configuration: configuration) { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT \"nosuchcolumn\"") == "nosuchcolumn")
        }
    }

    @Test func doubleQuotedIdentifiersStillWork() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE \"t\" (\"name\" TEXT)")
            try db.execute(sql: "INSERT INTO t (name) VALUES ('a')")
            #expect(try String.fetchOne(db, sql: "SELECT \"name\" FROM \"t\"") == "a")
        }
    }
}
