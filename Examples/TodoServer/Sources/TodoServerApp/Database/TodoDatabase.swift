import Foundation
import GRDBCipher
import Logging

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

    /// The permissions of the files the server creates: the database, its
    /// `-wal` and `-shm` (SQLite gives them the database's), and backups.
    static let filePermissions = 0o600

    /// The pool's configuration for a server configuration: the key, owner-only
    /// files, a busy timeout for the writer, the number of readers.
    static func poolConfiguration(
        _ configuration: ServerConfiguration, encryption: ServerConfiguration.Encryption, dataKey: DatabaseKey? = nil
    ) -> Configuration {
        var config = Configuration()
        switch encryption {
        case .passphrase(let passphrase): config.passphrase = passphrase
        case .envelope: config.key = dataKey
        case .plaintext: break
        }
        // Whatever the process's umask: other users read no ciphertext, no
        // WAL, and no shared-memory index.
        config.filePermissions = filePermissions
        // The writer waits for the short locks of concurrent readers instead
        // of failing at once with SQLITE_BUSY.
        config.busyMode = .timeout(5)
        config.maximumReaderCount = configuration.maximumReaderCount
        return config
    }

    /// Opens the pool, checks the key, and runs the migrations.
    ///
    /// A wrong key fails before anything is written to the file. The
    /// database of an earlier version of the server, created with the
    /// umask's permissions, is made owner-only (its `-wal` and `-shm` follow).
    ///
    /// - throws: ``StartupError/wrongKey(path:)`` when the file does not open
    ///   with the configured key (or is no database), ``StartupError/database(_:)``
    ///   for other database errors.
    public static func open(_ configuration: ServerConfiguration, logger: Logger? = nil) throws -> DatabasePool {
        let path = configuration.databasePath
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw StartupError.missingFolder(path: folder)
        }
        restrictPermissions(ofExistingDatabase: path, logger: logger)
        let dataKey = try unwrapDataKey(configuration, logger: logger)
        let pool: DatabasePool
        do {
            pool = try DatabasePool(
                path: path, configuration: poolConfiguration(configuration, encryption: configuration.encryption, dataKey: dataKey))
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

extension TodoDatabase {
    /// The data key of an enveloped database (nil for the other kinds): a
    /// fresh `DATABASE_PATH` gets a new data key and its envelope; an
    /// interrupted data-key rotation is completed or undone, with a log line.
    ///
    /// - throws: ``StartupError/wrongKey(path:)`` when the key-encryption key
    ///   does not open the envelope, ``StartupError/envelope(_:)`` otherwise.
    static func unwrapDataKey(_ configuration: ServerConfiguration, logger: Logger?) throws -> DatabaseKey? {
        guard case .envelope(let kek) = configuration.encryption else { return nil }
        let path = configuration.databasePath
        do {
            let unwrapped = try DatabaseEnvelope.unwrap(forDatabaseAt: path, keyEncryptionKey: kek, creatingIfMissing: true)
            if unwrapped.created {
                logger?.notice("created a data key and its envelope \(DatabaseEnvelope.path(forDatabaseAt: path)): back it up with the database")
            }
            if let recovery = unwrapped.recovery {
                logger?.warning("the envelope of \(path) recovered from an interrupted data-key rotation: \(recovery)")
            }
            return unwrapped.key
        } catch let error as DatabaseEnvelopeError where error.kind == .wrongKeyEncryptionKey {
            throw StartupError.wrongKey(path: path)
        } catch let error as DatabaseEnvelopeError {
            throw StartupError.envelope(error.message)
        }
    }

    /// Removes the group and other permissions of an existing database file
    /// and of the `-wal` and `-shm` files beside it, which SQLite creates
    /// with the database's permissions. A file the process may not change
    /// keeps its permissions, with a warning.
    static func restrictPermissions(ofExistingDatabase path: String, logger: Logger?) {
        for file in [path, path + "-wal", path + "-shm"] {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
                  let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue,
                  mode & 0o077 != 0
            else { continue }
            do {
                try FileManager.default.setAttributes([.posixPermissions: mode & 0o700], ofItemAtPath: file)
                logger?.notice("\(file) was readable by other users: its permissions are now \(String(mode & 0o700, radix: 8))")
            } catch {
                logger?.warning("\(file) is readable by other users (\(String(mode, radix: 8))), and its permissions cannot be changed: \(error)")
            }
        }
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
    /// The key envelope is missing, damaged, or of another database, or
    /// its key command failed.
    case envelope(String)

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
        case .envelope(let message):
            return "cannot open the database's key envelope: \(message) (the file was not modified)"
        }
    }
}
