import Foundation

/// The `sqlcipher` shell: it writes the files the tool must read, and reads
/// the files the tool writes, as an independent peer.
enum SQLCipherShell {
    struct Failure: Error, CustomStringConvertible {
        let output: String
        var description: String { "sqlcipher failed: \(output)" }
    }

    /// Runs `script` on the database at `path` and returns standard output.
    /// Encrypted files need `PRAGMA key = '...';` first in the script.
    @discardableResult
    static func run(_ path: String, _ script: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executablePath())
        process.arguments = ["-batch", "-bail", path]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stdout = String(decoding: outputData, as: UTF8.self)
        let stderr = String(decoding: errorData, as: UTF8.self)
        if process.terminationStatus != 0 || stderr.contains("Error") {
            throw Failure(output: stdout + stderr)
        }
        return stdout
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

    static func executablePath() throws -> String {
        for directory in ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
            let path = directory + "/sqlcipher"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw Failure(output: "the sqlcipher shell is not installed: run scripts/install-deps")
    }
}
