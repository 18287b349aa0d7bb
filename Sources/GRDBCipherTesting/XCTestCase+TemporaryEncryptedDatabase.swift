#if canImport(XCTest)
import XCTest

extension XCTestCase {
    /// A ``TemporaryEncryptedDatabase`` for the running test, removed (its
    /// queues and pools closed, its directory deleted) when the test ends.
    ///
    /// ```swift
    /// final class PlayerTests: XCTestCase {
    ///     func testSavesPlayers() throws {
    ///         let database = try makeTemporaryEncryptedDatabase()
    ///         let dbQueue = try database.makeQueue()
    ///         ...
    ///     }
    /// }
    /// ```
    ///
    /// - parameter key: The key. The default, a random raw key, makes opens cost nothing.
    /// - throws: A `CocoaError` if the directory cannot be created.
    public func makeTemporaryEncryptedDatabase(key: TestKey = .insecureRandomRawKey()) throws -> TemporaryEncryptedDatabase {
        let database = try TemporaryEncryptedDatabase(key: key)
        addTeardownBlock { database.remove() }
        return database
    }
}
#endif
