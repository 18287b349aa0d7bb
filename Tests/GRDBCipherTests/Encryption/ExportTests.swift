import Foundation
import Testing
@testable import GRDBCipher
import GRDBCipherTesting

@Suite struct ExportTests {
    /// The files in the folder, hidden ones included.
    func files(in dir: TemporaryDirectory) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: dir.url.path))
    }

    func makeRows(_ writer: some DatabaseWriter, count: Int = 200) throws {
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, value TEXT)")
            try db.execute(sql: "CREATE INDEX t_value ON t(value)")
            try db.execute(sql: "CREATE VIEW v AS SELECT COUNT(*) AS n FROM t")
            for index in 0..<count {
                try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: ["MARKER-EXPORT-\(index)"])
            }
            try db.execute(sql: "PRAGMA user_version = 42")
            try db.execute(sql: "PRAGMA application_id = 1234")
        }
    }

    func contents(_ reader: some DatabaseReader) throws -> [String] {
        try reader.read { db in try String.fetchAll(db, sql: "SELECT value FROM t ORDER BY id") }
    }

    @Test func plaintextToEncryptedToRekeyedToPlaintextKeepsEveryRow() throws {
        let dir = try TemporaryDirectory()
        let plaintextPath = dir.path("plain.sqlite")
        let source = try DatabaseQueue(path: plaintextPath)
        try makeRows(source)
        let expected = try contents(source)
        #expect(try file(plaintextPath, contains: "MARKER-EXPORT-1"))

        let encryptedPath = dir.path("encrypted.sqlite")
        try source.export(to: encryptedPath, encryption: .encrypted(key: .passphrase("first")))
        let rekeyedPath = dir.path("rekeyed.sqlite")
        try DatabaseQueue(path: encryptedPath, configuration: keyedWithDefaultSettings("first")).export(
            to: rekeyedPath, encryption: .encrypted(key: .passphrase("second"), settings: CipherSettings(pageSize: 8192)))
        let finalPath = dir.path("final.sqlite")
        var rekeyed = keyedWithDefaultSettings("second")
        rekeyed.cipherSettings.pageSize = 8192
        try DatabasePool(path: rekeyedPath, configuration: rekeyed).export(to: finalPath, encryption: .plaintext)

        for path in [encryptedPath, rekeyedPath] {
            #expect(try !file(path, contains: "MARKER-EXPORT"))
            #expect(try !file(path, contains: "SQLite format 3"))
        }
        #expect(try contents(DatabaseQueue(path: encryptedPath, configuration: keyedWithDefaultSettings("first"))) == expected)
        #expect(try contents(DatabaseQueue(path: rekeyedPath, configuration: rekeyed)) == expected)
        let final = try DatabaseQueue(path: finalPath)
        #expect(try contents(final) == expected)
        #expect(try final.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == 42)
        #expect(try final.read { try Int.fetchOne($0, sql: "PRAGMA application_id") } == 1234)
        #expect(try final.read { try Int.fetchOne($0, sql: "SELECT n FROM v") } == 200)
        #expect(try file(finalPath, contains: "MARKER-EXPORT-1"))

        // The independent peer reads the re-keyed copy.
        let output = try SQLCipherShell.run(
            rekeyedPath, key: nil, script: "PRAGMA key = 'second'; PRAGMA cipher_page_size = 8192;\nSELECT COUNT(*) FROM t;\n")
        #expect(output.contains("200"))
    }

    @Test func exportToARawKeyAndToSQLCipher3Settings() throws {
        let dir = try TemporaryDirectory()
        let source = try DatabaseQueue(path: dir.path("source.sqlite"), configuration: keyed("source"))
        try makeRows(source, count: 10)
        let rawPath = dir.path("raw.sqlite")
        try source.export(to: rawPath, encryption: .encrypted(key: .rawKey(rawKeyBytes)))
        var rawConfig = Configuration()
        rawConfig.key = try .rawKey(rawKeyBytes)
        #expect(try contents(DatabaseQueue(path: rawPath, configuration: rawConfig)).count == 10)

        let legacyPath = dir.path("legacy.sqlite")
        try source.export(to: legacyPath, encryption: .encrypted(key: .passphrase("old"), settings: .sqlcipher3))
        let output = try SQLCipherShell.run(
            legacyPath, key: nil, script: "PRAGMA key = 'old'; PRAGMA cipher_compatibility = 3;\nSELECT COUNT(*) FROM t;\n")
        #expect(output.contains("10"))
    }

    @Test func aWALSourceGivesAWALCopy() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("pool.sqlite"), configuration: keyedWithDefaultSettings("k"))
        try makeRows(dbPool, count: 5)
        try dbPool.export(to: dir.path("copy.sqlite"), encryption: .encrypted(key: .passphrase("k2")))
        let copy = try DatabaseQueue(path: dir.path("copy.sqlite"), configuration: keyedWithDefaultSettings("k2"))
        #expect(try copy.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")

        let dbQueue = try DatabaseQueue(path: dir.path("queue.sqlite"), configuration: keyedWithDefaultSettings("k"))
        try makeRows(dbQueue, count: 5)
        try dbQueue.export(to: dir.path("queue-copy.sqlite"), encryption: .encrypted(key: .passphrase("k2")))
        let queueCopy = try DatabaseQueue(path: dir.path("queue-copy.sqlite"), configuration: keyedWithDefaultSettings("k2"))
        #expect(try queueCopy.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "delete")
    }

    @Test func anExistingDestinationIsNeverOverwrittenUnlessAsked() throws {
        let dir = try TemporaryDirectory()
        let source = try DatabaseQueue(configuration: keyedWithDefaultSettings("k"))
        try makeRows(source, count: 3)
        let destination = dir.path("existing.sqlite")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: destination))

        let error = #expect(throws: DatabaseError.self) {
            try source.export(to: destination, encryption: .encrypted(key: .passphrase("k")))
        }
        #expect(error?.message?.contains("replacingExistingFile") == true)
        #expect(try fileBytes(destination) == Data("precious".utf8))
        #expect(try files(in: dir) == ["existing.sqlite"])

        try source.export(to: destination, encryption: .encrypted(key: .passphrase("k")), replacingExistingFile: true)
        #expect(try contents(DatabaseQueue(path: destination, configuration: keyedWithDefaultSettings("k"))).count == 3)
        #expect(try files(in: dir) == ["existing.sqlite"])
    }

    @Test func aDatabaseIsNeverExportedOntoItsOwnFile() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 5)
        let error = #expect(throws: DatabaseError.self) {
            try dbPool.export(to: dir.path("pool.sqlite"), encryption: .plaintext, replacingExistingFile: true)
        }
        #expect(error?.message?.contains("own file") == true)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES ('after')") }
        #expect(try dbPool.read(rowCount) == 6)
    }

    @Test func aLeftoverJournalCountsAsAnExistingDatabase() throws {
        let dir = try TemporaryDirectory()
        let source = try DatabaseQueue(configuration: keyedWithDefaultSettings("k"))
        try makeRows(source, count: 3)
        let destination = dir.path("copy.sqlite")
        try Data("stale journal".utf8).write(to: URL(fileURLWithPath: destination + "-journal"))
        #expect(throws: DatabaseError.self) {
            try source.export(to: destination, encryption: .encrypted(key: .passphrase("k")))
        }
        #expect(!FileManager.default.fileExists(atPath: destination))
        // Replacing removes it, so that it is never applied to the copy.
        try source.export(to: destination, encryption: .encrypted(key: .passphrase("k")), replacingExistingFile: true)
        #expect(!FileManager.default.fileExists(atPath: destination + "-journal"))
        #expect(try contents(DatabaseQueue(path: destination, configuration: keyedWithDefaultSettings("k"))).count == 3)
    }

    @Test func aFailedExportLeavesNoPartialFile() throws {
        let dir = try TemporaryDirectory()
        let source = try DatabaseQueue(path: dir.path("source.sqlite"), configuration: keyedWithDefaultSettings("k"))
        try makeRows(source, count: 50)
        let before = try files(in: dir)

        // A missing folder.
        let missing = #expect(throws: DatabaseError.self) {
            try source.export(to: dir.path("no/such/folder/copy.sqlite"), encryption: .encrypted(key: .passphrase("k")))
        }
        #expect(missing?.resultCode == .SQLITE_CANTOPEN)
        // Destination keys and settings that cannot work.
        let bad: [DatabaseEncryption] = [
            .encrypted(key: .passphrase("")),
            .encrypted(key: .passphrase("k"), settings: CipherSettings(pageSize: 1000)),
            .encrypted(key: .passphrase("k"), settings: CipherSettings(kdfIterations: 0)),
        ]
        for encryption in bad {
            #expect(throws: DatabaseError.self) {
                try source.export(to: dir.path("copy.sqlite"), encryption: encryption)
            }
        }
        #expect(try files(in: dir) == before)

        // A plaintext header with a key that cannot carry the salt.
        #expect(throws: DatabaseError.self) {
            try source.export(
                to: dir.path("copy.sqlite"),
                encryption: .encrypted(key: .rawKey(rawKeyBytes), settings: CipherSettings(plaintextHeaderSize: 32)))
        }
        #expect(try files(in: dir) == before)
        // The source connection is left usable, with nothing attached.
        #expect(try source.read { try String.fetchAll($0, sql: "SELECT name FROM pragma_database_list") } == ["main"])
        try source.export(to: dir.path("copy.sqlite"), encryption: .encrypted(key: .passphrase("k")))
        #expect(try contents(DatabaseQueue(path: dir.path("copy.sqlite"), configuration: keyedWithDefaultSettings("k"))).count == 50)
    }

    @Test func anExportThatFailsHalfwayLeavesNoPartialFile() throws {
        let dir = try TemporaryDirectory()
        let source = try makeDamagedDatabase(in: dir)
        let before = try files(in: dir)
        let error = #expect(throws: DatabaseError.self) {
            try source.export(to: dir.path("copy.sqlite"), encryption: .encrypted(key: .passphrase("k")))
        }
        #expect(error?.message?.contains("export failed") == true)
        #expect(try files(in: dir) == before)
        #expect(try source.read { try String.fetchAll($0, sql: "SELECT name FROM pragma_database_list") } == ["main"])
    }

    @Test func aPoolKeepsServingWritesDuringAnExport() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("pool.sqlite"), configuration: keyedWithDefaultSettings("k"))
        try makeRows(dbPool, count: 2000)
        let writer = Task {
            for _ in 0..<20 {
                try await dbPool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES ('during')") }
            }
        }
        try await dbPool.export(to: dir.path("copy.sqlite"), encryption: .encrypted(key: .passphrase("k")))
        try await writer.value
        let copy = try DatabaseQueue(path: dir.path("copy.sqlite"), configuration: keyedWithDefaultSettings("k"))
        #expect((2000...2020).contains(try await copy.read(tableCount)))
        #expect(try await copy.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        #expect(try await dbPool.read(tableCount) == 2020)
    }

    @Test func aSnapshotExportsItsFrozenState() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 2)
        let snapshot = try dbPool.makeSnapshot()
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES ('after the snapshot')") }
        try snapshot.export(to: dir.path("copy.sqlite"), encryption: .encrypted(key: .passphrase("copy")))
        let copy = try DatabaseQueue(path: dir.path("copy.sqlite"), configuration: keyedWithDefaultSettings("copy"))
        #expect(try copy.read(rowCount) == 2)
        #expect(try copy.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        #expect(try dbPool.read(rowCount) == 3)
    }

    @Test func aReadOnlyQueueExports() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 4)
        try dbPool.close()
        var readonly = keyed("pool secret")
        readonly.readonly = true
        let readonlyQueue = try DatabaseQueue(path: dir.path("pool.sqlite"), configuration: readonly)
        try readonlyQueue.export(to: dir.path("copy.sqlite"), encryption: .plaintext)
        #expect(try DatabaseQueue(path: dir.path("copy.sqlite")).read(rowCount) == 4)
    }

    @Test func errorsAndTracesNeverShowTheDestinationKey() throws {
        let dir = try TemporaryDirectory()
        let source = try DatabaseQueue(configuration: keyed("k"))
        try makeRows(source, count: 1)
        let traced = LockedValue<[String]>([])
        try source.writeWithoutTransaction { db in
            db.trace { event in
                if case .statement(let statement) = event {
                    traced.withLock { $0.append(statement.expandedSQL) }
                }
            }
        }
        try source.export(to: dir.path("copy.sqlite"), encryption: .encrypted(key: .passphrase("TRACE-SECRET-9")))
        // A failure after the destination was attached with its key: the
        // source has a damaged page, met halfway through the copy.
        let damaged = try makeDamagedDatabase(in: dir)
        try damaged.writeWithoutTransaction { db in
            db.trace { event in
                if case .statement(let statement) = event {
                    traced.withLock { $0.append(statement.expandedSQL) }
                }
            }
        }
        let error = #expect(throws: DatabaseError.self) {
            try damaged.export(to: dir.path("other.sqlite"), encryption: .encrypted(key: .passphrase("ERROR-SECRET-9")))
        }
        #expect(error?.message?.contains("export failed") == true)
        for text in [error?.description, error?.expandedDescription, error?.sql, error?.message].compactMap({ $0 }) {
            #expect(!text.contains("ERROR-SECRET-9"))
        }
        #expect(!traced.withLock { $0 }.contains { $0.contains("ERROR-SECRET-9") })
        #expect(traced.withLock { $0 }.contains { $0.contains("sqlcipher_export") })
        #expect(!traced.withLock { $0 }.contains { $0.contains("TRACE-SECRET-9") })
    }

    /// A database whose last page was altered: it opens, and a full read
    /// (an export) fails on that page.
    func makeDamagedDatabase(in dir: TemporaryDirectory) throws -> DatabaseQueue {
        let path = dir.path("damaged.sqlite")
        let dbQueue = try DatabaseQueue(path: path, configuration: keyed("k"))
        try makeRows(dbQueue, count: 300)
        try dbQueue.close()
        var bytes = try fileBytes(path)
        bytes[bytes.count - 2000] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: path))
        return try DatabaseQueue(path: path, configuration: keyed("k"))
    }
}
