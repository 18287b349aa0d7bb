import CSQLCipher
import Foundation
import Testing
@testable import GRDBCipher

@Suite struct SchemaChangeTests {
    private func migrator(_ definitions: [(String, String)]) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for (identifier, sql) in definitions {
            migrator.registerMigration(identifier) { db throws in try db.execute(sql: sql) }
        }
        return migrator
    }

    @Test func unchangedMigrationsHaveNoSchemaChanges() throws {
        let dbQueue = try DatabaseQueue()
        let migrator = migrator([("v1", "CREATE TABLE t (a)"), ("v2", "CREATE INDEX t_a ON t(a)")])
        try dbQueue.read { db throws in #expect(try migrator.hasSchemaChanges(db) == false) }
        try migrator.migrate(dbQueue, upTo: "v1")
        try dbQueue.read { db throws in #expect(try migrator.hasSchemaChanges(db) == false) }
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in #expect(try migrator.hasSchemaChanges(db) == false) }
    }

    @Test func anEditedMigrationIsASchemaChange() throws {
        let dbQueue = try DatabaseQueue()
        try migrator([("v1", "CREATE TABLE t (a)")]).migrate(dbQueue)
        let edited = migrator([("v1", "CREATE TABLE t (a, b)")])
        try dbQueue.read { db throws in #expect(try edited.hasSchemaChanges(db)) }
    }

    @Test func aSchemaChangedOutsideMigrationsIsASchemaChange() throws {
        let dbQueue = try DatabaseQueue()
        let migrator = migrator([("v1", "CREATE TABLE t (a)")])
        try migrator.migrate(dbQueue)
        try dbQueue.write { db throws in try db.execute(sql: "CREATE INDEX stray ON t(a)") }
        try dbQueue.read { db throws in #expect(try migrator.hasSchemaChanges(db)) }
    }

    @Test func aRemovedMigrationIsASchemaChange() throws {
        let dbQueue = try DatabaseQueue()
        try migrator([("v1", "CREATE TABLE t (a)"), ("v2", "CREATE TABLE u (a)")]).migrate(dbQueue)
        let shorter = migrator([("v1", "CREATE TABLE t (a)")])
        try dbQueue.read { db throws in #expect(try shorter.hasSchemaChanges(db)) }
    }

    @Test func theExpectedSchemaIsBuiltInAnEncryptedFileThatIsThenRemoved() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: keyed("secret"))
        // (file of the main database, whether it was encrypted once v1 committed)
        let files = LockedValue<[(String, Bool)]>([])
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db throws in try db.execute(sql: "CREATE TABLE t (a)") }
        migrator.registerMigration("v2") { db throws in
            let file = try String.fetchOne(db, sql: "SELECT file FROM pragma_database_list WHERE name = 'main'") ?? ""
            let encrypted = try !file.isEmpty && DatabaseFile.isEncrypted(atPath: file)
            files.withLock { $0.append((file, encrypted)) }
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in #expect(try migrator.hasSchemaChanges(db) == false) }

        let recorded = files.withLock { $0 }
        try #require(recorded.count == 2)
        #expect(recorded[0].0.hasSuffix("db.sqlite"))
        let scratch = recorded[1]
        #expect(!scratch.0.isEmpty && !scratch.0.hasSuffix("db.sqlite"), "scratch file: \(scratch.0)")
        #expect(scratch.1, "the scratch file \(scratch.0) was not encrypted")
        #expect(!FileManager.default.fileExists(atPath: scratch.0), "the scratch file \(scratch.0) is left")
        #expect(!FileManager.default.fileExists(atPath: (scratch.0 as NSString).deletingLastPathComponent))
    }

    @Test func aPreparationThatControlsTheFileDoesNotBreakTheComparison() throws {
        // GRDB's documented recipe: keep the WAL files of a pool.
        let dir = try TemporaryDirectory()
        var config = keyed("secret")
        config.prepareDatabase { db in
            var flag: CInt = 1
            let code = withUnsafeMutablePointer(to: &flag) { flagP in
                sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, flagP)
            }
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
        }
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: config)
        var migrator = migrator([("v1", "CREATE TABLE t (a)")])
        migrator.eraseDatabaseOnSchemaChange = true
        try migrator.migrate(dbPool)
        try migrator.migrate(dbPool)
        var edited = self.migrator([("v1", "CREATE TABLE t (a, b)")])
        edited.eraseDatabaseOnSchemaChange = true
        try edited.migrate(dbPool)
        try dbPool.read { db throws in #expect(try db.columns(in: "t").map(\.name) == ["a", "b"]) }
    }

    @Test func aDatabaseKeyedInPrepareDatabaseComparesItsSchema() throws {
        // GRDB's way to key: the scratch database runs the same preparation.
        let dir = try TemporaryDirectory()
        var config = Configuration()
        config.prepareDatabase { db in try db.usePassphrase("prepared secret") }
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: config)
        let migrator = migrator([("v1", "CREATE TABLE t (a)")])
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in #expect(try migrator.hasSchemaChanges(db) == false) }
        let edited = self.migrator([("v1", "CREATE TABLE t (b)")])
        try dbQueue.read { db throws in #expect(try edited.hasSchemaChanges(db)) }
        #expect(try DatabaseFile.isEncrypted(atPath: dir.path("db.sqlite")))
    }

    @Test func eraseDatabaseOnSchemaChangeRebuildsAChangedDatabase() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: keyed("secret"))
        try migrator([("v1", "CREATE TABLE t (a); INSERT INTO t VALUES (1)")]).migrate(dbQueue)
        try dbQueue.write { try $0.setUserVersion(5) }

        var edited = migrator([("v1", "CREATE TABLE t (a, b); INSERT INTO t VALUES (2, 2)")])
        edited.eraseDatabaseOnSchemaChange = true
        try edited.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try db.columns(in: "t").map(\.name) == ["a", "b"])
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t") == [2])
            #expect(try db.userVersion() == 0)
            #expect(try recordedMigrations(db) == ["v1"])
        }

        // Unchanged: nothing is erased.
        try dbQueue.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (3, 3)") }
        try edited.migrate(dbQueue)
        try dbQueue.read { db throws in #expect(try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") == [2, 3]) }
    }

    @Test func withoutTheFlagAChangedDatabaseIsKept() throws {
        let dbQueue = try DatabaseQueue()
        try migrator([("v1", "CREATE TABLE t (a); INSERT INTO t VALUES (1)")]).migrate(dbQueue)
        try migrator([("v1", "CREATE TABLE t (a, b)")]).migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try db.columns(in: "t").map(\.name) == ["a"])
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t") == [1])
        }
    }
}
