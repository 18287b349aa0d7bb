import CSQLCipher

extension Database {
    /// The version number of the linked SQLite (`sqlite3_libversion_number()`),
    /// such as 3046001 for SQLite 3.46.1.
    ///
    /// ```swift
    /// if Database.sqliteLibVersionNumber >= 3_045_000 {
    ///     // JSONB functions are available
    /// }
    /// ```
    public static var sqliteLibVersionNumber: CInt {
        sqlite3_libversion_number()
    }

    /// The maximum number of arguments of one statement on this connection
    /// (SQLite's `SQLITE_LIMIT_VARIABLE_NUMBER`, 32766 by default).
    ///
    /// Split a long list of values into several statements above it:
    ///
    /// ```swift
    /// let limit = db.maximumStatementArgumentCount
    /// for start in stride(from: 0, to: ids.count, by: limit) {
    ///     let chunk = ids[start..<min(start + limit, ids.count)]
    ///     ...
    /// }
    /// ```
    public var maximumStatementArgumentCount: Int {
        Int(sqlite3_limit(sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
    }
}
