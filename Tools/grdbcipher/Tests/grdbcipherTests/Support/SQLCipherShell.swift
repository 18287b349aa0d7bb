import Foundation
import GRDBCipherTesting

/// The testing kit's `sqlcipher` shell, with the spellings of these tests: it
/// writes the files the tool must read, and reads the files the tool writes,
/// as an independent peer.
extension SQLCipherShell {
    /// The shell's path, or the kit's error saying it is missing.
    static func requiredExecutablePath() throws -> String {
        guard let path = executablePath else {
            throw EncryptionCheck.Unavailable(reason: "the sqlcipher shell is not installed: run scripts/install-deps")
        }
        return path
    }

    /// Runs `script` on the database at `path` and returns standard output.
    /// Encrypted files need `PRAGMA key = '...';` first in the script.
    @discardableResult
    static func run(_ path: String, _ script: String) throws -> String {
        try run(path, key: nil, script: script)
    }

    /// Creates an encrypted database with a `player` table of `rows` rows.
    static func makeDatabase(
        at path: String, passphrase: String, settings: String = "", rows: Int = 3) throws
    {
        try run(path, """
            PRAGMA key = '\(passphrase)';
            \(settings)
            CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
            INSERT INTO player(name, score) SELECT 'player' || i, i * 10 FROM n;
            PRAGMA user_version = 7;
            """)
    }

    /// The number of players, read with `script` (the key and settings pragmas).
    static func playerCount(_ path: String, _ script: String) throws -> Int? {
        Int(try run(path, script + "\nSELECT COUNT(*) FROM player;")
            .split(separator: "\n").last.map(String.init) ?? "")
    }
}
