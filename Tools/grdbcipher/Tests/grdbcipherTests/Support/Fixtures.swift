import Foundation
import Testing
import GRDBCipherTesting

/// The passphrases of the tests: distinctive, so that a leak into any output is found.
enum Secrets {
    static let right = "tool-secret-4711"
    static let wrong = "wrong-secret-0815"
    static let new = "new-secret-2024"
}

/// The environment that gives the tool `passphrase` as the key of the encrypted side.
func passphraseEnvironment(_ passphrase: String = Secrets.right, new: String? = nil) -> [String: String] {
    var environment = ["GRDBCIPHER_PASSPHRASE": passphrase]
    if let new { environment["GRDBCIPHER_NEW_PASSPHRASE"] = new }
    return environment
}

/// The `PRAGMA key` line of a shell script.
func keyPragma(_ passphrase: String) -> String {
    "PRAGMA key = '\(passphrase)';"
}

/// Checks that no secret appears in what the tool printed.
func expectNoSecret(in result: Tool.Result, sourceLocation: SourceLocation = #_sourceLocation) {
    for secret in [Secrets.right, Secrets.wrong, Secrets.new] {
        #expect(!result.stdout.contains(secret), "stdout shows a passphrase", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains(secret), "stderr shows a passphrase", sourceLocation: sourceLocation)
    }
}

/// A database written by the `sqlcipher` shell with the right passphrase,
/// SQLCipher 4 defaults unless `settings` says otherwise.
func makeShellDatabase(
    in directory: TemporaryDirectory, named name: String = "db.sqlite", settings: String = "", rows: Int = 3) throws -> String
{
    let path = directory.path(name)
    try SQLCipherShell.makeDatabase(at: path, passphrase: Secrets.right, settings: settings, rows: rows)
    return path
}

/// A plaintext database written by the `sqlcipher` shell, without a key.
func makePlaintextDatabase(in directory: TemporaryDirectory, named name: String = "plain.sqlite") throws -> String {
    let path = directory.path(name)
    try SQLCipherShell.run(path, """
        CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER);
        INSERT INTO player(name, score) VALUES ('Arthur', 500), ('Barbara', 1000);
        PRAGMA user_version = 3;
        """)
    return path
}

/// The `label: value` lines of `info`, by label.
func infoFields(_ text: String) -> [String: String] {
    var fields: [String: String] = [:]
    for line in text.split(separator: "\n") {
        guard let colon = line.firstIndex(of: ":") else { continue }
        fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return fields
}
