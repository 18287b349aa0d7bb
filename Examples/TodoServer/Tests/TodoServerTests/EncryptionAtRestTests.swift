import Foundation
import GRDBCipher
import GRDBCipherTesting
import Hummingbird
import HummingbirdTesting
import Testing
import TodoServerApp

/// What the server leaves on disk, checked with GRDBCipher's testing kit:
/// encrypted while it runs, after an online rotation, and in its backups.
/// The server takes SQLCipher's default settings, so the keys here are
/// real passphrases (the kit's fast keys need the settings passed along).
@Suite struct EncryptionAtRestTests {
    struct BackupAnswer: Decodable { var path: String }

    static let query = "SELECT id, title, completed FROM todo ORDER BY id"

    @Test func todosStayEncryptedThroughARotationAndABackup() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("todos.sqlite")
        let oldKey = TestKey.passphrase(testPassphrase)
        let newKey = TestKey.passphrase("the passphrase after the rotation")
        let markers = ["alice@example.com", "Renew the passport"]
        let server = try buildApplication(testConfiguration(directory, adminToken: testAdminToken), logger: quietLogger)
        let backupPath = try await server.application.test(.router) { client in
            let created = try await client.execute(
                uri: "/todos", method: .post, headers: jsonHeaders(),
                body: json(#"{"title": "Renew the passport of alice@example.com"}"#))
            #expect(created.status == .created)
            // While the server runs, its file and WAL hold no plaintext, and
            // another passphrase is refused without a byte changed.
            expectEncrypted(path, plaintextMarkers: markers)
            expectRefuses(path, with: TestKey.passphrase("not the passphrase").configuration)

            let rotate = try await client.execute(
                uri: "/admin/rotate-key", method: .post, headers: jsonHeaders(token: testAdminToken),
                body: json(#"{"newPassphrase": "the passphrase after the rotation"}"#))
            #expect(rotate.status == .ok)
            expectRotated(path, from: oldKey.configuration, to: newKey.configuration)

            let backup = try await client.execute(uri: "/admin/backup", method: .post, headers: jsonHeaders(token: testAdminToken))
            #expect(backup.status == .created)
            return try decode(BackupAnswer.self, backup).path
        }
        expectEncrypted(path, plaintextMarkers: markers)
        expectEncrypted(backupPath, plaintextMarkers: markers)
        // The backup is keyed with the passphrase in effect when it was made.
        expectOpens(backupPath, with: newKey.configuration)
        expectRefuses(backupPath, with: oldKey.configuration)
        // The reference sqlcipher shell reads the server's rows, in the file and in the backup.
        try expectSQLCipherShellReads(path, with: newKey, sameRowsAs: Self.query)
        try expectSQLCipherShellReads(backupPath, with: newKey, sameRowsAs: Self.query)
    }
}
