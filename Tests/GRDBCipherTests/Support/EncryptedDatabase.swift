import Foundation
@testable import GRDBCipher

/// A configuration keyed with `passphrase`.
func keyed(_ passphrase: String) -> Configuration {
    var config = Configuration()
    config.passphrase = passphrase
    return config
}

/// Creates an encrypted database with a `secret` table holding `marker`.
func makeEncryptedDatabase(at path: String, passphrase: String, marker: String = "MARKER-PLAINTEXT") throws {
    let dbQueue = try DatabaseQueue(path: path, configuration: keyed(passphrase))
    try dbQueue.write { db in
        try db.execute(sql: "CREATE TABLE secret (id INTEGER PRIMARY KEY, value TEXT)")
        try db.execute(sql: "INSERT INTO secret (value) VALUES (?)", arguments: [marker])
    }
    try dbQueue.close()
}
