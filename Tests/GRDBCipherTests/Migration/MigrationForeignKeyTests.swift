import Foundation
import Testing
@testable import GRDBCipher

@Suite struct MigrationForeignKeyTests {
    /// author(id) and book(authorId) referring to it, with one book.
    private func makeLibrary() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT);
                INSERT INTO author VALUES (1, 'Melville');
                INSERT INTO book VALUES (1, 1, 'Moby-Dick');
                """)
        }
        return dbQueue
    }

    private func foreignKeysEnabled(_ dbQueue: DatabaseQueue) throws -> Bool {
        try dbQueue.read { try Bool.fetchOne($0, sql: "PRAGMA foreign_keys") } ?? false
    }

    @Test func deferredChecksLetAMigrationRecreateAReferencedTable() throws {
        let dbQueue = try makeLibrary()
        let inside = LockedValue<Bool?>(nil)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("requireName") { db throws in
            inside.withLock { $0 = try? Bool.fetchOne(db, sql: "PRAGMA foreign_keys") }
            try db.execute(sql: """
                CREATE TABLE new_author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                INSERT INTO new_author SELECT * FROM author;
                DROP TABLE author;
                ALTER TABLE new_author RENAME TO author;
                """)
        }
        try migrator.migrate(dbQueue)

        #expect(inside.withLock { $0 } == false)
        #expect(try foreignKeysEnabled(dbQueue))
        try dbQueue.read { db throws in
            // With foreign keys on, DROP TABLE author would have failed.
            #expect(try String.fetchAll(db, sql: "SELECT title FROM book JOIN author ON author.id = book.authorId")
                == ["Moby-Dick"])
            #expect(try db.columns(in: "author").first { $0.name == "name" }?.isNotNull == true)
        }
    }

    @Test func aDeferredViolationNamesTheTableAndRowAndRollsBack() throws {
        let dbQueue = try makeLibrary()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("orphan") { db throws in
            try db.execute(sql: "CREATE TABLE extra (a)")
            try db.execute(sql: "INSERT INTO book VALUES (2, 99, 'Orphan')")
        }
        let error = #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue) }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(error?.message == """
            FOREIGN KEY constraint violation - from book(authorId) to author(id), \
            in [id:2 authorId:99 title:"Orphan"]
            """)
        #expect(try foreignKeysEnabled(dbQueue))
        try dbQueue.read { db throws in
            #expect(try schemaNames(db) == ["table author", "table book", "table grdb_migrations"])
            #expect(try recordedMigrations(db) == [])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM book") == 1)
        }
    }

    @Test func immediateChecksKeepForeignKeysOnAndFailTheStatement() throws {
        let dbQueue = try makeLibrary()
        let inside = LockedValue<Bool?>(nil)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("orphan", foreignKeyChecks: .immediate) { db throws in
            inside.withLock { $0 = try? Bool.fetchOne(db, sql: "PRAGMA foreign_keys") }
            try db.execute(sql: "CREATE TABLE extra (a)")
            try db.execute(sql: "INSERT INTO book VALUES (2, 99, 'x')")
        }
        let error = #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue) }
        #expect(inside.withLock { $0 } == true)
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(error?.sql == "INSERT INTO book VALUES (2, 99, 'x')")
        #expect(try foreignKeysEnabled(dbQueue))
        try dbQueue.read { db throws in
            #expect(try schemaNames(db) == ["table author", "table book", "table grdb_migrations"])
            #expect(try recordedMigrations(db) == [])
        }
    }

    @Test func disablingDeferredChecksAppliesToLaterMigrationsOnly() throws {
        let dbQueue = try makeLibrary()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("checked") { _ in }
        migrator = migrator.disablingDeferredForeignKeyChecks()
        migrator.registerMigration("unchecked") { db throws in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == false)
            try db.execute(sql: "INSERT INTO book VALUES (2, 99, 'orphan')")
        }
        try migrator.migrate(dbQueue)
        #expect(try foreignKeysEnabled(dbQueue))
        try dbQueue.read { db throws in
            // Unsafe, as documented: the violation is committed.
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM pragma_foreign_key_check") == 1)
            #expect(try recordedMigrations(db) == ["checked", "unchecked"])
        }

        // A migration registered before the call keeps its check.
        var checkedFirst = DatabaseMigrator()
        checkedFirst.registerMigration("checked") { db throws in
            try db.execute(sql: "INSERT INTO book VALUES (3, 98, 'orphan')")
        }
        _ = checkedFirst.disablingDeferredForeignKeyChecks()
        let other = try makeLibrary()
        #expect(throws: DatabaseError.self) { try checkedFirst.migrate(other) }
    }

    @Test func anUncheckedMigrationCanCheckItsOwnTables() throws {
        let dbQueue = try makeLibrary()
        var migrator = DatabaseMigrator().disablingDeferredForeignKeyChecks()
        migrator.registerMigration("partiallyChecked") { db throws in
            try db.execute(sql: "INSERT INTO book VALUES (2, 99, 'orphan')")
            try db.checkForeignKeys(in: "book")
        }
        let error = #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue) }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(try foreignKeysEnabled(dbQueue))
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM book") == 1)
            #expect(try recordedMigrations(db) == [])
        }
    }

    @Test func foreignKeysComeBackOnAfterAThrowingMigration() throws {
        let dbQueue = try makeLibrary()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("fails") { _ in throw MigrationTestError(name: "fails") }
        #expect(throws: MigrationTestError(name: "fails")) { try migrator.migrate(dbQueue) }
        #expect(try foreignKeysEnabled(dbQueue))
    }

    @Test func aConnectionWithoutForeignKeysMigratesWithoutChecks() throws {
        var config = Configuration()
        config.foreignKeysEnabled = false
        let dbQueue = try DatabaseQueue(configuration: config)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("orphan") { db throws in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id));
                INSERT INTO book VALUES (1, 99);
                """)
        }
        try migrator.migrate(dbQueue)
        #expect(try foreignKeysEnabled(dbQueue) == false)
        try dbQueue.read { db throws in #expect(try recordedMigrations(db) == ["orphan"]) }
    }
}
