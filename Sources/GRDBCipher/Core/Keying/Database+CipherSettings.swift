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
            // SQLCipher answers with text, and nothing at all when not encrypted.
            func value(_ pragma: String) throws -> String? {
                try String.fetchOne(self, sql: "PRAGMA \(pragma)")
            }
            guard let pageSize = try value("cipher_page_size") else { return nil }
            var settings = CipherSettings()
            settings.pageSize = Int(pageSize)
            settings.kdfIterations = try value("kdf_iter").flatMap { Int($0) }
            settings.kdfAlgorithm = try value("cipher_kdf_algorithm").flatMap(CipherSettings.KDFAlgorithm.init(rawValue:))
            settings.hmacAlgorithm = try value("cipher_hmac_algorithm").flatMap(CipherSettings.HMACAlgorithm.init(rawValue:))
            settings.usesHMAC = try value("cipher_use_hmac").map { $0 == "1" }
            settings.plaintextHeaderSize = try value("cipher_plaintext_header_size").flatMap { Int($0) }
            return settings
        }
    }
}
