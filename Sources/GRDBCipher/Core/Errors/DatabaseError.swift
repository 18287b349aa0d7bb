import CSQLCipher

/// An error thrown by SQLite or by GRDBCipher.
///
/// A `DatabaseError` carries the SQLite result codes, SQLite's message and the
/// SQL that failed. The statement arguments are only shown in `description`
/// when ``Configuration/publicStatementArguments`` is true, since they often
/// contain user data. A passphrase or key never appears in any of its fields.
///
/// ```swift
/// do {
///     try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
/// } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
///     print(error.message ?? "")
/// }
/// ```
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_FOREIGNKEY`, for example).
    public let extendedResultCode: ResultCode

    /// The primary result code (`SQLITE_CONSTRAINT`, for example).
    public var resultCode: ResultCode { extendedResultCode.primaryResultCode }

    /// The error message: SQLite's (`"file is not a database"`), or, for an
    /// error created without one, SQLite's wording for its result code.
    public let message: String?

    /// The SQL that failed, if any.
    public let sql: String?

    /// The arguments of the statement that failed, if any.
    public let arguments: StatementArguments?

    let publicStatementArguments: Bool

    /// Advice for this error in particular, which ``hint`` gives before
    /// the advice for its result code.
    var specificHint: String?

    /// Creates a database error.
    ///
    /// - parameters:
    ///   - resultCode: A primary or extended result code (default `SQLITE_ERROR`).
    ///   - message: The error message. If nil, SQLite's wording for the
    ///     result code (`sqlite3_errstr`).
    ///   - sql: The SQL that failed.
    ///   - arguments: The statement arguments.
    ///   - publicStatementArguments: Whether `description` shows the arguments.
    public init(
        resultCode: ResultCode = .SQLITE_ERROR,
        message: String? = nil,
        sql: String? = nil,
        arguments: StatementArguments? = nil,
        publicStatementArguments: Bool = false)
    {
        self.extendedResultCode = resultCode
        if let sql, SecretRedaction.containsKey(sql) {
            // The key may be in the SQL, in its arguments, and in SQLite's
            // message, which echoes tokens of the SQL.
            self.message = "statement with a key failed (\(ResultCode(rawValue: resultCode.rawValue & 0xFF)))"
            self.sql = SecretRedaction.redactedSQL(sql)
            self.arguments = nil
        } else {
            self.message = message ?? String(cString: sqlite3_errstr(resultCode.rawValue))
            self.sql = sql
            self.arguments = arguments
        }
        self.publicStatementArguments = publicStatementArguments
    }

    /// The error as it reads in logs: code, message, for a key mistake or a
    /// page that failed authentication the ``hint`` in parentheses, SQL and,
    /// only when ``Configuration/publicStatementArguments`` is true, the
    /// arguments.
    ///
    /// ```
    /// SQLite error 26: file is not a database (the file is not encrypted: ...) - while executing `...`
    /// ```
    public var description: String {
        var text = "SQLite error \(resultCode.rawValue)"
        if let message {
            text += ": \(message)"
        }
        if resultCode == .SQLITE_NOTADB || resultCode == .SQLITE_CORRUPT, let hint {
            text += " (\(hint))"
        }
        if let sql {
            text += " - while executing `\(sql.trimmedSQLStatement)`"
        }
        if publicStatementArguments, let arguments, !arguments.isEmpty {
            text += " with arguments \(arguments)"
        }
        return text
    }

    /// The error with its statement arguments, even when they are not public.
    /// For local debugging only: arguments often hold user data.
    public var expandedDescription: String {
        var text = description
        if !publicStatementArguments, let arguments, !arguments.isEmpty {
            text += " with arguments \(arguments)"
        }
        return text
    }

    /// What the error usually means, beyond SQLite's wording: for
    /// `SQLITE_NOTADB` (a wrong key or cipher settings; at an open, which of
    /// a plaintext file opened with a key, an encrypted file opened without
    /// one, a key that opens the file with another SQLCipher version's
    /// settings, or a wrong key or settings), `SQLITE_CORRUPT` (a
    /// page that failed authentication), and an access to a closed
    /// connection (whose `message` is SQLite's for a missing connection,
    /// "out of memory", as in GRDB); nil otherwise.
    ///
    /// ```swift
    /// } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
    ///     print(error.message!)   // file is not a database
    ///     print(error.hint!)      // wrong passphrase or key, or ...
    /// }
    /// ```
    public var hint: String? {
        if let specificHint { return specificHint }
        switch resultCode {
        case .SQLITE_NOTADB:
            return "wrong passphrase or key, other cipher settings than the file's, "
                + "or not an SQLCipher database encrypted with these cipher settings"
        case .SQLITE_CORRUPT:
            return "a page failed authentication or is damaged (the file was altered); "
                + "cipherIntegrityCheck() lists the failing pages"
        default:
            return nil
        }
    }
}

extension DatabaseError {
    /// Builds the error that SQLite reported on a connection, with a message that
    /// tells a wrong key apart from a damaged page.
    static func fromConnection(
        _ connection: OpaquePointer?,
        code: CInt,
        sql: String? = nil,
        arguments: StatementArguments? = nil,
        publicStatementArguments: Bool = false) -> DatabaseError
    {
        var extended = code
        var message: String? = nil
        if let connection {
            let connectionCode = sqlite3_extended_errcode(connection)
            if connectionCode & 0xFF == code & 0xFF { extended = connectionCode }
            message = String(cString: sqlite3_errmsg(connection))
            if let sql, SecretRedaction.containsKey(sql) {
                KeyErrorMessages.hideCurrentMessage(of: connection)
            }
        } else {
            message = String(cString: sqlite3_errstr(code))
        }
        return DatabaseError(
            resultCode: ResultCode(rawValue: extended),
            message: message,
            sql: sql,
            arguments: arguments,
            publicStatementArguments: publicStatementArguments)
    }

    /// The error of a statement that an access to a closed connection
    /// tries to prepare or run: `SQLITE_MISUSE` with the message SQLite
    /// gives when there is no connection ("out of memory"), as GRDB reports
    /// it, and a hint that says what happened.
    static func closedConnection(sql: String?) -> DatabaseError {
        var error = DatabaseError(resultCode: .SQLITE_MISUSE, message: String(cString: sqlite3_errmsg(nil)), sql: sql)
        error.specificHint = "the connection is closed: its database queue, pool or snapshot was closed with close()"
        return error
    }

    /// The error of an access to a closed pool, or of a read that waited
    /// for a reader connection of a pool that closed: `SQLITE_MISUSE`,
    /// "Connection is closed", as in GRDB.
    static func closedPool() -> DatabaseError {
        var error = DatabaseError.misuse("Connection is closed")
        error.specificHint = "the database pool was closed with close()"
        return error
    }

    /// An error for a misuse of the library, detected before SQLite runs anything.
    static func misuse(
        _ message: String, sql: String? = nil, arguments: StatementArguments? = nil,
        publicStatementArguments: Bool = false) -> DatabaseError
    {
        DatabaseError(
            resultCode: .SQLITE_MISUSE, message: message, sql: sql, arguments: arguments,
            publicStatementArguments: publicStatementArguments)
    }
}
