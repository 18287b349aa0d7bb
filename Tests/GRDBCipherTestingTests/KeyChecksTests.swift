import Foundation
import GRDBCipher
@testable import GRDBCipherTesting
import Testing

/// `opens`, `refuses` and `rotated`: each passes on what it should, and
/// fails with a message that says what each key found, never the key.
@Suite struct KeyChecksTests {
    static let secret = "key-checks-secret-71c3"

    @Test func theRightKeyOpensAndTheWrongOneIsRefused() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let path = directory.path(for: "db.sqlite")
        let right = TestKey.insecureFastPassphrase(Self.secret)
        let wrong = TestKey.insecureFastPassphrase("another")
        try writeNote(at: path, configuration: right.configuration)

        try EncryptionCheck.opens(path, with: right.configuration)
        try EncryptionCheck.refuses(path, with: wrong.configuration)

        let opens = try #require(try failureMessage { try EncryptionCheck.opens(path, with: wrong.configuration) })
        #expect(opens.contains("the key should open \(path) and read it, but the key was refused (SQLITE_NOTADB"), "\(opens)")
        let refuses = try #require(try failureMessage { try EncryptionCheck.refuses(path, with: right.configuration) })
        #expect(refuses.contains("should be refused with SQLITE_NOTADB, but the key opened the database and read it (1 tables)"), "\(refuses)")
        for message in [opens, refuses] {
            #expect(!message.contains(Self.secret))
        }
    }

    @Test func aPlaintextFileIsRefusedToAKeyAndOpensWithout() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let path = directory.path(for: "plain.sqlite")
        try writeNote(at: path)
        try EncryptionCheck.refuses(path, with: TestKey.insecureRandomRawKey().configuration)
        try EncryptionCheck.opens(path, with: Configuration())
    }

    @Test func aMissingFileIsNeitherOpenedNorCreated() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let path = directory.path(for: "missing.sqlite")
        let key = TestKey.insecureRandomRawKey()
        #expect(try failureMessage { try EncryptionCheck.opens(path, with: key.configuration) }?.contains("does not exist") == true)
        #expect(try failureMessage { try EncryptionCheck.refuses(path, with: key.configuration) }?.contains("does not exist") == true)
        #expect(try directory.fileNames().isEmpty)
    }

    @Test func aDamagedPageIsReported() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let path = directory.path(for: "db.sqlite")
        let key = TestKey.insecureRandomRawKey()
        let dbQueue = try DatabaseQueue(path: path, configuration: key.configuration)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE note (text TEXT)")
            for _ in 0..<50 { try db.execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: [String(repeating: "x", count: 500)]) }
        }
        try dbQueue.close()
        // Flips a byte in the middle of the third page: its HMAC no longer authenticates.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 2 * 4096 + 1000)
        let byte = try handle.read(upToCount: 1)!
        try handle.seek(toOffset: 2 * 4096 + 1000)
        try handle.write(contentsOf: Data([byte[0] ^ 0xFF]))
        try handle.close()

        let message = try #require(try failureMessage { try EncryptionCheck.opens(path, with: key.configuration) })
        // SQLCipher fails the read of the page (with SQLITE_ERROR here): not a refusal.
        #expect(message.contains("the key should open \(path) and read it, but "), "\(message)")
        #expect(!message.contains("the key was refused"), "\(message)")
    }

    @Test(arguments: [false, true])
    func aRotationLeavesExactlyTheNewKey(pool: Bool) throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let path = directory.path(for: "db.sqlite")
        let old = TestKey.insecureFastPassphrase("old")
        let new = TestKey.insecureFastPassphrase("new")
        let writer: any DatabaseWriter = pool
            ? try DatabasePool(path: path, configuration: old.configuration)
            : try DatabaseQueue(path: path, configuration: old.configuration)
        try writer.write { db in try db.execute(sql: "CREATE TABLE t(a)") }

        let before = try #require(try failureMessage { try EncryptionCheck.rotated(path, from: old.configuration, to: new.configuration) })
        #expect(before.contains("the new key should read it, but the key was refused"), "\(before)")
        #expect(before.contains("the old key should be refused"), "\(before)")

        if let dbPool = writer as? DatabasePool {
            try dbPool.changePassphrase("new")
        } else if let dbQueue = writer as? DatabaseQueue {
            try dbQueue.changePassphrase("new")
        }
        try EncryptionCheck.rotated(path, from: old.configuration, to: new.configuration)
        try writer.close()
        try EncryptionCheck.rotated(path, from: old.configuration, to: new.configuration)

        let backwards = try #require(try failureMessage { try EncryptionCheck.rotated(path, from: new.configuration, to: old.configuration) })
        #expect(backwards.contains("after the rotation of \(path), the new key should read it"), "\(backwards)")
        let same = try #require(try failureMessage { try EncryptionCheck.rotated(path, from: new.configuration, to: new.configuration) })
        #expect(same.contains("the new key reads it, but the old key should be refused"), "\(same)")
    }

    @Test func expectationsRecordTheFailureAtTheCall() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let path = directory.path(for: "db.sqlite")
        let key = TestKey.insecureRandomRawKey()
        try writeNote(at: path, configuration: key.configuration)
        let failures = TestFailureReporter.capturingFailures {
            #expect(expectRefuses(path, with: key.configuration) == false)
            expectOpens(path, with: TestKey.insecureRandomRawKey().configuration)
            expectRotated(path, from: key.configuration, to: TestKey.insecureRandomRawKey().configuration)
        }
        let messages = failures.map(\.message)
        #expect(messages.count == 3, "\(messages)")
        #expect(messages.first?.contains("should be refused with SQLITE_NOTADB") == true, "\(messages)")
        #expect(messages.dropFirst().first?.contains("the key was refused") == true, "\(messages)")
        #expect(messages.last?.contains("after the rotation") == true, "\(messages)")
        #expect(failures.allSatisfy { $0.fileID == #fileID })
        #expect(expectOpens(path, with: key.configuration))
    }
}
