import Foundation

/// The database in which ``DatabaseMigrator/hasSchemaChanges(_:)`` runs the
/// migrations to learn the schema they create.
///
/// It is a regular file, as in GRDB, so that a `prepareDatabase` that needs
/// one (`sqlite3_file_control` with `SQLITE_FCNTL_PERSIST_WAL`, for example,
/// which an in-memory database refuses with "unknown operation") runs as it
/// does on the user's database. Unlike GRDB's, the file is encrypted with a
/// random raw key that lives only as long as the scratch database (a raw
/// key costs no key derivation), in a directory only its owner can read,
/// removed with the file: no schema and no row a migration inserts is ever
/// written in plaintext.
struct SchemaScratchDatabase {
    private let directory: String
    let dbQueue: DatabaseQueue

    /// Creates the scratch database with the configuration of `db`, keyed
    /// with a random raw key of its own instead of `db`'s key.
    ///
    /// - throws: A ``DatabaseError`` if the directory or the database cannot
    ///   be created, or the error of the configuration's `prepareDatabase`.
    init(configuredAs db: Database) throws {
        var template = Array((NSTemporaryDirectory() as NSString)
            .appendingPathComponent("GRDBCipher.schema.XXXXXX").utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw DatabaseError(
                resultCode: .SQLITE_CANTOPEN,
                message: "cannot create a temporary directory to compare schemas (errno \(errno))")
        }
        directory = String(cString: created)

        var configuration = db.configuration
        var generator = SystemRandomNumberGenerator()
        var keyBytes = Data((0..<KeyDerivation.keyLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        configuration.key = try .rawKey(keyBytes)
        keyBytes.resetBytes(in: 0..<keyBytes.count)
        configuration.readonly = false
        configuration.targetQueue = nil
        configuration.writeTargetQueue = nil
        configuration.label = "GRDBCipher.DatabaseMigrator.scratch"
        do {
            dbQueue = try DatabaseQueue(
                path: (directory as NSString).appendingPathComponent("schema.sqlite"),
                configuration: configuration)
        } catch {
            Self.removeDirectory(directory)
            throw error
        }
    }

    /// Closes the database and removes its files.
    func remove() {
        try? dbQueue.close()
        Self.removeDirectory(directory)
    }

    private static func removeDirectory(_ directory: String) {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
