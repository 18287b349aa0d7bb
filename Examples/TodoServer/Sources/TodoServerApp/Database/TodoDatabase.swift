import Foundation
import GRDBCipher

/// Opening the encrypted pool and migrating it at boot.
public enum TodoDatabase {
    /// The schema's history: each step runs once, in order, at boot.
    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createTodo") { db in
            try db.create(table: "todo") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
                t.column("completed", .boolean).notNull().defaults(to: false).indexed()
            }
        }
        return migrator
    }

    /// The pool's configuration for a server configuration: the key, a busy
    /// timeout for the writer, the number of readers.
    static func poolConfiguration(_ configuration: ServerConfiguration, encryption: ServerConfiguration.Encryption) -> Configuration {
        var config = Configuration()
        if case .passphrase(let passphrase) = encryption {
            config.passphrase = passphrase
        }
        // The writer waits for the short locks of concurrent readers instead
        // of failing at once with SQLITE_BUSY.
        config.busyMode = .timeout(5)
        config.maximumReaderCount = configuration.maximumReaderCount
        return config
    }

    /// Opens the pool, checks the key, and runs the migrations.
    ///
    /// A wrong key fails before anything is written to the file.
    ///
    /// - throws: ``StartupError/wrongKey(path:)`` when the file does not open
    ///   with the configured key (or is no database), ``StartupError/database(_:)``
    ///   for other database errors.
    public static func open(_ configuration: ServerConfiguration) throws -> DatabasePool {
        let path = configuration.databasePath
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw StartupError.missingFolder(path: folder)
        }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: poolConfiguration(configuration, encryption: configuration.encryption))
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StartupError.wrongKey(path: path)
        } catch let error as DatabaseError {
            throw StartupError.database(error)
        }
        do {
            try migrator.migrate(pool)
        } catch let error as DatabaseError {
            try? pool.close()
            throw StartupError.database(error)
        }
        return pool
    }
}

/// Why the server could not start. The descriptions never contain a key.
public enum StartupError: Error, CustomStringConvertible {
    /// The database file does not open with the configured key: a wrong
    /// passphrase, other cipher settings, a plaintext file, or no database.
    case wrongKey(path: String)
    /// The database's folder does not exist.
    case missingFolder(path: String)
    /// The database failed to open or migrate.
    case database(DatabaseError)

    /// What happened, for the operator.
    public var description: String {
        switch self {
        case .wrongKey(let path):
            return "cannot open \(path): wrong passphrase, or not a database encrypted with SQLCipher 4's defaults "
                + "(the file was not modified)"
        case .missingFolder(let path):
            return "the database folder \(path) does not exist"
        case .database(let error):
            return "cannot open or migrate the database: \(error)"
        }
    }
}
