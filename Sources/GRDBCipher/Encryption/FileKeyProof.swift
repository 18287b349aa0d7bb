import CSQLCipher

// The judge of a key rotation: a connection opened afresh, which has never
// seen the old key, reads the file with one key.
//
// Why reading every page is enough, and what it costs. SQLCipher re-encrypts
// every page of the file in one write transaction, so SQLite's atomic commit
// leaves the file (as a new connection sees it, WAL included) all old key or
// all new key. A page decrypts only if its HMAC authenticates under the key,
// so one page under the new key already tells which side of the commit the
// file is on; reading all of them also proves that no page was left behind,
// whatever SQLCipher did. Decrypting a page costs about what the rotation
// pays to re-encrypt it, without the writes and syncs: a few milliseconds per
// megabyte, next to one key derivation (about 0.1 s at SQLCipher 4's
// defaults) for a passphrase.

/// What a new connection, keyed with one key, finds in a database file.
enum FileKeyProof {
    /// Every page of the file decrypts and authenticates with the key.
    case reads
    /// The first page does not authenticate with the key (SQLITE_NOTADB).
    case refused(DatabaseError)
    /// The check could not run to its end (an I/O error, a lock, memory):
    /// it proves nothing either way.
    case failed(DatabaseError)

    /// Opens a new connection to `path`, keyed with `key` and the cipher
    /// settings statements of `settings` (SQLCipher's `PRAGMA cipher_settings`
    /// of the connection that used the file), reads every page, and closes it.
    ///
    /// The connection is writable, as an application's: a journal or WAL left
    /// by a failed transaction is recovered as any opener would recover it.
    static func check(path: String, key: KeyMaterial, settings: [String], usesURI: Bool) -> FileKeyProof {
        var handle: OpaquePointer?
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        if usesURI { flags |= SQLITE_OPEN_URI }
        let openCode = sqlite3_open_v2(path, &handle, flags, nil)
        defer { sqlite3_close_v2(handle) }
        guard openCode == SQLITE_OK, let handle else {
            return .failed(DatabaseError(resultCode: ResultCode(rawValue: openCode), message: "cannot open the file"))
        }
        sqlite3_extended_result_codes(handle, 1)
        // A reader of another process may hold the file for a moment.
        sqlite3_busy_timeout(handle, 10_000)
        let keyCode = sqlite3_key_v2(handle, "main", key.bytes.baseAddress, CInt(key.count))
        guard keyCode == SQLITE_OK else {
            return .failed(DatabaseError(resultCode: ResultCode(rawValue: keyCode), message: "SQLCipher refused the key"))
        }
        // Settings statements hold no key (see `PRAGMA cipher_settings`).
        for statement in settings + ["PRAGMA temp_store = MEMORY"] {
            if let error = run(statement, on: handle) { return .failed(error) }
        }
        if let error = run("SELECT count(*) FROM sqlite_master", on: handle) {
            return error.resultCode == .SQLITE_NOTADB ? .refused(error) : .failed(error)
        }
        if let error = readEveryPage(handle) {
            return .failed(error)
        }
        return .reads
    }

    /// Makes SQLite load, decrypt and authenticate every page of the main
    /// database of an open, keyed connection: with its page reader when the
    /// library has one, else with an integrity check, which reads every page
    /// in use. Returns the error, if any.
    static func readEveryPage(_ handle: OpaquePointer) -> DatabaseError? {
        let hasPageReader = run("SELECT 1 FROM sqlite_dbpage WHERE pgno = 1", on: handle) == nil
        return run(hasPageReader ? "SELECT sum(length(data)) FROM sqlite_dbpage" : "PRAGMA quick_check", on: handle)
    }

    /// Runs `sql` to its end; returns its error, if any. A quick check that
    /// reports damage is an error too.
    private static func run(_ sql: String, on handle: OpaquePointer) -> DatabaseError? {
        var statement: OpaquePointer?
        var code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard code == SQLITE_OK, let statement else {
            return DatabaseError.fromConnection(handle, code: code, sql: sql)
        }
        while true {
            code = sqlite3_step(statement)
            if code == SQLITE_DONE { return nil }
            guard code == SQLITE_ROW else { return DatabaseError.fromConnection(handle, code: code, sql: sql) }
            if sql.hasPrefix("PRAGMA quick_check"), let text = sqlite3_column_text(statement, 0),
               String(cString: text) != "ok"
            {
                return DatabaseError(resultCode: .SQLITE_CORRUPT, message: String(cString: text), sql: sql)
            }
        }
    }
}
