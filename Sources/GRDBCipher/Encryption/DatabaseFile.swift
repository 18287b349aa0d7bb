import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Operations on a database file as a whole, before any queue or pool opens it.
public enum DatabaseFile {
    /// Whether the file at `path` is encrypted, judged from its header and
    /// without a key: an SQLite file starts with "SQLite format 3", an
    /// SQLCipher file with random salt bytes. An empty file is not encrypted.
    /// A file encrypted with a plaintext header
    /// (``CipherSettings/plaintextHeaderSize``) looks plaintext to this test.
    ///
    /// ```swift
    /// if try DatabaseFile.isEncrypted(atPath: path) { config.passphrase = try askPassphrase() }
    /// ```
    ///
    /// - throws: A ``DatabaseError``: `SQLITE_CANTOPEN` if the file cannot be
    ///   read, `SQLITE_NOTADB` if it is not empty but shorter than a header
    ///   (16 bytes).
    public static func isEncrypted(atPath path: String) throws -> Bool {
        // Never through a descriptor of our own, which would release the
        // locks of this process's connections: see `DatabaseFileHeader`.
        guard let bytes = DatabaseFileHeader.read(atPath: path, count: 16) else {
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "cannot read \(path)")
        }
        let header = Data(bytes)
        if header.isEmpty { return false }
        guard header.count == 16 else {
            throw DatabaseError(
                resultCode: .SQLITE_NOTADB,
                message: "\(path) is not a database: \(header.count) bytes are too few for a header")
        }
        return header != Data("SQLite format 3\0".utf8)
    }

    /// The outcome of `upgradeToSQLCipher4(atPath:key:)`.
    public enum CipherUpgrade: Hashable, Sendable {
        /// The file already opened with SQLCipher 4's defaults: it is unchanged.
        case alreadyCurrent
        /// The file was written with the defaults of this SQLCipher major
        /// version (1 to 3), and now uses SQLCipher 4's.
        case upgraded(fromCompatibility: Int)
    }

    /// Upgrades, in place, a file written by SQLCipher 1, 2 or 3 with their
    /// default settings to SQLCipher 4's defaults, keeping its key, schema,
    /// rows, `user_version` and `application_id`. Afterwards it opens with a
    /// default ``Configuration`` and its key.
    ///
    /// The upgraded database is exported to a temporary file beside the
    /// original (SQLCipher's `sqlcipher_export`), opened and checked with the
    /// key, synced, and only then renamed over the original, and the folder
    /// synced: if the upgrade fails, the original stays as it was, readable
    /// with its old settings, and after a power loss the file is either the
    /// original or the upgraded copy. (SQLCipher's own `PRAGMA cipher_migrate`
    /// drops `application_id` and syncs neither the file nor the folder.)
    ///
    /// No other connection may use the file meanwhile, and none can: from
    /// before the copy until after the rename, the upgrade holds SQLite's
    /// exclusive lock on the file (it waits up to 5 seconds for other
    /// connections' locks). It fails if a connection of this process has the
    /// file open, or one of another process keeps it open in WAL mode, or
    /// keeps a transaction open. A connection of another process that has the
    /// file open in rollback-journal mode, idle, holds no lock: it cannot be
    /// seen, and the replaced file is made unreadable, so that its next
    /// statement fails (`SQLITE_NOTADB`) instead of committing into a file
    /// that no name reaches any longer. See ``replace(atPath:with:)``.
    ///
    /// A symbolic link is followed: the file it points to is upgraded, with
    /// the `-wal` and `-journal` beside that file, and the link still points
    /// to it afterwards. A file with several hard links is refused (unless it
    /// is already current): the rename would leave the other names on the
    /// old file. Export it to a new file instead.
    ///
    /// ```swift
    /// let outcome = try DatabaseFile.upgradeToSQLCipher4(atPath: path, key: .passphrase("secret"))
    /// // .upgraded(fromCompatibility: 3)
    /// ```
    ///
    /// - throws: A ``DatabaseError``: `SQLITE_NOTADB` when no SQLCipher
    ///   version opens the file with this key (a wrong key, custom settings,
    ///   or a plaintext file), `SQLITE_BUSY` when a connection has it open,
    ///   `SQLITE_CANTOPEN` when it is missing or has several hard links, or
    ///   the error of the failed upgrade.
    public static func upgradeToSQLCipher4(atPath path: String, key: DatabaseKey) throws -> CipherUpgrade {
        let target = try InPlaceTarget.resolve(path, operation: "upgrade")
        if OpenDatabaseFiles.isOpen(path: target) {
            throw DatabaseError(
                resultCode: .SQLITE_BUSY,
                message: "cannot upgrade \(path): a connection of this process has it open; close it first")
        }
        guard try isEncrypted(atPath: target) else {
            throw DatabaseError.misuse("\(path) is not encrypted: export it to an encrypted file instead")
        }
        // What an upgrade killed before it could clean up left behind.
        AbandonedFiles.remove(besideDatabaseAt: target)
        if try opens(target, key: key, settings: .sqlcipher4) {
            return .alreadyCurrent
        }
        let candidates = [3, 2, 1]
        guard let compatibility: Int = try candidates.first(where: {
            try opens(target, key: key, settings: CipherSettings(compatibility: $0))
        }) else {
            throw DatabaseError(
                resultCode: .SQLITE_NOTADB,
                message: "cannot upgrade \(path): it does not open with this key and the defaults of "
                    + "SQLCipher 1 to 4 (wrong key, or custom cipher settings: export it instead)")
        }
        try rewriteInPlace(
            target: target, shownPath: path, key: key, settings: CipherSettings(compatibility: compatibility),
            into: .encrypted(key: key, settings: .sqlcipher4), operation: "upgrade")
        guard try opens(target, key: key, settings: .sqlcipher4) else {
            throw DatabaseError(
                resultCode: .SQLITE_NOTADB,
                message: "the upgraded file \(path) does not open with SQLCipher 4's defaults")
        }
        return .upgraded(fromCompatibility: compatibility)
    }

    /// The async twin of ``upgradeToSQLCipher4(atPath:key:)``: the upgrade
    /// (several key derivations and a copy of the file) runs off the
    /// cooperative thread pool.
    ///
    /// - throws: `CancellationError`, or a ``DatabaseError``.
    public static func upgradeToSQLCipher4(atPath path: String, key: DatabaseKey) async throws -> CipherUpgrade {
        try await runOffCooperativePool { try upgradeToSQLCipher4(atPath: path, key: key) }
    }

    /// Whether the file opens, read-only, with this key and these settings.
    private static func opens(_ path: String, key: DatabaseKey, settings: CipherSettings) throws -> Bool {
        var configuration = Configuration()
        configuration.key = key
        configuration.cipherSettings = settings
        configuration.readonly = true
        do {
            let db = try Database(path: path, description: "GRDBCipher.upgrade", configuration: configuration)
            db.closeEvenIfBusy()
            return true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            return false
        }
    }
}
