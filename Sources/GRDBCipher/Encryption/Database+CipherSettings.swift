extension Database {
    /// The cipher settings in effect on the main database, read back from
    /// SQLCipher, with every page and key derivation property filled in;
    /// nil for a connection that is not encrypted. `compatibility` and
    /// `memorySecurity` stay nil: SQLCipher does not report them per database.
    ///
    /// ```swift
    /// let settings = try dbQueue.read { db in try db.cipherSettings }
    /// print(settings?.kdfIterations ?? 0)      // 256000
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the connection is closed.
    public var cipherSettings: CipherSettings? {
        get throws {
            guard let pageSize = try Int.fetchOne(self, sql: "PRAGMA cipher_page_size") else { return nil }
            var settings = CipherSettings()
            settings.pageSize = pageSize
            settings.kdfIterations = try Int.fetchOne(self, sql: "PRAGMA kdf_iter")
            settings.kdfAlgorithm = try String.fetchOne(self, sql: "PRAGMA cipher_kdf_algorithm")
                .flatMap(CipherSettings.KDFAlgorithm.init(rawValue:))
            settings.hmacAlgorithm = try String.fetchOne(self, sql: "PRAGMA cipher_hmac_algorithm")
                .flatMap(CipherSettings.HMACAlgorithm.init(rawValue:))
            settings.usesHMAC = try Bool.fetchOne(self, sql: "PRAGMA cipher_use_hmac")
            settings.plaintextHeaderSize = try Int.fetchOne(self, sql: "PRAGMA cipher_plaintext_header_size")
            return settings
        }
    }
}
