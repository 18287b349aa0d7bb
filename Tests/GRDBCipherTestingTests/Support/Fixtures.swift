import Foundation
import GRDBCipher
import GRDBCipherTesting

/// A marker written in plaintext databases, and looked for in encrypted ones.
let plaintextMarker = "MARKER-4f1c-PLAINTEXT"

/// Writes a table `note` holding `marker` with `configuration` (no key:
/// plaintext), in a queue closed again.
func writeNote(_ marker: String = plaintextMarker, at path: String, configuration: Configuration = Configuration()) throws {
    let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
    try dbQueue.write { db in
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS note (id INTEGER PRIMARY KEY, text TEXT)")
        try db.execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: [marker])
    }
    try dbQueue.close()
}

/// The message of the ``EncryptionCheck/Failure`` that `check` throws, or nil
/// if it throws nothing (another error is rethrown).
func failureMessage(_ check: () throws -> Void) throws -> String? {
    do {
        try check()
        return nil
    } catch let failure as EncryptionCheck.Failure {
        return failure.message
    }
}
