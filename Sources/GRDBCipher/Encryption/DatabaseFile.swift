import Foundation

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
    /// - throws: A ``DatabaseError`` (`SQLITE_CANTOPEN`) if the file cannot be read.
    public static func isEncrypted(atPath path: String) throws -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "cannot read \(path)")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        if header.isEmpty { return false }
        return header != Data("SQLite format 3\0".utf8)
    }

    /// The outcome of ``upgradeToSQLCipher4(atPath:key:)``.
    public enum CipherUpgrade: Hashable, Sendable {
        /// The file already opened with SQLCipher 4's defaults: it is unchanged.
        case alreadyCurrent
        /// The file was written with the defaults of this SQLCipher major
        /// version (1 to 3), and now uses SQLCipher 4's.
        case upgraded(fromCompatibility: Int)
    }

    /// Upgrades, in place, a file written by SQLCipher 1, 2 or 3 with their
    /// default settings to SQLCipher 4's defaults (`PRAGMA cipher_migrate`),
    /// keeping its key. Afterwards it opens with a default ``Configuration``
    /// and its key. No connection may have the file open meanwhile.
    ///
    /// SQLCipher writes the upgraded database to a temporary file and only
    /// then replaces the original: if the upgrade fails, the original stays
    /// as it was, readable with its old settings.
    ///
    /// ```swift
    /// let outcome = try DatabaseFile.upgradeToSQLCipher4(atPath: path, key: .passphrase("secret"))
    /// // .upgraded(fromCompatibility: 3)
    /// ```
    ///
    /// - throws: A ``DatabaseError``: `SQLITE_NOTADB` when no SQLCipher
    ///   version opens the file with this key (a wrong key, custom settings,
    ///   or a plaintext file), or the error of the failed upgrade.
    public static func upgradeToSQLCipher4(atPath path: String, key: DatabaseKey) throws -> CipherUpgrade {
        guard try isEncrypted(atPath: path) else {
            throw DatabaseError.misuse("\(path) is not encrypted: export it to an encrypted file instead")
        }
        if try opens(path, key: key, settings: .sqlcipher4) {
            return .alreadyCurrent
        }
        let candidates = [3, 2, 1]
        guard let compatibility: Int = try candidates.first(where: {
            try opens(path, key: key, settings: CipherSettings(compatibility: $0))
        }) else {
            throw DatabaseError(
                resultCode: .SQLITE_NOTADB,
                message: "cannot upgrade \(path): it does not open with this key and the defaults of "
                    + "SQLCipher 1 to 4 (wrong key, or custom cipher settings: export it instead)")
        }
        var configuration = Configuration()
        configuration.key = key
        configuration.label = "GRDBCipher.upgrade"
        configuration.prepareDatabase { db in
            // Right after the key, before anything reads the file.
            let status = try String.fetchOne(db, sql: "PRAGMA cipher_migrate")
            guard status == "0" else {
                throw DatabaseError(
                    resultCode: .SQLITE_ERROR,
                    message: "SQLCipher could not upgrade \(path) (status \(status ?? "none")); "
                        + "the original file is unchanged")
            }
        }
        let db = try Database(path: path, description: "GRDBCipher.upgrade", configuration: configuration)
        try db.close()
        guard try opens(path, key: key, settings: .sqlcipher4) else {
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
