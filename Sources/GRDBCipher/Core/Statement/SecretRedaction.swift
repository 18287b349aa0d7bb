/// Keeps keys out of error messages and traces.
///
/// GRDBCipher applies keys with `sqlite3_key` and `sqlite3_rekey`, so its own
/// statements never contain one. A user may still run `PRAGMA key = '...'` or
/// `ATTACH ... KEY '...'` by hand: such statements are replaced by a redacted
/// form wherever the library would show SQL.
enum SecretRedaction {
    static func redactedSQL(_ sql: String) -> String {
        containsKey(sql) ? placeholder : sql
    }

    /// What replaces SQL with a key. It counts as SQL with a key itself:
    /// what came with the original (its arguments) stays hidden too.
    static let placeholder = "<statement with a key, redacted>"

    /// Whether the SQL may carry a key: a `PRAGMA [schema.]key`, `rekey`,
    /// `hexkey`, `hexrekey`, or an `ATTACH` with `KEY`.
    static func containsKey(_ sql: String) -> Bool {
        // Most SQL has no "key" at all: find out without building a string.
        guard mentionsKey(sql.utf8) else { return false }
        if sql == placeholder { return true }
        let lowered = sql.lowercased()
        guard lowered.contains("key") else { return false }
        if lowered.contains("attach") { return true }
        guard lowered.contains("pragma") else { return false }
        // Only the key-carrying pragmas: `PRAGMA foreign_keys` and the like are
        // harmless and stay readable.
        let words = lowered.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
        return words.contains { ["key", "rekey", "hexkey", "hexrekey", "textkey"].contains($0) }
    }

    /// Whether the bytes contain "key" in any case.
    private static func mentionsKey(_ bytes: String.UTF8View) -> Bool {
        var matched = 0
        for byte in bytes {
            let lower = byte | 0x20
            switch (matched, lower) {
            case (0, UInt8(ascii: "k")), (1, UInt8(ascii: "k")): matched = 1
            case (1, UInt8(ascii: "e")): matched = 2
            case (2, UInt8(ascii: "y")): return true
            default: matched = lower == UInt8(ascii: "k") ? 1 : 0
            }
        }
        return false
    }
}
