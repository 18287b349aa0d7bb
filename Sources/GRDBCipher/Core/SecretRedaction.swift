/// Keeps keys out of error messages and traces.
///
/// GRDBCipher applies keys with `sqlite3_key` and `sqlite3_rekey`, so its own
/// statements never contain one. A user may still run `PRAGMA key = '...'` or
/// `ATTACH ... KEY '...'` by hand: such statements are replaced by a redacted
/// form wherever the library would show SQL.
enum SecretRedaction {
    static func redactedSQL(_ sql: String) -> String {
        containsKey(sql) ? "<statement with a key, redacted>" : sql
    }

    /// Whether the SQL may carry a key: a `PRAGMA [schema.]key`, `rekey`,
    /// `hexkey`, `hexrekey`, or an `ATTACH` with `KEY`.
    static func containsKey(_ sql: String) -> Bool {
        let lowered = sql.lowercased()
        guard lowered.contains("key") else { return false }
        if lowered.contains("attach") { return true }
        guard lowered.contains("pragma") else { return false }
        // Only the key-carrying pragmas: `PRAGMA foreign_keys` and the like are
        // harmless and stay readable.
        let words = lowered.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
        return words.contains { ["key", "rekey", "hexkey", "hexrekey", "textkey"].contains($0) }
    }
}
