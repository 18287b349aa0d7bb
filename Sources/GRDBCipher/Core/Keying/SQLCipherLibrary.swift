import CSQLCipher
import Foundation

/// Facts about the linked SQLCipher library.
public enum SQLCipherLibrary {
    /// The oldest SQLCipher version GRDBCipher accepts.
    static let minimumCipherVersion = (major: 4, minor: 5)
    /// The oldest SQLite version GRDBCipher accepts (3.39.0).
    static let minimumSQLiteVersionNumber: CInt = 3_039_000

    /// The version of SQLite inside the linked library ("3.46.1").
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

    /// The SQLCipher version ("4.6.1 community"), or nil when the linked
    /// library is plain SQLite.
    public static var cipherVersion: String? { probe.cipherVersion }

    private static let probe: (cipherVersion: String?, error: DatabaseError?) = {
        let version = readCipherVersion()
        return (version, checkVersions(cipherVersion: version, sqliteVersionNumber: sqlite3_libversion_number()))
    }()

    /// Throws unless the linked library is SQLCipher 4.5 or newer on SQLite
    /// 3.39 or newer. A process that loads both SQLite and SQLCipher may end up
    /// calling plain SQLite: this refuses to run unencrypted by accident.
    static func checkLinkedLibrary() throws {
        if let error = probe.error { throw error }
    }

    /// The error for a library that does not qualify, or nil.
    static func checkVersions(cipherVersion: String?, sqliteVersionNumber: CInt) -> DatabaseError? {
        // Packages, not a script of this repository: the user's project has none.
        let advice = "Install SQLCipher 4.5 or newer: on Debian and Ubuntu, libsqlcipher-dev to build "
            + "and libsqlcipher1 to run (Debian 12: from bookworm-backports); on macOS, brew install sqlcipher."
        let cause = "The usual cause: a plain libsqlite3 loaded before libsqlcipher (by another dependency, "
            + "or LD_PRELOAD), so that SQLite's functions, which SQLCipher shares, resolve to it. "
        guard let cipherVersion, !cipherVersion.isEmpty else {
            return DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "the linked library is plain SQLite \(sqliteVersion), not SQLCipher: "
                    + "databases would not be encrypted. " + cause + advice)
        }
        let numbers = cipherVersion.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        let major = numbers.first ?? 0
        let minor = numbers.dropFirst().first ?? 0
        if (major, minor) < minimumCipherVersion || sqliteVersionNumber < minimumSQLiteVersionNumber {
            return DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "the linked SQLCipher \(cipherVersion) (SQLite \(sqliteVersionNumber)) is too old. " + advice)
        }
        return nil
    }

    private static func readCipherVersion() -> String? {
        var handle: OpaquePointer?
        defer { sqlite3_close_v2(handle) }
        guard sqlite3_open_v2(":memory:", &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { return nil }
        return firstText(handle, "PRAGMA cipher_version")
    }

    private static let currentLogDestination = LockedValue<CipherLogDestination?>(nil)

    /// Routes SQLCipher's process-wide log, once per change of destination.
    /// nil leaves it as it is: SQLCipher's own default, or the last choice.
    static func routeLog(to requested: CipherLogDestination?) {
        currentLogDestination.withLock { current in
            guard let destination = requested, current != destination else { return }
            var handle: OpaquePointer?
            defer { sqlite3_close_v2(handle) }
            guard sqlite3_open_v2(":memory:", &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { return }
            let value = destination.pragmaValue.replacingOccurrences(of: "'", with: "''")
            _ = firstText(handle, "PRAGMA cipher_log = '\(value)'")
            current = destination
        }
    }

    /// Forgets the destination routed last, after the log was routed
    /// elsewhere by other means (``Database/enableCipherLogging(logLevel:target:)``):
    /// the next connection opened with a destination applies it again.
    static func forgetLogDestination() {
        currentLogDestination.withLock { $0 = nil }
    }

    /// The first column of the first row of an SQL query, as text.
    private static func firstText(_ handle: OpaquePointer?, _ sql: String) -> String? {
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK,
              sqlite3_step(statement) == SQLITE_ROW,
              let text = sqlite3_column_text(statement, 0) else { return nil }
        return String(cString: text)
    }
}
