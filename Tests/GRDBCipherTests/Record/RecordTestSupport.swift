import Foundation
@testable import GRDBCipher

/// Runs `body` on a fresh encrypted database file.
@discardableResult
func inEncryptedDatabase<T>(
    publicStatementArguments: Bool = false, _ body: (Database) throws -> T) throws -> T
{
    let dir = try TemporaryDirectory()
    var config = keyed("record-tests-passphrase")
    config.publicStatementArguments = publicStatementArguments
    let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: config)
    return try withExtendedLifetime(dir) { try dbQueue.inDatabase(body) }
}
