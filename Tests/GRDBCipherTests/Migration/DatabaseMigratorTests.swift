import Foundation
import Testing
@testable import GRDBCipher

@Suite struct DatabaseMigratorTests {
    @Test func migrationsRunInOrderOnceAndOnlyOnce() throws {
        let dbQueue = try DatabaseQueue()
        let order = LockedValue<[String]>([])
        var migrator = DatabaseMigrator()
        for identifier in ["a", "b", "c"] {
            migrator.registerMigration(identifier) { db throws in
                order.withLock { $0.append(identifier) }
                try db.execute(sql: "CREATE TABLE \(identifier) (id INTEGER PRIMARY KEY)")
            }
        }
        #expect(migrator.migrations == ["a", "b", "c"])

        try migrator.migrate(dbQueue)
        try migrator.migrate(dbQueue)

        #expect(order.withLock { $0 } == ["a", "b", "c"])
        try dbQueue.read { db throws in
            #expect(try schemaNames(db) == ["table a", "table b", "table c", "table grdb_migrations"])
            #expect(try recordedMigrations(db) == ["a", "b", "c"])
        }
    }

    @Test func theMigrationsTableIsGRDBs() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { _ in }
        try migrator.migrate(dbQueue)
        let sql = try dbQueue.read { db throws in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'grdb_migrations'")
        }
        #expect(sql == "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
    }

    @Test func anEmptyMigratorTouchesNothing() throws {
        let dbQueue = try DatabaseQueue()
        try DatabaseMigrator().migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try schemaNames(db) == [])
            #expect(try DatabaseMigrator().hasCompletedMigrations(db))
        }
    }

    @Test func eachMigrationIsOneImmediateTransactionWithItsRecord() throws {
        let dbQueue = try DatabaseQueue()
        let statements = LockedValue<[String]>([])
        try dbQueue.inDatabase { db throws in
            db.trace { event in statements.withLock { $0.append("\(event)") } }
        }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1", foreignKeyChecks: .immediate) { db throws in
            #expect(db.isInsideTransaction)
            try db.execute(sql: "CREATE TABLE t (a)")
        }
        try migrator.migrate(dbQueue)

        let traced = statements.withLock { $0 }
        let begin = try #require(traced.firstIndex(of: "BEGIN IMMEDIATE TRANSACTION"))
        let create = try #require(traced.firstIndex(of: "CREATE TABLE t (a)"))
        let record = try #require(traced.firstIndex { $0.hasPrefix("INSERT INTO grdb_migrations") })
        let commit = try #require(traced.firstIndex(of: "COMMIT TRANSACTION"))
        #expect(begin < create && create < record && record < commit, "\(traced)")
    }

    @Test func migrateUpToRunsAPrefixThenTheRestFollows() throws {
        let dbQueue = try DatabaseQueue()
        let runs = MigrationRuns()
        let migrator = realisticMigrator(runs: runs)

        try migrator.migrate(dbQueue, upTo: "createBook")
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["createAuthor", "createBook"])
            #expect(try migrator.hasCompletedMigrations(db) == false)
            #expect(try db.columns(in: "author").map(\.name) == ["id", "name"])
        }
        try migrator.migrate(dbQueue, upTo: "createBook")
        try migrator.migrate(dbQueue)

        #expect(runs.all == Dictionary(uniqueKeysWithValues: realisticSteps.map { ($0.identifier, 1) }))
        try dbQueue.read { db throws in
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try db.columns(in: "author").map(\.name) == ["id", "name", "country"])
            #expect(try db.indexes(on: "book").map(\.name) == ["book_on_title"])
            #expect(try String.fetchAll(db, sql: "SELECT title FROM book ORDER BY id")
                == ["Moby-Dick", "Vingt mille lieues sous les mers"])
        }
    }

    @Test func aThrowingMigrationIsRolledBackAndStopsTheOthers() throws {
        let dbQueue = try DatabaseQueue()
        let runs = MigrationRuns()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db throws in
            try db.execute(sql: "CREATE TABLE kept (a); INSERT INTO kept VALUES (1)")
        }
        migrator.registerMigration("v2") { db throws in
            try db.execute(sql: "CREATE TABLE dropped (a); INSERT INTO kept VALUES (2)")
            try db.setUserVersion(2)
            throw MigrationTestError(name: "v2")
        }
        migrator.registerMigration("v3") { db throws in
            runs.record("v3")
            try db.execute(sql: "CREATE TABLE never (a)")
        }

        #expect(throws: MigrationTestError(name: "v2")) {
            try migrator.migrate(dbQueue)
        }
        #expect(runs.count("v3") == 0)
        try dbQueue.read { db throws in
            #expect(try schemaNames(db) == ["table grdb_migrations", "table kept"])
            #expect(try recordedMigrations(db) == ["v1"])
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM kept") == [1])
            #expect(try db.userVersion() == 0)
            #expect(try migrator.completedMigrations(db) == ["v1"])
        }
    }

    @Test func aFailingStatementIsRethrownWithItsSQL() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.execute(sql: "INSERT INTO missing VALUES (1)")
        }
        let error = #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue) }
        #expect(error?.resultCode == .SQLITE_ERROR)
        #expect(error?.sql == "INSERT INTO missing VALUES (1)")
        try dbQueue.read { db throws in
            #expect(try schemaNames(db) == ["table grdb_migrations"])
            #expect(try recordedMigrations(db) == [])
        }
    }

    @Test func queriesDescribeAppliedCompletedAndSupersededMigrations() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        for identifier in ["a", "b", "c"] {
            migrator.registerMigration(identifier) { _ in }
        }
        try dbQueue.read { db throws in
            // No grdb_migrations table yet.
            #expect(try migrator.appliedIdentifiers(db) == [])
            #expect(try migrator.completedMigrations(db) == [])
            #expect(try migrator.hasCompletedMigrations(db) == false)
            #expect(try migrator.hasBeenSuperseded(db) == false)
        }
        // "b" applied without "a", and one migration of a newer app.
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('b'), ('future');
                """)
        }
        try dbQueue.read { db throws in
            #expect(try migrator.appliedIdentifiers(db) == ["b", "future"])
            #expect(try migrator.appliedMigrations(db) == ["b"])
            #expect(try migrator.completedMigrations(db) == [])
            #expect(try migrator.hasBeenSuperseded(db))
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["a", "b", "c"])
            #expect(try migrator.completedMigrations(db) == ["a", "b", "c"])
            // As GRDB: unknown migrations do not make it incomplete.
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try migrator.hasBeenSuperseded(db))
            #expect(try recordedMigrations(db) == ["a", "b", "c", "future"])
        }
    }

    @Test func aSupersededDatabaseMigratesItsKnownMigrations() throws {
        let dbQueue = try DatabaseQueue()
        var newer = DatabaseMigrator()
        newer.registerMigration("v1") { db throws in try db.execute(sql: "CREATE TABLE t1 (a)") }
        newer.registerMigration("v2") { db throws in try db.execute(sql: "CREATE TABLE t2 (a)") }
        try newer.migrate(dbQueue)

        let runs = MigrationRuns()
        var older = DatabaseMigrator()
        older.registerMigration("v1") { _ in runs.record("v1") }
        try older.migrate(dbQueue)
        try older.migrate(dbQueue, upTo: "v1")
        #expect(runs.count("v1") == 0)
        try dbQueue.read { db throws in
            #expect(try older.hasBeenSuperseded(db))
            #expect(try newer.hasBeenSuperseded(db) == false)
        }
    }

    @Test func mergedMigrationsGetWhatTheDatabaseApplied() throws {
        let dbQueue = try DatabaseQueue()
        var old = DatabaseMigrator()
        old.registerMigration("v1") { db throws in try db.execute(sql: "CREATE TABLE t1 (a)") }
        try old.migrate(dbQueue)

        let received = LockedValue<Set<String>?>(nil)
        var new = DatabaseMigrator()
        new.registerMigration("v3", merging: ["v1", "v2"]) { db, applied in
            received.withLock { $0 = applied }
            if !applied.contains("v1") { try db.execute(sql: "CREATE TABLE t1 (a)") }
            if !applied.contains("v2") { try db.execute(sql: "CREATE TABLE t2 (a)") }
            try db.execute(sql: "CREATE TABLE t3 (a)")
        }
        try new.migrate(dbQueue)

        #expect(received.withLock { $0 } == ["v1"])
        try dbQueue.read { db throws in
            #expect(try recordedMigrations(db) == ["v3"])
            #expect(try schemaNames(db) == ["table grdb_migrations", "table t1", "table t2", "table t3"])
        }
    }

    @Test func mergedIdentifiersLeftByAnOlderMergeAreRemoved() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1'), ('v2');
                """)
        }
        let runs = MigrationRuns()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v2", merging: ["v1"]) { _, _ in runs.record("v2") }
        try migrator.migrate(dbQueue)
        #expect(runs.count("v2") == 0)
        try dbQueue.read { db throws in #expect(try recordedMigrations(db) == ["v2"]) }
    }

    @Test func aMergedMigrationThatListsItselfRunsOnce() throws {
        // "v2" merging ["v1", "v2"]: its own record must survive the next
        // migrate, or it would run again ("table already exists").
        let dbQueue = try DatabaseQueue()
        var old = DatabaseMigrator()
        old.registerMigration("v1") { db throws in try db.execute(sql: "CREATE TABLE t1 (a)") }
        try old.migrate(dbQueue)

        let runs = MigrationRuns()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v2", merging: ["v1", "v2"]) { db, applied in
            runs.record("v2")
            #expect(applied == ["v1"], "the merged identifiers the database applied, without v2 itself")
            try db.execute(sql: "CREATE TABLE t2 (a)")
        }
        let statements = try expandedStatements(dbQueue) { try migrator.migrate(dbQueue) }
        try migrator.migrate(dbQueue)
        try migrator.migrate(dbQueue)
        #expect(runs.count("v2") == 1)
        try dbQueue.read { db throws in #expect(try recordedMigrations(db) == ["v2"]) }
        #expect(statements.contains("DELETE FROM grdb_migrations WHERE identifier IN ('v1')"), "\(statements)")
    }

    @Test func mergedIdentifiersAreDeletedInOneStatementOutsideATransaction() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1'), ('v2'), ('v3');
                """)
        }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v3", merging: ["v2", "v1"]) { _, _ in }
        let statements = try expandedStatements(dbQueue) { try migrator.migrate(dbQueue) }
        let writes = statements.filter { !$0.hasPrefix("SELECT") && !$0.hasPrefix("PRAGMA") }
        #expect(writes == [
            "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
            "DELETE FROM grdb_migrations WHERE identifier IN ('v1','v2')",
        ])
        try dbQueue.read { db throws in #expect(try recordedMigrations(db) == ["v3"]) }
    }

    @Test func asyncMigrateCompletesWithTheMigratedDatabase() async throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db throws in try db.execute(sql: "CREATE TABLE t (a)") }
        let tables = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[String], any Error>) in
            migrator.asyncMigrate(dbQueue) { result in
                continuation.resume(with: result.flatMap { db in Result { try schemaNames(db) } })
            }
        }
        #expect(tables == ["table grdb_migrations", "table t"])
    }

    @Test func asyncMigrateReportsTheFailure() async throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { _ in throw MigrationTestError(name: "async") }
        let error = await withCheckedContinuation { (continuation: CheckedContinuation<(any Error)?, Never>) in
            migrator.asyncMigrate(dbQueue) { result in
                if case let .failure(error) = result { continuation.resume(returning: error) } else {
                    continuation.resume(returning: nil)
                }
            }
        }
        #expect(error as? MigrationTestError == MigrationTestError(name: "async"))
        try await dbQueue.read { db throws in #expect(try recordedMigrations(db) == []) }
    }

    // MARK: - Programming errors trap, as in GRDB

    @Test func registeringAnIdentifierTwiceTraps() async {
        await #expect(processExitsWith: .failure) {
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { _ in }
            migrator.registerMigration("v1") { _ in }
        }
    }

    @Test func migratingUpToAnUnknownMigrationTraps() async {
        await #expect(processExitsWith: .failure) {
            do {
                var migrator = DatabaseMigrator()
                migrator.registerMigration("v1") { _ in }
                try migrator.migrate(DatabaseQueue(), upTo: "v9")
            } catch {
                exit(0)
            }
        }
    }

    @Test func migratingUpToAMigrationTheDatabaseIsBeyondTraps() async {
        await #expect(processExitsWith: .failure) {
            do {
                var migrator = DatabaseMigrator()
                migrator.registerMigration("v1") { _ in }
                migrator.registerMigration("v2") { _ in }
                let dbQueue = try DatabaseQueue()
                try migrator.migrate(dbQueue)
                try migrator.migrate(dbQueue, upTo: "v1")
            } catch {
                exit(0)
            }
        }
    }

    @Test func migratingUpToTheCurrentMigrationDoesNotTrap() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { _ in }
        migrator.registerMigration("v2") { _ in }
        let dbQueue = try DatabaseQueue()
        try migrator.migrate(dbQueue)
        try migrator.migrate(dbQueue, upTo: "v2")
    }
}
