import Foundation
import Testing
@testable import GRDBCipher
import GRDBCipherTesting

/// Envelope encryption: a random data key, wrapped by a key-encryption key
/// in `<database>.envelope`.
@Suite struct DatabaseEnvelopeTests {
    private let fastKEK = KeyEncryptionKey.passphrase("outer secret", scrypt: .insecureForTestsOnly)
    private let otherKEK = KeyEncryptionKey.passphrase("another secret", scrypt: .insecureForTestsOnly)

    /// A database created under an envelope, with one row.
    private func makeEnvelopedDatabase(_ dir: TemporaryDirectory, name: String = "db.sqlite") throws -> String {
        let path = dir.path(name)
        let unwrapped = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: fastKEK, creatingIfMissing: true)
        #expect(unwrapped.created)
        var configuration = Configuration()
        configuration.key = unwrapped.key
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('kept')")
        }
        try dbQueue.close()
        return path
    }

    private func readName(_ path: String, key: DatabaseKey) throws -> String? {
        var configuration = Configuration()
        configuration.key = key
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? dbQueue.close() }
        return try dbQueue.read { db in try String.fetchOne(db, sql: "SELECT name FROM t") }
    }

    private func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    private func envelopeError(_ body: () throws -> Void) -> DatabaseEnvelopeError? {
        do {
            try body()
            return nil
        } catch let error as DatabaseEnvelopeError {
            return error
        } catch {
            Issue.record("unexpected error: \(error)")
            return nil
        }
    }

    @Test func aNewDatabaseOpensWithItsUnwrappedKey() throws {
        let dir = try TemporaryDirectory()
        let path = try makeEnvelopedDatabase(dir)
        let unwrapped = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: fastKEK)
        #expect(!unwrapped.created)
        #expect(unwrapped.recovery == nil)
        #expect(unwrapped.key.isRawKey)
        #expect(try readName(path, key: unwrapped.key) == "kept")
        // The file is an ordinary SQLCipher file, and the envelope is private.
        #expect(try DatabaseFile.isEncrypted(atPath: path))
        let mode = try FileManager.default.attributesOfItem(atPath: DatabaseEnvelope.path(forDatabaseAt: path))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("")).sorted() == ["db.sqlite", "db.sqlite.envelope"])
    }

    @Test func theReferenceShellReadsTheFileWithTheUnwrappedRawKey() throws {
        let dir = try TemporaryDirectory()
        let path = try makeEnvelopedDatabase(dir)
        let envelope = try EnvelopeFile.read(atPath: DatabaseEnvelope.path(forDatabaseAt: path))
        let dataKey = try envelope.unwrap(with: fastKEK)
        let rawKey = "x'" + EnvelopeFile.hex(Array(dataKey.bytes)) + envelope.databaseSalt + "'"
        let output = try SQLCipherShell.run(path, key: nil, script: "PRAGMA key = \"\(rawKey)\";\nSELECT name FROM t;\n")
        #expect(output.contains("kept"))
    }

    @Test func aWrongKeyEncryptionKeyIsRefusedAndNothingChanges() throws {
        let dir = try TemporaryDirectory()
        let path = try makeEnvelopedDatabase(dir)
        let envelopePath = DatabaseEnvelope.path(forDatabaseAt: path)
        let before = try bytes(envelopePath)
        let error = envelopeError { _ = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: otherKEK) }
        #expect(error?.kind == .wrongKeyEncryptionKey)
        let rawError = envelopeError {
            _ = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: .rawKey(Data(repeating: 1, count: 32)))
        }
        #expect(rawError?.kind == .wrongKeyEncryptionKey)
        let rewrapError = envelopeError { try DatabaseEnvelope.rewrap(forDatabaseAt: path, from: otherKEK, to: fastKEK) }
        #expect(rewrapError?.kind == .wrongKeyEncryptionKey)
        #expect(try bytes(envelopePath) == before)
    }

    @Test(arguments: ["wrappedDataKey", "created", "databaseSalt", "n"])
    func anAlteredEnvelopeDoesNotOpen(field: String) throws {
        let dir = try TemporaryDirectory()
        let path = try makeEnvelopedDatabase(dir)
        let envelopePath = DatabaseEnvelope.path(forDatabaseAt: path)
        var object = try #require(JSONSerialization.jsonObject(with: bytes(envelopePath)) as? [String: Any])
        switch field {
        case "wrappedDataKey", "databaseSalt":
            var text = try #require(object[field] as? String)
            let first = text.removeFirst()
            text.insert(first == "0" ? "1" : "0", at: text.startIndex)
            object[field] = text
        case "created":
            object[field] = "2001-01-01T00:00:00Z"
        default:
            var info = try #require(object["keyEncryptionKey"] as? [String: Any])
            info["n"] = 2048
            object["keyEncryptionKey"] = info
        }
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: envelopePath))
        let error = envelopeError { _ = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: fastKEK) }
        // An altered salt is found before any key is tried.
        #expect(error?.kind == (field == "databaseSalt" ? .belongsToAnotherDatabase : .wrongKeyEncryptionKey))
    }

    @Test func aTruncatedOrMissingEnvelopeSaysSo() throws {
        let dir = try TemporaryDirectory()
        let path = try makeEnvelopedDatabase(dir)
        let envelopePath = DatabaseEnvelope.path(forDatabaseAt: path)
        let content = try bytes(envelopePath)
        try content.prefix(content.count / 2).write(to: URL(fileURLWithPath: envelopePath))
        #expect(envelopeError { _ = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: fastKEK) }?.kind == .malformed)
        try FileManager.default.removeItem(atPath: envelopePath)
        let missing = envelopeError { _ = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: fastKEK) }
        #expect(missing?.kind == .missing)
        #expect(missing?.message.contains(envelopePath) == true)
        // An existing database without an envelope is not given a new key.
        let created = envelopeError {
            _ = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: fastKEK, creatingIfMissing: true)
        }
        #expect(created?.kind == .missing)
    }

    @Test func theEnvelopeOfAnotherDatabaseIsRefusedBeforeAnyPageIsRead() throws {
        let dir = try TemporaryDirectory()
        let first = try makeEnvelopedDatabase(dir, name: "first.sqlite")
        let second = try makeEnvelopedDatabase(dir, name: "second.sqlite")
        try FileManager.default.removeItem(atPath: DatabaseEnvelope.path(forDatabaseAt: second))
        try FileManager.default.copyItem(
            atPath: DatabaseEnvelope.path(forDatabaseAt: first), toPath: DatabaseEnvelope.path(forDatabaseAt: second))
        let error = envelopeError { _ = try DatabaseEnvelope.unwrap(forDatabaseAt: second, keyEncryptionKey: fastKEK) }
        #expect(error?.kind == .belongsToAnotherDatabase)
    }

    @Test func rewrapChangesTheKeyEncryptionKeyAndNoPageOfTheDatabase() throws {
        let dir = try TemporaryDirectory()
        let path = try makeEnvelopedDatabase(dir)
        let databaseBefore = try bytes(path)
        let keyBefore = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: fastKEK).key
        let rawKEK = try KeyEncryptionKey.rawKey(Data((0..<32).map { UInt8($0) }))
        try DatabaseEnvelope.rewrap(forDatabaseAt: path, from: fastKEK, to: rawKEK)
        #expect(try bytes(path) == databaseBefore)
        let error = envelopeError { _ = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: fastKEK) }
        #expect(error?.kind == .wrongKeyEncryptionKey)
        let keyAfter = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: rawKEK).key
        #expect(Array(keyAfter.material.bytes) == Array(keyBefore.material.bytes))
        #expect(try DatabaseEnvelope.info(forDatabaseAt: path).keyEncryptionKeyKind == "raw key")
        #expect(try readName(path, key: keyAfter) == "kept")
    }

    @Test func rotatingTheDataKeyReencryptsTheFile() throws {
        let dir = try TemporaryDirectory()
        let path = try makeEnvelopedDatabase(dir)
        let oldKey = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: fastKEK).key
        try DatabaseEnvelope.rotateDataKey(forDatabaseAt: path, keyEncryptionKey: fastKEK)
        let newKey = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: fastKEK)
        #expect(newKey.recovery == nil)
        #expect(Array(newKey.key.material.bytes) != Array(oldKey.material.bytes))
        #expect(try readName(path, key: newKey.key) == "kept")
        guard case .refused = FileKeyProof.check(path: path, key: oldKey.material, settings: [], usesURI: false) else {
            Issue.record("the old data key still opens the file")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: DatabaseEnvelope.nextPath(forDatabaseAt: path)))
    }

    @Test func anUnwrapUndoesARotationThatDidNotReencrypt() throws {
        let dir = try TemporaryDirectory()
        let path = try makeEnvelopedDatabase(dir)
        let current = try EnvelopeFile.read(atPath: DatabaseEnvelope.path(forDatabaseAt: path))
        // As a rotation that died after writing the new envelope.
        let next = try EnvelopeFile.wrapping(
            KeyMaterial(copying: UnsafeRawBufferPointer(start: [UInt8](repeating: 7, count: 32), count: 32)),
            databaseSalt: current.databaseSaltBytes, keyEncryptionKey: fastKEK, created: current.createdDate)
        try next.write(toPath: DatabaseEnvelope.nextPath(forDatabaseAt: path), replacing: false)
        let unwrapped = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: fastKEK)
        #expect(unwrapped.recovery == .discardedDataKeyRotation)
        #expect(try readName(path, key: unwrapped.key) == "kept")
        #expect(!FileManager.default.fileExists(atPath: DatabaseEnvelope.nextPath(forDatabaseAt: path)))
    }

    @Test func anUnwrapCompletesARotationThatReencrypted() throws {
        let dir = try TemporaryDirectory()
        let path = try makeEnvelopedDatabase(dir)
        let oldKey = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: fastKEK).key
        let current = try EnvelopeFile.read(atPath: DatabaseEnvelope.path(forDatabaseAt: path))
        let newDataKey = KeyMaterial(copying: UnsafeRawBufferPointer(start: [UInt8](repeating: 9, count: 32), count: 32))
        let next = try EnvelopeFile.wrapping(
            newDataKey, databaseSalt: current.databaseSaltBytes, keyEncryptionKey: fastKEK, created: current.createdDate)
        try next.write(toPath: DatabaseEnvelope.nextPath(forDatabaseAt: path), replacing: false)
        // As a rotation that died after the re-encryption, before the rename.
        var configuration = Configuration()
        configuration.key = oldKey
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        try dbQueue.changeKey(next.databaseKey(newDataKey))
        try dbQueue.close()
        let unwrapped = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: fastKEK)
        #expect(unwrapped.recovery == .completedDataKeyRotation)
        #expect(try readName(path, key: unwrapped.key) == "kept")
        #expect(try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: fastKEK).recovery == nil)
    }

    @Test func aKeyCommandSuppliesTheKeyEncryptionKey() throws {
        let dir = try TemporaryDirectory()
        let path = try makeEnvelopedDatabase(dir)
        let hexKey = String(repeating: "ab", count: 32)
        let good = KeyEncryptionKey.command(["printf", "%s\\n", hexKey])
        try DatabaseEnvelope.rewrap(forDatabaseAt: path, from: fastKEK, to: good)
        #expect(try readName(path, key: DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: good).key) == "kept")
        let failing = envelopeError {
            _ = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: .command(["false"]))
        }
        #expect(failing?.kind == .keyCommandFailed)
        let secretLooking = "not-a-key-but-a-secret"
        let garbage = envelopeError {
            _ = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: .command(["echo", secretLooking]))
        }
        #expect(garbage?.kind == .keyCommandFailed)
        #expect(garbage?.message.contains(secretLooking) == false)
        let missing = envelopeError {
            _ = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: .command(["/nonexistent/kek-tool"]))
        }
        #expect(missing?.kind == .keyCommandFailed)
    }

    @Test func aKeyCommandThatHangsIsStoppedAtItsTimeout() throws {
        let dir = try TemporaryDirectory()
        let path = try makeEnvelopedDatabase(dir)
        // A command gives a raw key: the envelope must be wrapped by one.
        try DatabaseEnvelope.rewrap(forDatabaseAt: path, from: fastKEK, to: .rawKey(Data(repeating: 3, count: 32)))
        let hanging = envelopeError {
            _ = try DatabaseEnvelope.unwrap(
                forDatabaseAt: path, keyEncryptionKey: .command(["sleep", "30"], timeout: .milliseconds(300)))
        }
        #expect(hanging?.kind == .keyCommandFailed)
        #expect(hanging?.message.contains("did not finish") == true)
        // A command for an envelope wrapped by a passphrase is not even run.
        try DatabaseEnvelope.rewrap(forDatabaseAt: path, from: .rawKey(Data(repeating: 3, count: 32)), to: fastKEK)
        let mismatched = envelopeError {
            _ = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: .command(["sleep", "30"]))
        }
        #expect(mismatched?.kind == .wrongKeyEncryptionKey)
    }

    /// A wrapper script that leaves a process behind holding its output:
    /// the key it printed is used at once, and the call is bounded anyway.
    @Test func aKeyCommandThatLeavesAChildHoldingItsOutputIsNotWaitedFor() throws {
        let dir = try TemporaryDirectory()
        let path = try makeEnvelopedDatabase(dir)
        let kek = String(repeating: "ab", count: 32)
        try DatabaseEnvelope.rewrap(forDatabaseAt: path, from: fastKEK, to: .rawKey(Data(repeating: 0xab, count: 32)))
        let started = Date()
        let unwrapped = try DatabaseEnvelope.unwrap(
            forDatabaseAt: path, keyEncryptionKey: .command(["sh", "-c", "sleep 30 & echo \(kek)"], timeout: .seconds(10)))
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(try readName(path, key: unwrapped.key) == "kept")
        // Without the key printed, the timeout bounds the call.
        let slow = Date()
        let silent = envelopeError {
            _ = try DatabaseEnvelope.unwrap(
                forDatabaseAt: path, keyEncryptionKey: .command(["sh", "-c", "sleep 30 & exec sleep 30"], timeout: .milliseconds(500)))
        }
        #expect(silent?.kind == .keyCommandFailed)
        #expect(Date().timeIntervalSince(slow) < 5)
    }

    @Test func aPlaintextDatabaseIsEncryptedUnderANewEnvelope() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("plain.sqlite")
        let plain = try DatabaseQueue(path: path)
        try plain.write { db in try db.execute(sql: "CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('kept')") }
        try plain.close()
        try DatabaseEnvelope.encrypt(plaintextDatabaseAt: path, keyEncryptionKey: fastKEK)
        #expect(try DatabaseFile.isEncrypted(atPath: path))
        let unwrapped = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: fastKEK)
        #expect(try readName(path, key: unwrapped.key) == "kept")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("")).sorted() == ["plain.sqlite", "plain.sqlite.envelope"])
        // An encrypted file is refused.
        #expect(envelopeError { try DatabaseEnvelope.encrypt(plaintextDatabaseAt: path, keyEncryptionKey: fastKEK) }?.kind == .invalidKey)
    }
}
