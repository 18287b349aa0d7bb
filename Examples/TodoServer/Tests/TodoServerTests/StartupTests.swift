import Foundation
import GRDBCipher
import Testing
@testable import TodoServerApp

/// Opening the database at boot, and reading the configuration.
@Suite struct StartupTests {
    @Test func wrongPassphraseFailsWithoutTouchingTheFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("todos.sqlite")
        do {
            let queue = try openQueue(path, passphrase: testPassphrase)
            try queue.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
            try queue.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let listingBefore = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()

        #expect {
            _ = try buildApplication(testConfiguration(directory, encryption: .passphrase("not the passphrase")), logger: quietLogger)
        } throws: { error in
            guard let error = error as? StartupError, case .wrongKey(let failedPath) = error else { return false }
            let text = "\(error)"
            return failedPath == path && text.contains("wrong passphrase") && !text.contains("not the passphrase")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == listingBefore)
        // The right passphrase still opens it, and the migration runs then.
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        #expect(try server.database.read { db in try db.tableExists("todo") })
        try server.database.close()
    }

    @Test func plaintextFileWithAKeyIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("todos.sqlite")
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: StartupError.self) {
            _ = try buildApplication(testConfiguration(directory), logger: quietLogger)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func migrationsRunOnceAcrossBoots() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for _ in 1...2 {
            let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
            let applied = try server.database.read { db in try TodoDatabase.migrator.appliedIdentifiers(db) }
            #expect(applied == ["createTodo"])
            try server.database.close()
        }
    }

    /// A database created by an earlier version under a lax umask is made
    /// owner-only at start (its -wal and -shm follow the database's mode).
    @Test func anExistingDatabaseReadableByOthersIsMadeOwnerOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("todos.sqlite")
        try openQueue(path, passphrase: testPassphrase).close()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let lines = CapturingLogHandler.Lines()
        let server = try buildApplication(testConfiguration(directory), logger: CapturingLogHandler.logger(lines))
        for file in [path, path + "-wal", path + "-shm"] {
            let mode = try #require(FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber).intValue
            #expect(mode == 0o600, "\(file): \(String(mode, radix: 8))")
        }
        #expect(lines.contain("its permissions are now 600"))
        try server.database.close()
    }

    @Test func limitsFromTheEnvironment() throws {
        let defaults = try ServerConfiguration.fromEnvironment(["TODOSERVER_PLAINTEXT": "1"])
        #expect(defaults.maximumConnections == 512)
        #expect(defaults.idleTimeout == .seconds(30))
        #expect(defaults.requestTimeout == .seconds(10))
        #expect(defaults.writeTimeout == .seconds(10))
        #expect(defaults.shutdownTimeout == .seconds(15))
        #expect(defaults.integrityCacheDuration == .seconds(300))

        let set = try ServerConfiguration.fromEnvironment([
            "TODOSERVER_PLAINTEXT": "1", "TODOSERVER_MAX_CONNECTIONS": "100", "TODOSERVER_IDLE_TIMEOUT": "5",
            "TODOSERVER_REQUEST_TIMEOUT": "6", "TODOSERVER_WRITE_TIMEOUT": "7", "TODOSERVER_SHUTDOWN_TIMEOUT": "8",
            "TODOSERVER_INTEGRITY_CACHE": "0",
        ])
        #expect(set.maximumConnections == 100)
        #expect(set.idleTimeout == .seconds(5))
        #expect(set.requestTimeout == .seconds(6))
        #expect(set.writeTimeout == .seconds(7))
        #expect(set.shutdownTimeout == .seconds(8))
        #expect(set.integrityCacheDuration == .zero)

        for (name, value) in [
            ("TODOSERVER_MAX_CONNECTIONS", "0"), ("TODOSERVER_IDLE_TIMEOUT", "0"), ("TODOSERVER_REQUEST_TIMEOUT", "x"),
            ("TODOSERVER_WRITE_TIMEOUT", "-1"), ("TODOSERVER_SHUTDOWN_TIMEOUT", "3601"), ("TODOSERVER_INTEGRITY_CACHE", "1.5"),
        ] {
            #expect(throws: ConfigurationError.self, "\(name)=\(value)") {
                _ = try ServerConfiguration.fromEnvironment(["TODOSERVER_PLAINTEXT": "1", name: value])
            }
        }
    }

    @Test func configurationFromEnvironment() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let secret = directory.file("secret")
        try Data("from the file\n".utf8).write(to: URL(fileURLWithPath: secret))

        let fromFile = try ServerConfiguration.fromEnvironment(["GRDBCIPHER_PASSPHRASE_FILE": secret])
        guard case .passphrase(let passphrase) = fromFile.encryption else { Issue.record("not encrypted"); return }
        #expect(passphrase == "from the file")
        #expect(fromFile.databasePath == "./todos.sqlite")
        #expect(fromFile.port == 8080)
        #expect(fromFile.adminToken == nil)
        #expect(!fromFile.description.contains("from the file"))
        var dumped = ""
        dump(fromFile, to: &dumped)
        #expect(!dumped.contains("from the file"))
        #expect(!String(reflecting: fromFile.encryption).contains("from the file"))

        let inline = try ServerConfiguration.fromEnvironment([
            "GRDBCIPHER_PASSPHRASE": "inline secret", "DATABASE_PATH": "/tmp/x.sqlite", "PORT": "9000",
            "TODOSERVER_ADMIN_TOKEN": testAdminToken,
        ])
        #expect(inline.databasePath == "/tmp/x.sqlite")
        #expect(inline.port == 9000)
        #expect(inline.backupDirectory == "/tmp/backups")
        #expect(!inline.description.contains("inline secret"))
        #expect(!inline.description.contains(testAdminToken))

        let failures: [[String: String]] = [
            [:],
            ["GRDBCIPHER_PASSPHRASE": "a", "GRDBCIPHER_PASSPHRASE_FILE": secret],
            ["GRDBCIPHER_PASSPHRASE": ""],
            ["GRDBCIPHER_PASSPHRASE_FILE": directory.file("missing")],
            ["GRDBCIPHER_PASSPHRASE": "a", "PORT": "http"],
            ["GRDBCIPHER_PASSPHRASE": "a", "PORT": "70000"],
            ["GRDBCIPHER_PASSPHRASE": "a", "TODOSERVER_ADMIN_TOKEN": "short"],
        ]
        for environment in failures {
            #expect(throws: ConfigurationError.self, "\(environment.keys.sorted())") {
                _ = try ServerConfiguration.fromEnvironment(environment)
            }
        }
        try Data("\n".utf8).write(to: URL(fileURLWithPath: secret))
        #expect(throws: ConfigurationError.self) {
            _ = try ServerConfiguration.fromEnvironment(["GRDBCIPHER_PASSPHRASE_FILE": secret])
        }
        let plaintext = try ServerConfiguration.fromEnvironment(["TODOSERVER_PLAINTEXT": "1"])
        guard case .plaintext = plaintext.encryption else { Issue.record("encrypted"); return }
    }
}
