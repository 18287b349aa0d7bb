import CSQLCipher
import Foundation

extension Database {
    /// Keys the connection with a passphrase. Call it from
    /// ``Configuration/prepareDatabase(_:)``, before any other statement:
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.prepareDatabase { db in
    ///     try db.usePassphrase("secret")
    /// }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the passphrase is empty (SQLCipher would
    ///   leave the database unencrypted) or SQLCipher refuses the key.
    public func usePassphrase(_ passphrase: String) throws {
        try applyKey(KeyMaterial(passphrase))
    }

    /// Keys the connection with passphrase bytes. See ``usePassphrase(_:)-(String)``.
    ///
    /// - throws: A ``DatabaseError`` if the passphrase is empty or SQLCipher
    ///   refuses the key.
    public func usePassphrase(_ passphrase: Data) throws {
        try KeyMaterial.checkLength(passphrase.count)   // before copying the bytes
        try applyKey(KeyMaterial(passphrase))
    }

    /// Keys the connection with a passphrase or a raw key. Call it from
    /// ``Configuration/prepareDatabase(_:)``, before any other statement;
    /// ``Configuration/cipherSettings`` are applied right after it.
    ///
    /// ```swift
    /// config.prepareDatabase { db in
    ///     try db.useKey(.rawKey(try vault.databaseKey()))
    /// }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the passphrase is empty, the cipher
    ///   settings are invalid, or SQLCipher refuses the key.
    public func useKey(_ key: DatabaseKey) throws {
        try applyKey(key.material)
    }

    /// The SQLCipher version ("4.6.1 community").
    ///
    /// - throws: A ``DatabaseError`` if the connection is closed.
    public var cipherVersion: String {
        get throws {
            try String.fetchOne(self, sql: "PRAGMA cipher_version") ?? ""
        }
    }

    /// Keys the connection. In a pool, the passphrase follows the changes made
    /// through the pool, and a raw key derived once replaces the passphrase,
    /// with the file's salt (or a new random one for a new file), so that
    /// SQLCipher skips its key derivation.
    func applyKey(_ key: KeyMaterial) throws {
        let handle = try connection()
        guard !key.isEmpty else {
            throw DatabaseError.misuse("empty passphrase: SQLCipher would leave the database unencrypted")
        }
        try KeyMaterial.checkLength(key.count)
        let passphrase = cipherState.keyContext?.currentPassphrase(for: key) ?? key
        cipherState.givenKey = passphrase
        let settings = configuration.cipherSettings
        try settings.validate()
        try settings.check(key: passphrase)
        var keyToApply = passphrase
        // A raw key needs no derivation, and a plaintext header hides the salt.
        if cipherState.allowsDerivedKeyNow, let keyContext = cipherState.keyContext, !passphrase.isRawKeySpecification,
           (settings.plaintextHeaderSize ?? 0) == 0,
           let salt = KeyDerivation.salt(ofDatabaseAt: path)
               ?? (cipherState.runsPreparationFunctions ? nil : KeyDerivation.salt(forNewDatabaseAt: path)),
           keyContext.allowsDerivedKeys(salt: salt),
           let rawKey = keyContext.rawKey(for: passphrase, salt: salt, settings: settings)
        {
            keyToApply = rawKey
            cipherState.derivedKeyAttempt = (passphrase, salt)
        }
        // See UnauthenticatedKeyProbe: a wrong key must not leave a -wal and a -shm.
        if configuration.readonly, !usesURI, UnauthenticatedKeyProbe.isNeeded(for: settings) {
            try UnauthenticatedKeyProbe.check(path: path, key: passphrase, settings: settings)
        }
        let code = sqlite3_key_v2(handle, "main", keyToApply.bytes.baseAddress, CInt(keyToApply.count))
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "SQLCipher refused the key")
        }
        cipherState.isKeyed = true
        cipherState.passphrase = passphrase
        try applyCipherSettings()
    }

    /// Applies ``Configuration/cipherSettings``, once, right after the key.
    func applyCipherSettings() throws {
        guard !cipherState.settingsApplied else { return }
        cipherState.settingsApplied = true
        // A new database gets a key derivation fit for production.
        if configuration.cipherSettings.kdfIterations != nil, cipherState.givenKey?.isRawKeySpecification == false,
           !usesURI, !path.isEmpty, path != ":memory:", isNewDatabaseFile
        {
            try configuration.cipherSettings.checkKeyDerivationForNewDatabase()
        }
        for pragma in try configuration.cipherSettings.pragmas() {
            try execute(sql: pragma)
        }
    }
}

extension Database {
    /// Whether the database file is missing or empty: SQLite has not written it yet.
    var isNewDatabaseFile: Bool {
        if let header = DatabaseFileHeader.read(atPath: path, count: 16) { return header.isEmpty }
        return !FileManager.default.fileExists(atPath: path)
    }
}
