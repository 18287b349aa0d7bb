import Foundation
import Testing
@testable import GRDBCipher

@Suite struct UserVersionTests {
    @Test func userVersionIsZeroThenWhatWasSet() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            #expect(try db.userVersion() == 0)
            try db.setUserVersion(42)
            #expect(try db.userVersion() == 42)
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == 42)
            try db.setUserVersion(Int(Int32.min))
            #expect(try db.userVersion() == Int(Int32.min))
        }
    }

    @Test func aRollbackUndoesSetUserVersion() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            try db.inTransaction {
                try db.setUserVersion(7)
                return .rollback
            }
            #expect(try db.userVersion() == 0)
        }
    }

    @Test func aVersionBeyond32BitsIsRejected() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            let error = #expect(throws: DatabaseError.self) { try db.setUserVersion(Int(Int32.max) + 1) }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(try db.userVersion() == 0)
        }
    }
}

@Suite struct UserVersionAdoptionTests {
    /// The three steps of an app that versioned its schema SQLite.swift's
    /// way: `if db.userVersion == n { ...; db.userVersion = n + 1 }`.
    private static let legacySteps = [
        "CREATE TABLE user (id INTEGER PRIMARY KEY, email TEXT NOT NULL)",
        "ALTER TABLE user ADD COLUMN name TEXT",
        "CREATE INDEX user_on_email ON user(email)",
    ]

    /// A database brought to `version` by the legacy app, with one user.
    private func makeLegacyDatabase(at path: String, version: Int, passphrase: String? = nil) throws {
        var config = Configuration()
        config.passphrase = passphrase
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        try dbQueue.inDatabase { db throws in
            for (index, sql) in Self.legacySteps.prefix(version).enumerated() {
                try db.execute(sql: sql)
                try db.execute(sql: "PRAGMA user_version = \(index + 1)")
            }
            if version >= 1 {
                try db.execute(sql: "INSERT INTO user (email) VALUES ('ada@example.com')")
            }
        }
        try dbQueue.close()
    }

    /// The legacy steps adopted, then two new migrations.
    private func adoptingMigrator(runs: MigrationRuns) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for (index, sql) in Self.legacySteps.enumerated() {
            let identifier = "legacy\(index + 1)"
            migrator.registerMigration(identifier, appliedIfUserVersionAtLeast: index + 1) { db throws in
                runs.record(identifier)
                try db.execute(sql: sql)
            }
        }
        migrator.registerMigration("createPost") { db throws in
            runs.record("createPost")
            try db.execute(sql: """
                CREATE TABLE post (id INTEGER PRIMARY KEY, userId INTEGER NOT NULL REFERENCES user(id), body TEXT)
                """)
        }
        migrator.registerMigration("addUserBio") { db throws in
            runs.record("addUserBio")
            try db.execute(sql: "ALTER TABLE user ADD COLUMN bio TEXT")
        }
        return migrator
    }

    private let migratedSchema = [
        "index user_on_email", "table grdb_migrations", "table post", "table user",
    ]

    @Test func aFullyVersionedDatabaseRunsOnlyTheNewMigrations() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("legacy.sqlite")
        try makeLegacyDatabase(at: path, version: 3)
        let runs = MigrationRuns()
        let migrator = adoptingMigrator(runs: runs)
        let dbQueue = try DatabaseQueue(path: path)

        try dbQueue.read { db throws in
            // Counted as applied before any record.
            #expect(try migrator.appliedMigrations(db) == ["legacy1", "legacy2", "legacy3"])
            #expect(try migrator.completedMigrations(db) == ["legacy1", "legacy2", "legacy3"])
            #expect(try migrator.hasCompletedMigrations(db) == false)
            #expect(try recordedMigrations(db) == [])
        }
        try migrator.migrate(dbQueue)

        #expect(runs.all == ["createPost": 1, "addUserBio": 1])
        try dbQueue.read { db throws in
            #expect(try recordedMigrations(db) == ["addUserBio", "createPost", "legacy1", "legacy2", "legacy3"])
            #expect(try schemaNames(db) == migratedSchema)
            #expect(try db.columns(in: "user").map(\.name) == ["id", "email", "name", "bio"])
            #expect(try String.fetchAll(db, sql: "SELECT email FROM user") == ["ada@example.com"])
            #expect(try migrator.hasCompletedMigrations(db))
            // The migrator does not write user_version.
            #expect(try db.userVersion() == 3)
        }
    }

    @Test func aPartlyVersionedDatabaseRunsTheMissingSteps() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("legacy.sqlite")
        try makeLegacyDatabase(at: path, version: 1)
        let runs = MigrationRuns()
        let dbQueue = try DatabaseQueue(path: path)
        try adoptingMigrator(runs: runs).migrate(dbQueue)

        #expect(runs.all == ["legacy2": 1, "legacy3": 1, "createPost": 1, "addUserBio": 1])
        try dbQueue.read { db throws in
            #expect(try schemaNames(db) == migratedSchema)
            #expect(try db.columns(in: "user").map(\.name) == ["id", "email", "name", "bio"])
        }
    }

    @Test func aNewDatabaseRunsEverything() throws {
        let runs = MigrationRuns()
        let dbQueue = try DatabaseQueue()
        try adoptingMigrator(runs: runs).migrate(dbQueue)
        #expect(runs.all.count == 5 && runs.all.values.allSatisfy { $0 == 1 })
        try dbQueue.read { db throws in #expect(try schemaNames(db) == migratedSchema) }
    }

    @Test func recordedMigrationsNoLongerDependOnUserVersion() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("legacy.sqlite")
        try makeLegacyDatabase(at: path, version: 3)
        let runs = MigrationRuns()
        let migrator = adoptingMigrator(runs: runs)
        let dbQueue = try DatabaseQueue(path: path)
        try migrator.migrate(dbQueue)
        try dbQueue.write { try $0.setUserVersion(0) }
        try migrator.migrate(dbQueue)
        #expect(runs.all == ["createPost": 1, "addUserBio": 1])
    }

    @Test func adoptionIsRecordedEvenWhenALaterMigrationFails() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("legacy.sqlite")
        try makeLegacyDatabase(at: path, version: 3)
        var migrator = adoptingMigrator(runs: MigrationRuns())
        migrator.registerMigration("broken") { db throws in
            try db.execute(sql: "CREATE TABLE half (a)")
            throw MigrationTestError(name: "broken")
        }
        let dbQueue = try DatabaseQueue(path: path)
        #expect(throws: MigrationTestError(name: "broken")) { try migrator.migrate(dbQueue) }
        try dbQueue.read { db throws in
            #expect(try recordedMigrations(db) == ["addUserBio", "createPost", "legacy1", "legacy2", "legacy3"])
            #expect(try schemaNames(db) == migratedSchema)
        }
    }

    @Test func aZeroVersionTraps() async {
        await #expect(processExitsWith: .failure) {
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v0", appliedIfUserVersionAtLeast: 0) { _ in }
        }
    }

    @Test func anAdoptedMigrationAfterANewOneTraps() async {
        await #expect(processExitsWith: .failure) {
            var migrator = DatabaseMigrator()
            migrator.registerMigration("new") { _ in }
            migrator.registerMigration("legacy", appliedIfUserVersionAtLeast: 1) { _ in }
        }
    }

    @Test func decreasingVersionsTrap() async {
        await #expect(processExitsWith: .failure) {
            var migrator = DatabaseMigrator()
            migrator.registerMigration("a", appliedIfUserVersionAtLeast: 2) { _ in }
            migrator.registerMigration("b", appliedIfUserVersionAtLeast: 1) { _ in }
        }
    }
}
