import Foundation
import Testing
@testable import GRDBCipher
import GRDBCipherTesting

/// Backups and exports of an enveloped database carry its envelope: the
/// same key-encryption key opens the copy, and a failed copy leaves nothing.
@Suite struct EnvelopedCopyTests {
    private let kek = KeyEncryptionKey.passphrase("outer secret", scrypt: .insecureForTestsOnly)
    private let otherKEK = KeyEncryptionKey.passphrase("another secret", scrypt: .insecureForTestsOnly)

    /// A pool on a new enveloped database holding `count` rows.
    private func makeEnvelopedPool(_ dir: TemporaryDirectory, count: Int = 500) throws -> DatabasePool {
        let path = dir.path("db.sqlite")
        var configuration = Configuration()
        configuration.key = try DatabaseEnvelope.unwrap(
            forDatabaseAt: path, keyEncryptionKey: kek, creatingIfMissing: true).key
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
            for id in 1...count {
                try db.execute(sql: "INSERT INTO t (name) VALUES (?)", arguments: ["row \(id)"])
            }
        }
        return dbPool
    }

    /// The number of rows of the copy at `path`, opened through its own
    /// envelope with `keyEncryptionKey`, by a new connection.
    private func rowCount(ofCopyAt path: String, keyEncryptionKey: KeyEncryptionKey) throws -> Int {
        var configuration = Configuration()
        configuration.key = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: keyEncryptionKey).key
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? dbQueue.close() }
        return try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t")! }
    }

    private func permissions(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }

    @Test func anExportCarriesTheEnvelope() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeEnvelopedPool(dir)
        defer { try? dbPool.close() }
        let copy = dir.path("export.sqlite")
        try dbPool.exportWithEnvelope(to: copy, keyEncryptionKey: kek)
        #expect(try rowCount(ofCopyAt: copy, keyEncryptionKey: kek) == 500)
        #expect(try DatabaseFile.isEncrypted(atPath: copy))
        #expect(try permissions(DatabaseEnvelope.path(forDatabaseAt: copy)) == 0o600)
        // The copy's envelope is the source's: rewrapping one leaves the other.
        try DatabaseEnvelope.rewrap(forDatabaseAt: copy, from: kek, to: otherKEK)
        #expect(try rowCount(ofCopyAt: copy, keyEncryptionKey: otherKEK) == 500)
        _ = try DatabaseEnvelope.unwrap(forDatabaseAt: dbPool.path, keyEncryptionKey: kek)
    }

    @Test func aBackupCarriesTheEnvelope() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeEnvelopedPool(dir)
        defer { try? dbPool.close() }
        let copy = dir.path("backup.sqlite")
        var reports = 0
        try dbPool.backupWithEnvelope(to: copy, keyEncryptionKey: kek, pagesPerStep: 2) { _ in reports += 1 }
        #expect(reports > 1)
        #expect(try rowCount(ofCopyAt: copy, keyEncryptionKey: kek) == 500)
        // Nothing but the copy and its envelope was left beside the source.
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix("backup") }
        #expect(names.sorted() == ["backup.sqlite", "backup.sqlite.envelope"], "\(names)")
    }

    @Test func theAsyncTwinsCarryTheEnvelope() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeEnvelopedPool(dir, count: 20)
        defer { try? dbPool.close() }
        try await dbPool.exportWithEnvelope(to: dir.path("export.sqlite"), keyEncryptionKey: kek)
        try await dbPool.backupWithEnvelope(to: dir.path("backup.sqlite"), keyEncryptionKey: kek, pagesPerStep: 1)
        #expect(try rowCount(ofCopyAt: dir.path("export.sqlite"), keyEncryptionKey: kek) == 20)
        #expect(try rowCount(ofCopyAt: dir.path("backup.sqlite"), keyEncryptionKey: kek) == 20)
    }

    @Test func aCancelledBackupLeavesNothing() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeEnvelopedPool(dir, count: 2000)
        defer { try? dbPool.close() }
        let copy = dir.path("backup.sqlite")
        let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
        let cancelled = DispatchSemaphore(value: 0)
        let task = Task {
            try await dbPool.backupWithEnvelope(to: copy, keyEncryptionKey: kek, pagesPerStep: 1) { report in
                #expect(!report.isCompleted, "the first step copies one page of many")
                // The first step waits for the cancellation; the next one sees it.
                startedContinuation.yield()
                cancelled.wait()
            }
        }
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()
        task.cancel()
        cancelled.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix("backup") }
        #expect(names.isEmpty, "\(names)")
    }

    @Test func aWrongKeyEncryptionKeyCopiesNothing() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeEnvelopedPool(dir, count: 3)
        defer { try? dbPool.close() }
        for copy in [dir.path("export.sqlite"), dir.path("backup.sqlite")] {
            let error = #expect(throws: DatabaseEnvelopeError.self) {
                if copy.hasSuffix("export.sqlite") {
                    try dbPool.exportWithEnvelope(to: copy, keyEncryptionKey: otherKEK)
                } else {
                    try dbPool.backupWithEnvelope(to: copy, keyEncryptionKey: otherKEK)
                }
            }
            #expect(error?.kind == .wrongKeyEncryptionKey)
            #expect(!FileManager.default.fileExists(atPath: copy))
            #expect(!FileManager.default.fileExists(atPath: DatabaseEnvelope.path(forDatabaseAt: copy)))
        }
    }

    @Test func anExistingDestinationAndItsEnvelopeAreLeftAsTheyWere() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeEnvelopedPool(dir, count: 3)
        defer { try? dbPool.close() }
        let copy = dir.path("copy.sqlite")
        try dbPool.exportWithEnvelope(to: copy, keyEncryptionKey: kek)
        try DatabaseEnvelope.rewrap(forDatabaseAt: copy, from: kek, to: otherKEK)
        let envelope = try Data(contentsOf: URL(fileURLWithPath: DatabaseEnvelope.path(forDatabaseAt: copy)))
        let database = try Data(contentsOf: URL(fileURLWithPath: copy))
        #expect(throws: DatabaseError.self) { try dbPool.exportWithEnvelope(to: copy, keyEncryptionKey: kek) }
        #expect(throws: DatabaseError.self) { try dbPool.backupWithEnvelope(to: copy, keyEncryptionKey: kek) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: DatabaseEnvelope.path(forDatabaseAt: copy))) == envelope)
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == database)
    }

    @Test func aFailedCopyLeavesNoEnvelope() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeEnvelopedPool(dir, count: 3)
        defer { try? dbPool.close() }
        // A progress callback that throws cancels the backup.
        struct Stop: Error {}
        let copy = dir.path("backup.sqlite")
        #expect(throws: Stop.self) {
            try dbPool.backupWithEnvelope(to: copy, keyEncryptionKey: kek, pagesPerStep: 1) { _ in throw Stop() }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix("backup") }
        #expect(names.isEmpty, "\(names)")
        // A destination folder that does not exist.
        let missing = dir.path("missing/export.sqlite")
        #expect(throws: (any Error).self) { try dbPool.exportWithEnvelope(to: missing, keyEncryptionKey: kek) }
        #expect(!FileManager.default.fileExists(atPath: DatabaseEnvelope.path(forDatabaseAt: missing)))
    }

    @Test func theSQLCipherShellReadsAnExportedCopy() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeEnvelopedPool(dir, count: 7)
        defer { try? dbPool.close() }
        let copy = dir.path("export.sqlite")
        try dbPool.exportWithEnvelope(to: copy, keyEncryptionKey: kek)
        let envelope = try EnvelopeFile.read(atPath: DatabaseEnvelope.path(forDatabaseAt: copy))
        // The key's bytes are zeroed when it goes: keep it while they are read.
        let dataKey = try envelope.unwrap(with: kek)
        let rawKey = withExtendedLifetime(dataKey) {
            "x'" + EnvelopeFile.hex(Array(dataKey.bytes)) + envelope.databaseSalt + "'"
        }
        let output = try SQLCipherShell.run(copy, key: nil, script: "PRAGMA key = \"\(rawKey)\";\nSELECT count(*) FROM t;\n")
        // "ok" answers the key; then the count.
        #expect(output.split(separator: "\n").last == "7", "\(output)")
    }
}
