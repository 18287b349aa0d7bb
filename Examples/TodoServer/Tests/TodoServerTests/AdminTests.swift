import Foundation
import GRDBCipher
import Hummingbird
import HummingbirdTesting
import Testing
@testable import TodoServerApp

/// Online key rotation and backup through the admin routes.
@Suite struct AdminTests {
    struct BackedUp: Decodable { var path: String; var pageCount: Int }

    @Test func adminRoutesDoNotExistWithoutAToken() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory), logger: quietLogger)
        try await server.application.test(.router) { client in
            let rotate = try await client.execute(
                uri: "/admin/rotate-key", method: .post, headers: jsonHeaders(token: testAdminToken),
                body: json(#"{"newPassphrase": "another passphrase"}"#))
            #expect(rotate.status == .notFound)
            let backup = try await client.execute(uri: "/admin/backup", method: .post, headers: jsonHeaders(token: testAdminToken))
            #expect(backup.status == .notFound)
        }
        #expect(throws: (any Error).self) { try openQueue(directory.file("todos.sqlite"), passphrase: "another passphrase") }
    }

    @Test func adminRoutesNeedTheToken() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory, adminToken: testAdminToken), logger: quietLogger)
        try await server.application.test(.router) { client in
            for token in [nil, "wrong", testAdminToken + "x", String(testAdminToken.dropLast())] {
                let rotate = try await client.execute(
                    uri: "/admin/rotate-key", method: .post, headers: jsonHeaders(token: token),
                    body: json(#"{"newPassphrase": "another passphrase"}"#))
                #expect(rotate.status == .unauthorized)
                let backup = try await client.execute(uri: "/admin/backup", method: .post, headers: jsonHeaders(token: token))
                #expect(backup.status == .unauthorized)
            }
            for body in [#"{}"#, #"{"newPassphrase": "short"}"#, #"{"newPassphrase": 12345678}"#, #"{"newPassphrase": "long enough", "x": 1}"#] {
                let rotate = try await client.execute(
                    uri: "/admin/rotate-key", method: .post, headers: jsonHeaders(token: testAdminToken), body: json(body))
                #expect(rotate.status == .badRequest, "\(body)")
            }
        }
        // Nothing was rotated, nothing backed up.
        _ = try openQueue(directory.file("todos.sqlite"), passphrase: testPassphrase)
        #expect(!FileManager.default.fileExists(atPath: directory.file("backups")))
    }

    @Test func rotateWhileServingThenBackUp() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let newPassphrase = "the rotated passphrase"
        let server = try buildApplication(testConfiguration(directory, adminToken: testAdminToken), logger: quietLogger)
        let backupPath = try await server.application.test(.live) { client in
            for index in 1...20 {
                _ = try await client.execute(
                    uri: "/todos", method: .post, headers: jsonHeaders(), body: json(#"{"title": "before \#(index)"}"#))
            }
            let rotate = try await client.execute(
                uri: "/admin/rotate-key", method: .post, headers: jsonHeaders(token: testAdminToken),
                body: json(#"{"newPassphrase": "\#(newPassphrase)"}"#))
            #expect(rotate.status == .ok)
            #expect(!String(buffer: rotate.body).contains(newPassphrase))
            // Serving continues with the new key.
            let created = try await client.execute(
                uri: "/todos", method: .post, headers: jsonHeaders(), body: json(#"{"title": "after"}"#))
            #expect(created.status == .created)
            let all = try decode([Todo].self, try await client.execute(uri: "/todos?limit=500", method: .get))
            #expect(all.count == 21)
            let health = try await client.execute(uri: "/health?integrity=true", method: .get, headers: jsonHeaders(token: testAdminToken))
            #expect(health.status == .ok)
            #expect(String(buffer: health.body).contains("intact"))

            let backup = try await client.execute(uri: "/admin/backup", method: .post, headers: jsonHeaders(token: testAdminToken))
            #expect(backup.status == .created)
            let answer = try decode(BackedUp.self, backup)
            #expect(answer.pageCount > 0)
            return answer.path
        }
        // The file opens with the new passphrase only.
        #expect(throws: (any Error).self) { try openQueue(directory.file("todos.sqlite"), passphrase: testPassphrase) }
        let rotated = try openQueue(directory.file("todos.sqlite"), passphrase: newPassphrase)
        #expect(try await rotated.read { db in try Todo.fetchCount(db) } == 21)

        // The backup is an encrypted file in the backup folder, keyed with the current passphrase.
        #expect(backupPath.hasPrefix(directory.file("backups") + "/"))
        #expect(try DatabaseFile.isEncrypted(atPath: backupPath))
        #expect(throws: (any Error).self) { try openQueue(backupPath, passphrase: testPassphrase) }
        let copy = try openQueue(backupPath, passphrase: newPassphrase)
        #expect(try await copy.read { db in try Todo.fetchCount(db) } == 21)
        #expect(try await copy.read { db in try db.cipherIntegrityCheck() }.isEmpty)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.file("backups")).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test func backupWhileWritesContinue() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try buildApplication(testConfiguration(directory, adminToken: testAdminToken), logger: quietLogger)
        let database = server.database
        let backupPath = try await server.application.test(.router) { client in
            try await database.write { db in
                for index in 1...2000 { _ = try Todo(title: "row \(index)").inserted(db) }
            }
            // Writes keep going while the backup copies.
            let writer = Task {
                for index in 1...50 {
                    try await database.write { db in _ = try Todo(title: "during \(index)").inserted(db) }
                }
            }
            let backup = try await client.execute(uri: "/admin/backup", method: .post, headers: jsonHeaders(token: testAdminToken))
            try await writer.value
            #expect(backup.status == .created)
            return try decode(BackedUp.self, backup).path
        }
        let copy = try openQueue(backupPath, passphrase: testPassphrase)
        let count = try await copy.read { db in try Todo.fetchCount(db) }
        // One consistent state: all the first rows, and a prefix of the later ones.
        #expect((2000...2050).contains(count))
        let later = try await copy.read { db in try String.fetchAll(db, sql: "SELECT title FROM todo WHERE id > 2000 ORDER BY id") }
        #expect(later == (0..<later.count).map { "during \($0 + 1)" })
    }

    @Test func rotationOfAnEnvelopedDatabaseRewrapsAndBackupsCarryTheEnvelope() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("todos.sqlite")
        let oldKEK = KeyEncryptionKey.passphrase("the first outer secret", scrypt: .insecureForTestsOnly)
        let newPassphrase = "the rotated outer secret"
        let server = try buildApplication(
            testConfiguration(directory, encryption: .envelope(oldKEK), adminToken: testAdminToken), logger: quietLogger)
        let (databaseBefore, backupPath) = try await server.application.test(.router) { client in
            for index in 1...5 {
                _ = try await client.execute(
                    uri: "/todos", method: .post, headers: jsonHeaders(), body: json(#"{"title": "todo \#(index)"}"#))
            }
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let rotate = try await client.execute(
                uri: "/admin/rotate-key", method: .post, headers: jsonHeaders(token: testAdminToken),
                body: json(#"{"newPassphrase": "\#(newPassphrase)"}"#))
            #expect(rotate.status == .ok)
            #expect(String(buffer: rotate.body).contains("GRDBCIPHER_KEK_FILE"))
            let backup = try await client.execute(uri: "/admin/backup", method: .post, headers: jsonHeaders(token: testAdminToken))
            #expect(backup.status == .created)
            return (before, try decode(BackedUp.self, backup).path)
        }
        // A rewrap changes no page of the database.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == databaseBefore)
        let oldError = #expect(throws: DatabaseEnvelopeError.self) {
            try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: oldKEK)
        }
        #expect(oldError?.kind == .wrongKeyEncryptionKey)
        let newKEK = KeyEncryptionKey.passphrase(newPassphrase)
        // The backup opens through its own copy of the envelope.
        var configuration = Configuration()
        configuration.key = try DatabaseEnvelope.unwrap(forDatabaseAt: backupPath, keyEncryptionKey: newKEK).key
        let backup = try DatabaseQueue(path: backupPath, configuration: configuration)
        #expect(try await backup.read { db in try Todo.fetchCount(db) } == 5)
        try await backup.close()
    }
}
