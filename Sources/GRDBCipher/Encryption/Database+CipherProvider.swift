import Foundation

extension Database {
    /// The name of the cryptographic library that SQLCipher was built with
    /// (`"openssl"` on Linux), or nil when the connection has no key:
    /// SQLCipher only knows its provider once a connection is keyed.
    ///
    /// ```swift
    /// let provider = try dbQueue.read { db in try db.cipherProvider } // "openssl"
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the connection is closed.
    public var cipherProvider: String? {
        get throws { try String.fetchOne(self, sql: "PRAGMA cipher_provider") }
    }

    /// The version of the cryptographic library (`"OpenSSL 3.0.15 3 Sep 2024"`),
    /// or nil when the connection has no key or the provider does not tell.
    ///
    /// - throws: A ``DatabaseError`` if the connection is closed.
    public var cipherProviderVersion: String? {
        get throws { try String.fetchOne(self, sql: "PRAGMA cipher_provider_version") }
    }

    /// Whether SQLCipher runs in FIPS mode: `"1"` in FIPS mode, `"0"`
    /// otherwise, nil when the connection has no key (SQLCipher only knows
    /// once a connection is keyed).
    ///
    /// - throws: A ``DatabaseError`` if the connection is closed.
    public var cipherFipsStatus: String? {
        get throws { try String.fetchOne(self, sql: "PRAGMA cipher_fips_status") }
    }

    /// Activates a commercial or enterprise SQLCipher package with its
    /// license code (`PRAGMA cipher_license`). Those packages refuse to
    /// encrypt or decrypt (`SQLITE_AUTH`) until the connection has a valid
    /// license; the community edition, which GRDBCipher links on Linux,
    /// ignores it. Call it from ``Configuration/prepareDatabase(_:)``:
    ///
    /// ```swift
    /// config.prepareDatabase { db in
    ///     try db.applySQLCipherLicense(license)
    /// }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if SQLCipher refuses the license.
    public func applySQLCipherLicense(_ license: String) throws {
        // Pragmas take no arguments: the license is quoted as an SQL literal.
        try execute(sql: "PRAGMA cipher_license = '\(license.replacingOccurrences(of: "'", with: "''"))'")
    }
}
