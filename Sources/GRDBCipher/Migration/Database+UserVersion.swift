extension Database {
    /// The `user_version` of the main database: a 32-bit integer in the file
    /// header that SQLite leaves to applications, 0 in a new database.
    /// SQLite.swift and many other tools version their schema with it.
    /// A GRDBCipher extension: GRDB has no such method.
    ///
    /// ```swift
    /// let version = try dbQueue.read { try $0.userVersion() }
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_user_version>
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails.
    public func userVersion() throws -> Int {
        try Int.fetchOne(self, sql: "PRAGMA main.user_version") ?? 0
    }

    /// Sets the `user_version` of the main database. The change is part of
    /// the current transaction, if any: a rollback undoes it.
    /// A GRDBCipher extension: GRDB has no such method.
    ///
    /// ```swift
    /// try dbQueue.write { try $0.setUserVersion(3) }
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_user_version>
    ///
    /// - throws: A ``DatabaseError``: `SQLITE_MISUSE` if `version` does not
    ///   fit in 32 signed bits (SQLite would silently store something else),
    ///   or SQLite's error, for example on a read-only connection.
    public func setUserVersion(_ version: Int) throws {
        guard let version = Int32(exactly: version) else {
            throw DatabaseError.misuse("user_version must fit in 32 signed bits, not \(version)")
        }
        try execute(sql: "PRAGMA main.user_version = \(version)")
    }
}
