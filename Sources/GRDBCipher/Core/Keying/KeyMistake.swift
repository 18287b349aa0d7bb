/// What a connection's failed first read (`SQLITE_NOTADB`) most likely
/// means, told from the first bytes of the file and the key the connection
/// was given: the advice that ``DatabaseError/hint`` and
/// ``DatabaseError/description`` give, while `resultCode` and `message`
/// stay SQLite's.
enum KeyMistake: Equatable {
    /// A plaintext SQLite file, opened with a key.
    case plaintextFileWithKey
    /// A file that is not plaintext SQLite, opened without a key.
    case encryptedFileWithoutKey
    /// The key opens the file with the defaults of this SQLCipher version.
    case otherCipherSettings(compatibility: Int)
    /// A wrong key, or cipher settings that no default matches.
    case wrongKeyOrSettings

    /// The advice, which never holds a key.
    var hint: String {
        switch self {
        case .plaintextFileWithKey:
            return "the file is not encrypted: it is a plaintext SQLite database, opened with a key "
                + "(open it without one, or encrypt it with DatabaseFile.encrypt)"
        case .encryptedFileWithoutKey:
            return "the file is encrypted, or is not a database: it was opened without a key"
        case .otherCipherSettings(let compatibility):
            return "the key is right, but the file uses SQLCipher \(compatibility)'s cipher settings: "
                + "open it with cipherSettings = CipherSettings(compatibility: \(compatibility)), "
                + "or upgrade it with DatabaseFile.upgradeToSQLCipher4"
        case .wrongKeyOrSettings:
            return "wrong passphrase or key, or other cipher settings than the file's"
        }
    }

    /// The mistake behind an `SQLITE_NOTADB` at the first read of the file
    /// at `path`, or nil for a file that cannot be read or is not a plain file.
    ///
    /// - parameters:
    ///   - isKeyed: Whether the connection was given a key.
    ///   - key: That key, when the library applied it: the standard settings
    ///     of other SQLCipher versions are tried with it on a copy of the
    ///     file's first pages (only those that authenticate pages, so that a
    ///     wrong key is never taken for a right one).
    ///   - settings: The connection's cipher settings.
    static func diagnose(path: String, isKeyed: Bool, key: KeyMaterial?, settings: CipherSettings) -> KeyMistake? {
        guard let header = DatabaseFileHeader.read(atPath: path, count: 16), header.count == 16 else { return nil }
        let isPlaintext = header == Array("SQLite format 3\0".utf8)
        guard isKeyed else { return isPlaintext ? nil : .encryptedFileWithoutKey }
        // A plaintext header is also the start of a file encrypted with one.
        if isPlaintext && (settings.plaintextHeaderSize ?? 0) == 0 { return .plaintextFileWithKey }
        if let key {
            for compatibility in [4, 3, 2] where compatibility != (settings.compatibility ?? 4) {
                let standard = CipherSettings(compatibility: compatibility)
                if UnauthenticatedKeyProbe.keyOpensCopy(path: path, key: key, settings: standard) == true {
                    return .otherCipherSettings(compatibility: compatibility)
                }
            }
        }
        return .wrongKeyOrSettings
    }
}

extension DatabaseError {
    /// The error with the advice of a key mistake.
    func withKeyMistake(_ mistake: KeyMistake?) -> DatabaseError {
        guard let mistake else { return self }
        var error = self
        error.specificHint = mistake.hint
        return error
    }
}

extension Database {
    /// The key mistake behind this connection's failed first read; nil for
    /// an in-memory or URI database, which has no file header to read.
    func diagnoseKeyMistake() -> KeyMistake? {
        guard !path.isEmpty, path != ":memory:", !usesURI else { return nil }
        var isKeyed = cipherState.isKeyed || cipherState.givenKey != nil
        if !isKeyed {
            // Keyed with `PRAGMA key` in a preparation function: SQLCipher
            // reports a page size once a connection has a key.
            isKeyed = ((try? String.fetchOne(self, sql: "PRAGMA cipher_page_size")) ?? nil) != nil
        }
        return KeyMistake.diagnose(
            path: path, isKeyed: isKeyed, key: cipherState.givenKey, settings: configuration.cipherSettings)
    }
}
