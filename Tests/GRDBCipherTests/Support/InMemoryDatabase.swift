@testable import GRDBCipher

/// Runs `body` on a fresh private in-memory database.
@discardableResult
func inMemoryDatabase<T>(
    configuration: Configuration = Configuration(), _ body: (Database) throws -> T) throws -> T
{
    let dbQueue = try DatabaseQueue(configuration: configuration)
    return try dbQueue.inDatabase(body)
}
