import CSQLCipher

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
    /// array means the file is intact.
    ///
    /// SQLCipher checks the pages of the file, not the newer copies a WAL
    /// may hold. Right after a passphrase change, until the WAL is
    /// checkpointed, the file's pages are still encrypted with the old key
    /// and would all fail. So when pages fail in WAL mode, a writable
    /// connection outside a transaction checkpoints the WAL (passively) and
    /// checks again; if pages still fail while the WAL could not be emptied
    /// into the file (a reader holds it, or the connection cannot write), the
    /// answer cannot be trusted and the check throws `SQLITE_BUSY`.
    ///
    /// ```swift
    /// let failures = try dbQueue.read { db in try db.cipherIntegrityCheck() }
    /// for failure in failures { print(failure.pageNumber ?? 0, failure.message) }
    /// ```
    ///
    /// - throws: A ``DatabaseError``: `SQLITE_MISUSE` on a connection that is
    ///   not encrypted, where there is nothing to check; `SQLITE_BUSY` when
    ///   WAL pages kept out of the file make the result unreliable.
    public func cipherIntegrityCheck() throws -> [CipherIntegrityFailure] {
        var failures = try cipherIntegrityFailuresOfFile()
        guard !failures.isEmpty, try journalMode() == "wal" else { return failures }
        var walIsInFile = false
        if let handle = sqliteConnection, sqlite3_db_readonly(handle, "main") == 0, !isInsideTransaction,
           let (frames, checkpointed) = try? checkpoint(.passive)
        {
            walIsInFile = frames == checkpointed
            failures = try fileIntegrityFailures()
        }
        guard failures.isEmpty || walIsInFile else {
            throw DatabaseError(
                resultCode: .SQLITE_BUSY,
                message: "cannot check the cipher integrity now: \(failures.count) pages of the file fail, but the "
                    + "WAL holds newer pages that could not be moved into the file (a reader still uses them, or "
                    + "the connection is read-only); check again from a writable connection once readers end")
        }
        return failures
    }

    /// The pages of the file that fail authentication, as the file is now,
    /// without a look at the WAL.
    ///
    /// - throws: A ``DatabaseError``: `SQLITE_MISUSE` on a connection that is
    ///   not encrypted.
    func cipherIntegrityFailuresOfFile() throws -> [CipherIntegrityFailure] {
        guard try cipherSettings != nil else {
            throw DatabaseError.misuse("the database is not encrypted: use PRAGMA integrity_check instead")
        }
        return try fileIntegrityFailures()
    }

    private func fileIntegrityFailures() throws -> [CipherIntegrityFailure] {
        try String.fetchAll(self, sql: "PRAGMA cipher_integrity_check").map { message in
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
    /// A ``DatabasePool`` reads the file on a reader connection, so that
    /// writes go on while the whole file is read and authenticated. It turns
    /// to its writer only when pages fail there: the WAL may then hold newer
    /// copies of those pages that only a writable connection can checkpoint
    /// into the file (right after a passphrase change, every page of the file
    /// is under the old key until then), and a checkpoint of the writer that
    /// runs while the reader reads the file can make a page fail that is
    /// whole a moment later. The writer checkpoints and checks again, and
    /// writes wait for that second check: a cost paid for a damaged file or a
    /// fresh rotation, not for an intact file. Other readers check on their
    /// own connection. A pool wrapped in ``AnyDatabaseReader`` or
    /// ``AnyDatabaseWriter`` is checked as the pool.
    ///
    /// - throws: A ``DatabaseError``.
    public func cipherIntegrityCheck() throws -> [Database.CipherIntegrityFailure] {
        if let dbPool = underlyingPool {
            if try dbPool.unsafeRead({ try $0.cipherIntegrityFailuresOfFile().isEmpty }) { return [] }
            return try dbPool.writeWithoutTransaction { try $0.cipherIntegrityCheck() }
        }
        return try unsafeRead { try $0.cipherIntegrityCheck() }
    }

    /// The async twin of ``cipherIntegrityCheck()``: the check reads the
    /// whole file, off the cooperative thread pool.
    ///
    /// - throws: `CancellationError`, or a ``DatabaseError``.
    public func cipherIntegrityCheck() async throws -> [Database.CipherIntegrityFailure] {
        if let dbPool = underlyingPool {
            if try await dbPool.unsafeRead({ try $0.cipherIntegrityFailuresOfFile().isEmpty }) { return [] }
            return try await dbPool.writeWithoutTransaction { try $0.cipherIntegrityCheck() }
        }
        return try await unsafeRead { try $0.cipherIntegrityCheck() }
    }
}
