import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDBCipher
@testable import GRDBCipherTesting
import Testing

/// `fileIsEncrypted`, `directory` and `unchanged`: each passes on what it
/// should, and fails with a message that names the files and what was found.
@Suite struct FileChecksTests {
    @Test func anEncryptedQueueAndAnOpenEncryptedPoolPass() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let key = TestKey.insecureRandomRawKey()
        let queuePath = directory.path(for: "queue.sqlite")
        try writeNote(at: queuePath, configuration: key.configuration)
        try EncryptionCheck.fileIsEncrypted(queuePath, plaintextMarkers: [plaintextMarker])

        let poolPath = directory.path(for: "pool.sqlite")
        let dbPool = try DatabasePool(path: poolPath, configuration: key.configuration)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE note (text TEXT)")
            try db.execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: [plaintextMarker])
        }
        #expect(FileManager.default.fileExists(atPath: poolPath + "-wal"))
        try EncryptionCheck.fileIsEncrypted(poolPath, plaintextMarkers: [plaintextMarker])
        try dbPool.close()
    }

    @Test func aPlaintextFileFailsWithItsHeaderAndTheMarker() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let path = directory.path(for: "plain.sqlite")
        try writeNote(at: path)

        let message = try #require(try failureMessage {
            try EncryptionCheck.fileIsEncrypted(path, plaintextMarkers: ["absent marker", plaintextMarker])
        })
        #expect(message.contains("plain.sqlite starts with SQLite's plaintext header"), "\(message)")
        #expect(message.contains("plain.sqlite holds the marker \"\(plaintextMarker)\" in plaintext at byte"), "\(message)")
        #expect(!message.contains("absent marker"), "\(message)")
        #expect(message.contains("files checked: plain.sqlite (8192 bytes)"), "\(message)")
    }

    @Test func aMarkerInTheWALOfAPlaintextPoolIsFound() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let path = directory.path(for: "db.sqlite")
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE note (text TEXT)")
            try db.execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: [plaintextMarker])
        }
        let message = try #require(try failureMessage {
            try EncryptionCheck.fileIsEncrypted(path, plaintextMarkers: [plaintextMarker])
        })
        #expect(message.contains("db.sqlite-wal holds the marker \"\(plaintextMarker)\""), "\(message)")
        #expect(message.contains("db.sqlite-shm ("), "the listing shows the -shm: \(message)")
        try dbPool.close()
    }

    @Test func aMarkerInAJournalBesideAnEncryptedFileIsFound() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let path = directory.path(for: "db.sqlite")
        try writeNote(at: path, configuration: TestKey.insecureRandomRawKey().configuration)
        try Data("journal bytes \(plaintextMarker) and more".utf8).write(to: URL(fileURLWithPath: path + "-journal"))

        let message = try #require(try failureMessage {
            try EncryptionCheck.fileIsEncrypted(path, plaintextMarkers: [plaintextMarker])
        })
        #expect(message.contains("db.sqlite-journal holds the marker \"\(plaintextMarker)\" in plaintext at byte 14"), "\(message)")
        #expect(!message.contains("starts with SQLite's plaintext header"), "\(message)")
    }

    @Test func aMissingOrEmptyFileFails() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let path = directory.path(for: "db.sqlite")
        #expect(try failureMessage { try EncryptionCheck.fileIsEncrypted(path) }?.contains("does not exist") == true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(try failureMessage { try EncryptionCheck.fileIsEncrypted(path) }?.contains("is empty") == true)
    }

    @Test func aDirectoryCheckListsNamesAndSizes() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        try Data(count: 10).write(to: URL(fileURLWithPath: directory.path(for: "db.sqlite")))
        try Data(count: 3).write(to: URL(fileURLWithPath: directory.path(for: ".hidden")))
        try EncryptionCheck.directory(directory.path, holdsExactly: ["db.sqlite", ".hidden"])

        let message = try #require(try failureMessage {
            try EncryptionCheck.directory(directory.path, holdsExactly: ["db.sqlite", "db.sqlite-wal"])
        })
        #expect(message.contains("holds .hidden (3 bytes), db.sqlite (10 bytes)"), "\(message)")
        #expect(message.contains("unexpected: .hidden (3 bytes)"), "\(message)")
        #expect(message.contains("missing: db.sqlite-wal"), "\(message)")
    }

    @Test func aFIFOIsListedNotRead() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        #expect(mkfifo(directory.path(for: "fifo"), 0o600) == 0)
        try EncryptionCheck.directory(directory.path, holdsExactly: ["fifo"])
        let snapshot = try FileSnapshot.directory(directory.path)
        #expect(snapshot.files == ["fifo": Data()])
        try EncryptionCheck.unchanged(since: snapshot)
    }

    @Test func anUnchangedCheckListsWhatChangedAppearedAndDisappeared() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let path = directory.path(for: "db.sqlite")
        try Data(repeating: 1, count: 100).write(to: URL(fileURLWithPath: path))
        try Data(count: 5).write(to: URL(fileURLWithPath: path + "-journal"))
        let database = try FileSnapshot.database(path)
        let folder = try FileSnapshot.directory(directory.path)
        try EncryptionCheck.unchanged(since: database)
        try EncryptionCheck.unchanged(since: folder)

        var bytes = Data(repeating: 1, count: 120)
        bytes[42] = 2
        try bytes.write(to: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: path + "-journal")
        try Data(count: 7).write(to: URL(fileURLWithPath: path + "-wal"))
        try Data(count: 1).write(to: URL(fileURLWithPath: directory.path(for: "other")))

        let databaseMessage = try #require(try failureMessage { try EncryptionCheck.unchanged(since: database) })
        #expect(databaseMessage.contains("db.sqlite changed (100 bytes, then 120; first difference at byte 42)"), "\(databaseMessage)")
        #expect(databaseMessage.contains("db.sqlite-journal disappeared (5 bytes)"), "\(databaseMessage)")
        #expect(databaseMessage.contains("db.sqlite-wal appeared (7 bytes)"), "\(databaseMessage)")
        #expect(!databaseMessage.contains("other"), "a database snapshot holds its own files only: \(databaseMessage)")
        let folderMessage = try #require(try failureMessage { try EncryptionCheck.unchanged(since: folder) })
        #expect(folderMessage.contains("other appeared (1 bytes)"), "\(folderMessage)")
    }

    @Test func expectationsRecordTheFailureAtTheCall() throws {
        let directory = try TemporaryDatabaseDirectory()
        defer { directory.remove() }
        let path = directory.path(for: "plain.sqlite")
        try writeNote(at: path)
        let line = #line + 2
        let failures = TestFailureReporter.capturingFailures {
            #expect(expectEncrypted(path, plaintextMarkers: [plaintextMarker]) == false)
            expectDirectory(directory.path, holdsExactly: [])
        }
        #expect(failures.count == 2, "\(failures.map(\.message))")
        let encrypted = try #require(failures.first)
        #expect(encrypted.line == UInt(line) && encrypted.fileID == #fileID, "the failure points at the call")
        #expect(encrypted.message.contains("plain.sqlite holds the marker"), "\(encrypted.message)")
        #expect(failures.last?.message.contains("unexpected: plain.sqlite (8192 bytes)") == true)
    }
}
