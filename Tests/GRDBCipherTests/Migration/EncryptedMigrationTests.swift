import Foundation
import Testing
@testable import GRDBCipher
import GRDBCipherTesting

@Suite struct EncryptedMigrationTests {
    /// A server's boot: open the encrypted pool, migrate, then serve.
    private func boot(path: String, passphrase: String, migrator: DatabaseMigrator) async throws -> DatabasePool {
        let dbPool = try DatabasePool(path: path, configuration: keyed(passphrase))
        // At boot, before serving: blocking the calling thread is fine.
        try migrator.migrate(dbPool)
        return dbPool
    }

    @Test func aServerBootsMigratesAndServes() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("server.sqlite")
        let runs = MigrationRuns()
        let migrator = realisticMigrator(runs: runs)

        let dbPool = try await boot(path: path, passphrase: "server secret", migrator: migrator)
        let titles = try await dbPool.read { db throws in
            try String.fetchAll(db, sql: "SELECT title FROM book JOIN author ON author.id = book.authorId ORDER BY book.id")
        }
        #expect(titles == ["Moby-Dick", "Vingt mille lieues sous les mers"])
        try dbPool.close()

        // The second boot migrates nothing.
        let again = try await boot(path: path, passphrase: "server secret", migrator: migrator)
        #expect(try await again.read(migrator.hasCompletedMigrations))
        try again.close()
        #expect(runs.all.values.allSatisfy { $0 == 1 } && runs.all.count == realisticSteps.count)
        #expect(try DatabaseFile.isEncrypted(atPath: path))
        #expect(try !file(path, contains: "Moby-Dick"))
        #expect(try !file(path, contains: "grdb_migrations"))
    }

    @Test func aWrongPassphraseAtBootNeverRunsTheMigrator() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("server.sqlite")
        try makeEncryptedDatabase(at: path, passphrase: "right")
        let before = try fileBytes(path)
        let runs = MigrationRuns()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { _ in runs.record("v1") }

        await #expect(throws: DatabaseError.self) {
            _ = try await boot(path: path, passphrase: "wrong", migrator: migrator)
        }
        #expect(runs.count("v1") == 0)
        #expect(try fileBytes(path) == before)

        // The right passphrase boots and migrates.
        let dbPool = try await boot(path: path, passphrase: "right", migrator: migrator)
        #expect(runs.count("v1") == 1)
        try dbPool.close()
    }

    @Test func aPlaintextDatabaseIsEncryptedByExportThenMigrated() throws {
        let dir = try TemporaryDirectory()
        let plainPath = dir.path("plain.sqlite")
        let encryptedPath = dir.path("encrypted.sqlite")
        // An app's plaintext database, versioned with user_version.
        let plain = try DatabaseQueue(path: plainPath)
        try plain.inDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT);
                INSERT INTO note (body) VALUES ('PLAINTEXT-NOTE-MARKER');
                PRAGMA user_version = 1;
                """)
        }
        try plain.export(to: encryptedPath, encryption: .encrypted(key: .passphrase("new secret")))
        try plain.close()

        let runs = MigrationRuns()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createNote", appliedIfUserVersionAtLeast: 1) { db throws in
            runs.record("createNote")
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT)")
        }
        migrator.registerMigration("addNoteDate") { db throws in
            runs.record("addNoteDate")
            try db.execute(sql: "ALTER TABLE note ADD COLUMN date TEXT")
        }
        let dbPool = try DatabasePool(path: encryptedPath, configuration: keyedWithDefaultSettings("new secret"))
        try migrator.migrate(dbPool)

        #expect(runs.all == ["addNoteDate": 1])
        try dbPool.read { db throws in
            #expect(try db.userVersion() == 1)
            #expect(try db.columns(in: "note").map(\.name) == ["id", "body", "date"])
            #expect(try String.fetchAll(db, sql: "SELECT body FROM note") == ["PLAINTEXT-NOTE-MARKER"])
            #expect(try recordedMigrations(db) == ["addNoteDate", "createNote"])
        }
        try dbPool.close()
        #expect(try DatabaseFile.isEncrypted(atPath: encryptedPath))
        #expect(try !file(encryptedPath, contains: "PLAINTEXT-NOTE-MARKER"))
    }

    @Test func aFiveStepChainAppliesIncrementallyAcrossReopenings() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("chain.sqlite")
        let runs = MigrationRuns()
        for step in 1...realisticSteps.count {
            // Each reopening is a new version of the app, with one more step.
            let dbPool = try DatabasePool(path: path, configuration: keyed("chain secret"))
            let migrator = realisticMigrator(steps: step, runs: runs)
            try dbPool.read { db throws in
                #expect(try migrator.completedMigrations(db).count == step - 1)
            }
            try migrator.migrate(dbPool)
            try dbPool.read { db throws in
                #expect(try migrator.appliedMigrations(db) == realisticSteps.prefix(step).map(\.identifier))
                #expect(try migrator.hasCompletedMigrations(db))
            }
            try dbPool.close()
            #expect(runs.all.count == step && runs.all.values.allSatisfy { $0 == 1 }, "\(runs.all)")
        }
        let dbQueue = try DatabaseQueue(path: path, configuration: keyed("chain secret"))
        try dbQueue.read { db throws in
            #expect(try schemaNames(db) == [
                "index book_on_title", "table author", "table book", "table grdb_migrations",
            ])
            #expect(try db.columns(in: "author").map(\.name) == ["id", "name", "country"])
            #expect(try db.foreignKeys(on: "book").map(\.destinationTable) == ["author"])
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
        }
    }

    @Test func theSQLCipherShellReadsAMigratedDatabase() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("shell.sqlite")
        let dbPool = try DatabasePool(path: path, configuration: keyedWithDefaultSettings("shell secret"))
        try realisticMigrator().migrate(dbPool)
        try dbPool.close()

        let output = try SQLCipherShell.run(path, key: nil, script: """
            PRAGMA key = 'shell secret';
            .mode list
            SELECT 'migration:' || identifier FROM grdb_migrations ORDER BY identifier;
            SELECT 'row:' || book.title || '|' || author.name || '|' || author.country
              FROM book JOIN author ON author.id = book.authorId ORDER BY book.id;
            SELECT 'notnull:' || "notnull" FROM pragma_table_info('author') WHERE name = 'name';
            SELECT 'index:' || name FROM sqlite_master WHERE type = 'index' AND name = 'book_on_title';
            SELECT 'fk:' || "from" || '>' || "table" || '(' || "to" || ')' FROM pragma_foreign_key_list('book');
            SELECT 'violations:' || count(*) FROM pragma_foreign_key_check;
            SELECT 'integrity:' || integrity_check FROM pragma_integrity_check;
            """)
        let lines = output.split(separator: "\n").map(String.init).filter { $0.contains(":") }
        #expect(lines == [
            "migration:addAuthorCountry", "migration:createAuthor", "migration:createBook",
            "migration:indexBookTitle", "migration:requireAuthorName",
            "row:Moby-Dick|Herman Melville|US", "row:Vingt mille lieues sous les mers|Jules Verne|FR",
            "notnull:1",
            "index:book_on_title",
            "fk:authorId>author(id)",
            "violations:0",
            "integrity:ok",
        ], "\(output)")
    }

    @Test(arguments: [false, true])
    func poolReadersSeeTheSchemaBeforeOrAfterNeverBetween(usesAsyncMigrate: Bool) async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("pool.sqlite"), configuration: keyed("pool secret"))
        let tables = ["t1", "t2", "t3", "t4"]
        var migrator = DatabaseMigrator()
        for table in tables {
            migrator.registerMigration(table) { db throws in
                try db.execute(sql: "CREATE TABLE \(table) (a)")
                // Widens the window a reader would see between migrations.
                Thread.sleep(forTimeInterval: 0.03)
            }
        }
        let seen = LockedValue<Set<Int>>([])
        let stop = LockedValue(false)
        let readers = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        while !stop.withLock({ $0 }) {
                            let count = try await dbPool.read { db throws in
                                try Int.fetchOne(db, sql: """
                                    SELECT count(*) FROM sqlite_master WHERE name IN ('t1', 't2', 't3', 't4')
                                    """) ?? -1
                            }
                            seen.withLock { _ = $0.insert(count) }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        try await waitUntil { seen.withLock { $0.contains(0) } }
        if usesAsyncMigrate {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                migrator.asyncMigrate(dbPool) { result in continuation.resume(with: result.map { _ in }) }
            }
        } else {
            try await Task.detached { try migrator.migrate(dbPool) }.value
        }
        try await waitUntil { seen.withLock { $0.contains(tables.count) } }
        stop.withLock { $0 = true }
        try await readers.value

        #expect(seen.withLock { $0 } == [0, tables.count])
        try dbPool.close()
    }

    /// Polls `condition` every millisecond, for at most five minutes: the
    /// whole suite runs tests in parallel on two cores, and tests that block
    /// the cooperative pool can hold these tasks back for over a minute.
    private func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = Date(timeIntervalSinceNow: 300)
        while !condition() {
            try #require(Date() < deadline, "condition not met in time")
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
