import Foundation
import GRDBCipher
import Testing
import Vapor
import VaporTesting
import VaporTodoApp

/// What the application leaves on disk: an encrypted file that only its
/// passphrase opens.
@Suite struct EncryptionTests {
    @Test func theDatabaseFileIsEncryptedAndRefusesAnotherPassphrase() async throws {
        let files = try TestFiles()
        defer { files.remove() }
        let marker = "Renew the passport of alice@example.com"
        try await withTodoApp(files) { app in
            try await app.testing().test(.POST, "todos", headers: jsonHeaders, body: json(#"{"title": "\#(marker)"}"#)) { res async throws in
                #expect(res.status == .created)
            }
        }
        let header = try firstBytes(of: files.databasePath, count: 16)
        #expect(header.count == 16)
        #expect(header != sqliteHeader, "the file starts with SQLite's plaintext header: it is not encrypted")
        for path in [files.databasePath, files.databasePath + "-wal"] where FileManager.default.fileExists(atPath: path) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(path) holds a title in plaintext")
        }

        let error = #expect(throws: DatabaseError.self, "another passphrase opens the file") {
            try openQueue(files.databasePath, passphrase: "not the passphrase").read { db in
                try Todo.fetchCount(db)
            }
        }
        #expect(error?.resultCode == .SQLITE_NOTADB)

        let todos = try await openQueue(files.databasePath, passphrase: testPassphrase).read { db in try Todo.fetchAll(db) }
        #expect(todos == [Todo(id: 1, title: marker, completed: false)], "the passphrase file's passphrase opens the file")
    }

    @Test func shutdownClosesThePool() async throws {
        let files = try TestFiles()
        defer { files.remove() }
        let pool = try await withTodoApp(files) { app in app.grdb }
        await #expect(throws: DatabaseError.self, "the pool is still open after the application shut down") {
            try await pool.read { db in try Todo.fetchCount(db) }
        }
    }
}
