import CSQLCipher

extension Database {
    /// The result code of the last failed SQLite call on this connection,
    /// an extended code such as `SQLITE_CONSTRAINT_UNIQUE` (`sqlite3_errcode`).
    /// After a call that succeeded, SQLite does not define it.
    ///
    /// ```swift
    /// do {
    ///     try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
    /// } catch {
    ///     print(db.lastErrorCode) // 2067 (UNIQUE constraint failed)
    /// }
    /// ```
    public var lastErrorCode: ResultCode {
        ResultCode(rawValue: sqlite3_errcode(sqliteConnection))
    }

    /// The message of the last failed SQLite call on this connection
    /// (`sqlite3_errmsg`). After a call that succeeded, SQLite does not
    /// define it.
    ///
    /// When the failed statement carried a key (`PRAGMA key = ...`), the
    /// message, which may echo its tokens, is replaced by one that names the
    /// result code only, as in ``DatabaseError``.
    public var lastErrorMessage: String? {
        let message = String(cString: sqlite3_errmsg(sqliteConnection))
        if let sqliteConnection, KeyErrorMessages.isHidden(message, on: sqliteConnection) {
            return KeyErrorMessages.replacement(for: lastErrorCode)
        }
        return message
    }
}

/// The messages that SQLite left on a connection after a statement that
/// carried a key failed: ``Database/lastErrorMessage`` must not show them.
///
/// One message per connection, replaced by the next failure of a statement
/// with a key: the table stays as small as the number of connections whose
/// key statements failed.
enum KeyErrorMessages {
    private static let messages = LockedValue<[UInt: String]>([:])

    /// Records the current message of `connection`, after a statement with a key failed.
    static func hideCurrentMessage(of connection: OpaquePointer) {
        let message = String(cString: sqlite3_errmsg(connection))
        messages.withLock { $0[UInt(bitPattern: connection)] = message }
    }

    static func isHidden(_ message: String, on connection: OpaquePointer) -> Bool {
        messages.withLock { $0[UInt(bitPattern: connection)] == message }
    }

    /// What shows instead of a hidden message.
    static func replacement(for code: ResultCode) -> String {
        "statement with a key failed (\(code.primaryResultCode))"
    }
}
