import CSQLCipherRaw
import Foundation

/// A connection through the raw SQLite C API: the benchmark baseline.
public final class RawConnection: @unchecked Sendable {
    // Safe: each benchmark uses a connection from one thread at a time.
    public let handle: OpaquePointer

    /// Opens and keys a connection. `key` is a passphrase or a raw key
    /// specification `x'...'`, as `sqlite3_key` takes them.
    public init(path: String, key: String) {
        var handle: OpaquePointer?
        precondition(sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK)
        self.handle = handle!
        let bytes = Array(key.utf8)
        precondition(sqlite3_key(self.handle, bytes, CInt(bytes.count)) == SQLITE_OK)
        execute("PRAGMA temp_store = MEMORY")
        execute("SELECT count(*) FROM sqlite_master")
    }

    /// Statements prepared by `cachedStatement`, by SQL.
    private var statements: [String: OpaquePointer] = [:]

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// A statement prepared once per connection and reused, as the library's
    /// `cachedStatement` does.
    public func cachedStatement(_ sql: String) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        let statement = prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// Runs SQL, trapping on error.
    public func execute(_ sql: String) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            fatalError("raw SQL failed (\(code)): \(message.map { String(cString: $0) } ?? "") in \(sql)")
        }
    }

    /// Prepares a statement, trapping on error.
    public func prepare(_ sql: String) -> OpaquePointer {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        precondition(code == SQLITE_OK, "prepare failed: \(String(cString: sqlite3_errmsg(handle)))")
        return statement!
    }

    /// Re-encrypts the database with a new passphrase.
    public func rekey(_ passphrase: String) {
        let bytes = Array(passphrase.utf8)
        precondition(sqlite3_rekey(handle, bytes, CInt(bytes.count)) == SQLITE_OK)
    }
}
