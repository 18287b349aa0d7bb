import Foundation
import Testing
@testable import GRDBCipher
import GRDBCipherTesting

/// The key-change lock, and the envelope operations that used to lose the
/// data key: a rewrap after a cut rotation, two first starts on one path,
/// a rotation that fails after its commit, unbounded scrypt parameters, and
/// copy and swap that changed a file's mode. The crash-point matrix
/// (Tests/CrashPoints/run) tries every file-system call of each; these are
/// the findings, one by one, in process.
@Suite struct KeyChangeSafetyTests {
    private let kek = KeyEncryptionKey.passphrase("outer secret", scrypt: .insecureForTestsOnly)
    private let newKEK = KeyEncryptionKey.passphrase("new outer secret", scrypt: .insecureForTestsOnly)

    private func makeEnvelopedDatabase(_ dir: TemporaryDirectory) throws -> String {
        let path = dir.path("db.sqlite")
        var configuration = Configuration()
        configuration.key = try DatabaseEnvelope.create(forDatabaseAt: path, keyEncryptionKey: kek)
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('kept')") }
        try dbQueue.close()
        return path
    }

    private func readName(_ path: String, with kek: KeyEncryptionKey) throws -> String? {
        var configuration = Configuration()
        configuration.key = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: kek).key
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? dbQueue.close() }
        return try dbQueue.read { try String.fetchOne($0, sql: "SELECT name FROM t") }
    }

    /// The state a data-key rotation leaves when it is cut after the
    /// re-encryption's commit: the file under the new key, `.envelope` with
    /// the old one, `.envelope-next` with the new one.
    private func cutRotation(_ path: String) throws {
        let current = try EnvelopeFile.read(atPath: DatabaseEnvelope.path(forDatabaseAt: path))
        let oldKey = try current.databaseKey(current.unwrap(with: kek))
        let newDataKey = KeyMaterial(copying: UnsafeRawBufferPointer(start: [UInt8](repeating: 5, count: 32), count: 32))
        let next = try EnvelopeFile.wrapping(
            newDataKey, databaseSalt: current.databaseSaltBytes, keyEncryptionKey: kek, created: current.createdDate)
        try next.write(toPath: DatabaseEnvelope.nextPath(forDatabaseAt: path), replacing: false)
        var configuration = Configuration()
        configuration.key = oldKey
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        try dbQueue.changeKey(next.databaseKey(newDataKey))
        try dbQueue.close()
    }

    @Test func aRewrapAfterACutRotationWrapsTheKeyThatOpensTheFile() throws {
        let dir = try TemporaryDirectory()
        let path = try makeEnvelopedDatabase(dir)
        try cutRotation(path)
        try DatabaseEnvelope.rewrap(forDatabaseAt: path, from: kek, to: newKEK)
        // The operator retires the old key-encryption key: the new one alone opens the data.
        #expect(try readName(path, with: newKEK) == "kept")
        #expect(!FileManager.default.fileExists(atPath: DatabaseEnvelope.nextPath(forDatabaseAt: path)))
        // An independent reader: the shell, with the data key the new KEK unwraps.
        let envelope = try EnvelopeFile.read(atPath: DatabaseEnvelope.path(forDatabaseAt: path))
        let dataKey = try envelope.unwrap(with: newKEK)
        let rawKey = withExtendedLifetime(dataKey) { "x'" + EnvelopeFile.hex(Array(dataKey.bytes)) + envelope.databaseSalt + "'" }
        #expect(try SQLCipherShell.run(path, key: nil, script: "PRAGMA key = \"\(rawKey)\";\nSELECT name FROM t;\n").contains("kept"))
    }

    @Test func anEnvelopeIsNeverReplaced() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        _ = try DatabaseEnvelope.create(forDatabaseAt: path, keyEncryptionKey: kek)
        let envelope = try Data(contentsOf: URL(fileURLWithPath: DatabaseEnvelope.path(forDatabaseAt: path)))
        #expect(throws: DatabaseEnvelopeError.self) { _ = try DatabaseEnvelope.create(forDatabaseAt: path, keyEncryptionKey: kek) }
        let envelopeFile = try EnvelopeFile.read(atPath: DatabaseEnvelope.path(forDatabaseAt: path))
        #expect(throws: DatabaseEnvelopeError.self) {
            try envelopeFile.write(toPath: DatabaseEnvelope.path(forDatabaseAt: path), replacing: false)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: DatabaseEnvelope.path(forDatabaseAt: path))) == envelope)
    }

    @Test func firstStartsOnOneNewPathAllGetTheSameKey() throws {
        for _ in 0..<10 {
            let dir = try TemporaryDirectory()
            let path = dir.path("db.sqlite")
            let keys = LockedValue<[Result<[UInt8], any Error>]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                let key = Result {
                    let key = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: kek, creatingIfMissing: true).key
                    return withExtendedLifetime(key) { Array(key.material.bytes) }
                }
                keys.withLock { $0.append(key) }
            }
            let found = try keys.withLock { $0 }.map { try $0.get() }
            #expect(Set(found).count == 1)
        }
    }

    @Test func anOperationWaitsForTheLockThatAnotherHolds() throws {
        let dir = try TemporaryDirectory()
        let path = try makeEnvelopedDatabase(dir)
        let lock = try KeyChangeLock(forDatabaseAt: path, operation: "test")
        let kek = self.kek
        // A thread of its own: the wait blocks it.
        let outcome = LockedValue<Result<Bool, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            outcome.withLock { $0 = Result { try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: kek).created } }
            finished.signal()
        }
        #expect(finished.wait(timeout: .now() + 0.3) == .timedOut, "the unwrap did not wait for the lock")
        // A short wait gives up, with a clear error.
        #expect(throws: DatabaseError.self) {
            _ = try KeyChangeLock(forDatabaseAt: path, operation: "test", timeout: 0.05)
        }
        lock.release()
        #expect(finished.wait(timeout: .now() + 30) == .success)
        #expect(try outcome.withLock { $0 }?.get() == false)
        // The last holder removes the lock file.
        #expect(!FileManager.default.fileExists(atPath: KeyChangeLock.lockPath(forDatabaseAt: path)))
    }

    @Test func aRotationRefusesAFileThatAnotherConnectionKeepsOpen() throws {
        let dir = try TemporaryDirectory()
        let path = try makeEnvelopedDatabase(dir)
        var configuration = Configuration()
        configuration.key = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: kek).key
        configuration.journalMode = .wal
        // A pool that stays open, as a server's would.
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        defer { try? dbPool.close() }
        _ = try dbPool.read { try String.fetchOne($0, sql: "SELECT name FROM t") }
        let before = try Data(contentsOf: URL(fileURLWithPath: DatabaseEnvelope.path(forDatabaseAt: path)))
        #expect(throws: DatabaseError.self) { try DatabaseEnvelope.rotateDataKey(forDatabaseAt: path, keyEncryptionKey: kek) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: DatabaseEnvelope.path(forDatabaseAt: path))) == before)
        #expect(!FileManager.default.fileExists(atPath: DatabaseEnvelope.nextPath(forDatabaseAt: path)))
        #expect(try dbPool.read { try String.fetchOne($0, sql: "SELECT name FROM t") } == "kept")
    }

    @Test(arguments: [
        (UInt64(1) << 57, UInt64(8), UInt64(1)),   // 128·r·N overflows
        (UInt64(1) << 17, UInt64(8), UInt64(1022)),  // a thousand derivations
        (UInt64(1) << 21, UInt64(8), UInt64(1)),   // 2 GiB
        (UInt64(3), UInt64(8), UInt64(1)),   // not a power of two
    ])
    func scryptParametersReadFromAnEnvelopeAreBoundedBeforeUse(n: UInt64, r: UInt64, p: UInt64) throws {
        let dir = try TemporaryDirectory()
        let path = try makeEnvelopedDatabase(dir)
        let envelopePath = DatabaseEnvelope.path(forDatabaseAt: path)
        var object = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: envelopePath))) as? [String: Any])
        var info = try #require(object["keyEncryptionKey"] as? [String: Any])
        info["n"] = n
        info["r"] = r
        info["p"] = p
        object["keyEncryptionKey"] = info
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: envelopePath))
        let started = Date()
        do {
            _ = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: kek)
            Issue.record("an envelope with N = \(n), r = \(r), p = \(p) opened")
        } catch let error as DatabaseEnvelopeError {
            #expect(error.kind == .malformed)
        }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func scryptParametersOfANewEnvelopeAreBoundedToo() throws {
        let dir = try TemporaryDirectory()
        let greedy = KeyEncryptionKey.passphrase("secret", scrypt: ScryptParameters(cost: 1 << 40, blockSize: 1 << 40, parallelization: 1))
        #expect(throws: DatabaseEnvelopeError.self) {
            _ = try DatabaseEnvelope.create(forDatabaseAt: dir.path("db.sqlite"), keyEncryptionKey: greedy)
        }
        #expect(!FileManager.default.fileExists(atPath: DatabaseEnvelope.path(forDatabaseAt: dir.path("db.sqlite"))))
        #expect(throws: Never.self) { try ScryptParameters.default.checkBudget() }
    }

    @Test(arguments: [0o600, 0o640])
    func copyAndSwapKeepsTheFileMode(mode: Int) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        var configuration = Configuration()
        configuration.passphrase = "old"
        configuration.cipherSettings.kdfIterations = 4_000
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('kept')") }
        try dbQueue.close()
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        try DatabaseFile.reencrypt(
            atPath: path, key: .passphrase("old"), settings: CipherSettings(kdfIterations: 4_000),
            newKey: .passphrase("new"), newSettings: CipherSettings(kdfIterations: 5_000))
        let found = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(found == mode, "the mode became \(String(found ?? 0, radix: 8))")
    }

    @Test func aPlaintextFileKeepsItsModeWhenEnveloped() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('kept')") }
        try dbQueue.close()
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        try DatabaseEnvelope.encrypt(plaintextDatabaseAt: path, keyEncryptionKey: kek)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(try readName(path, with: kek) == "kept")
    }

    @Test func anEnvelopeLeftByACutEncryptionIsUsedNotReplaced() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('kept')") }
        try dbQueue.close()
        // As an encryption cut after it wrote the envelope.
        _ = try DatabaseEnvelope.create(forDatabaseAt: dir.path("other.sqlite"), keyEncryptionKey: kek)
        try FileManager.default.moveItem(
            atPath: DatabaseEnvelope.path(forDatabaseAt: dir.path("other.sqlite")), toPath: DatabaseEnvelope.path(forDatabaseAt: path))
        let envelope = try Data(contentsOf: URL(fileURLWithPath: DatabaseEnvelope.path(forDatabaseAt: path)))
        // Another key-encryption key does not get to replace it.
        #expect(throws: DatabaseEnvelopeError.self) { try DatabaseEnvelope.encrypt(plaintextDatabaseAt: path, keyEncryptionKey: newKEK) }
        #expect(try DatabaseFile.isEncrypted(atPath: path) == false)
        try DatabaseEnvelope.encrypt(plaintextDatabaseAt: path, keyEncryptionKey: kek)
        #expect(try Data(contentsOf: URL(fileURLWithPath: DatabaseEnvelope.path(forDatabaseAt: path))) == envelope)
        #expect(try readName(path, with: kek) == "kept")
    }
}
