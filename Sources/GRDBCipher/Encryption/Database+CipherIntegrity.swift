extension Database {
    /// A page of an encrypted database that failed authentication: its
    /// content no longer matches its HMAC, because the file was altered or
    /// damaged.
    public struct CipherIntegrityFailure: Hashable, Sendable, CustomStringConvertible {
        /// The number of the page (the first page is 1), when SQLCipher names it.
        public let pageNumber: Int?

        /// SQLCipher's report ("HMAC verification failed for page 2").
        public let message: String

        /// The report.
        public var description: String { message }
    }

    /// Checks the HMAC of every page of the database file (`PRAGMA
    /// cipher_integrity_check`) and returns the pages that fail; an empty
    /// array means the file is intact. Pages still in the WAL are not checked.
    ///
    /// ```swift
    /// let failures = try dbQueue.read { db in try db.cipherIntegrityCheck() }
    /// for failure in failures { print(failure.pageNumber ?? 0, failure.message) }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` (`SQLITE_MISUSE` on a connection that
    ///   is not encrypted, where there is nothing to check).
    public func cipherIntegrityCheck() throws -> [CipherIntegrityFailure] {
        guard try cipherSettings != nil else {
            throw DatabaseError.misuse("the database is not encrypted: use PRAGMA integrity_check instead")
        }
        return try String.fetchAll(self, sql: "PRAGMA cipher_integrity_check").map { message in
            CipherIntegrityFailure(pageNumber: Self.pageNumber(in: message), message: message)
        }
    }

    /// The number after "page" in a report line.
    private static func pageNumber(in message: String) -> Int? {
        let words = message.split(separator: " ")
        guard let index = words.firstIndex(where: { $0.lowercased() == "page" }), index + 1 < words.count else {
            return nil
        }
        return Int(words[index + 1].filter(\.isNumber))
    }
}

extension DatabaseReader {
    /// Checks the HMAC of every page of the database file and returns the
    /// pages that fail; see ``Database/cipherIntegrityCheck()``.
    ///
    /// - throws: A ``DatabaseError``.
    public func cipherIntegrityCheck() throws -> [Database.CipherIntegrityFailure] {
        try unsafeRead { try $0.cipherIntegrityCheck() }
    }

    /// The async twin of ``cipherIntegrityCheck()``: the check reads the
    /// whole file, off the cooperative thread pool.
    ///
    /// - throws: `CancellationError`, or a ``DatabaseError``.
    public func cipherIntegrityCheck() async throws -> [Database.CipherIntegrityFailure] {
        try await unsafeRead { try $0.cipherIntegrityCheck() }
    }
}
