import Foundation
@testable import GRDBCipher
import GRDBCipherTesting

/// A configuration keyed with `passphrase`, derived with one PBKDF2 round
/// (the testing kit's `insecureFastPassphrase`): opening costs nothing.
/// Most tests do not test key derivation; those that do, or that share files
/// with the `sqlcipher` shell's defaults, use `keyedWithDefaultSettings`.
func keyed(_ passphrase: String) -> Configuration {
    TestKey.insecureFastPassphrase(passphrase).configuration
}

/// A configuration keyed with `passphrase` and SQLCipher 4's default
/// settings: 256,000 PBKDF2 rounds, about 0.1 s each time a connection opens.
func keyedWithDefaultSettings(_ passphrase: String) -> Configuration {
    var config = Configuration()
    config.passphrase = passphrase
    return config
}

/// Creates an encrypted database with a `secret` table holding `marker`,
/// keyed with `configuration` (by default, `keyed(passphrase)`).
func makeEncryptedDatabase(
    at path: String, passphrase: String, marker: String = "MARKER-PLAINTEXT", configuration: Configuration? = nil) throws
{
    let dbQueue = try DatabaseQueue(path: path, configuration: configuration ?? keyed(passphrase))
    try dbQueue.write { db in
        try db.execute(sql: "CREATE TABLE secret (id INTEGER PRIMARY KEY, value TEXT)")
        try db.execute(sql: "INSERT INTO secret (value) VALUES (?)", arguments: [marker])
    }
    try dbQueue.close()
}

/// `makeEncryptedDatabase` with SQLCipher 4's default settings, for files
/// that the `sqlcipher` shell or a default `DatabaseKey` opens.
func makeEncryptedDatabaseWithDefaultSettings(at path: String, passphrase: String, marker: String = "MARKER-PLAINTEXT") throws {
    try makeEncryptedDatabase(
        at: path, passphrase: passphrase, marker: marker, configuration: keyedWithDefaultSettings(passphrase))
}
