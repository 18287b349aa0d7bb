import GRDBCipher
import GRDBCipherTesting
import Testing

/// The app: notes in an encrypted database, with online key rotation.
struct NoteStore {
    let dbPool: DatabasePool

    init(path: String, configuration: Configuration) throws {
        dbPool = try DatabasePool(path: path, configuration: configuration)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS note (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        }
    }

    func add(_ text: String) throws {
        try dbPool.write { db in
            try db.execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: [text])
        }
    }

    func rotate(to newKey: DatabaseKey) throws {
        try dbPool.changeKey(newKey)
    }
}

// Each test of the suite gets a database of its own, in a temporary
// directory removed afterwards, keyed with a random raw key (no key
// derivation: opening it costs nothing).
@Suite(.temporaryEncryptedDatabase)
struct NoteStoreEncryptionTests {
    @Test func notesStayEncryptedThroughARotation() throws {
        let database = try TemporaryEncryptedDatabase.current
        let store = try NoteStore(path: database.path, configuration: database.configuration)
        try store.add("Call alice@example.com about the merger")

        // The file and its WAL show no SQLite header and no note in plaintext.
        expectEncrypted(database.path, plaintextMarkers: ["alice@example.com", "merger"])
        // Another key is refused with SQLITE_NOTADB, and changes no byte.
        expectRefuses(database.path, with: TestKey.insecureRandomRawKey().configuration)

        // After a rotation, the new key reads everything and the old one is refused.
        let newKey = TestKey.insecureRandomRawKey()
        try store.rotate(to: newKey.databaseKey)
        try store.add("Lunch with Bob")
        try store.dbPool.close()
        expectRotated(database.path, from: database.configuration, to: newKey.configuration)
        expectEncrypted(database.path, plaintextMarkers: ["alice@example.com", "Lunch with Bob"])

        // The reference sqlcipher shell reads the same rows (the test is
        // skipped, with the reason, where the shell is not installed).
        try expectSQLCipherShellReads(database.path, with: newKey, sameRowsAs: "SELECT id, text FROM note ORDER BY id")
    }
}
