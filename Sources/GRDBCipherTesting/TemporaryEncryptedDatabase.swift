import Foundation
import GRDBCipher

/// An encrypted database for one test: a path in a directory of its own, a
/// fast test key, and the queues and pools opened on it, closed and deleted
/// with the directory by ``remove()``.
///
/// With Swift Testing, the ``Testing/Trait/temporaryEncryptedDatabase``
/// trait gives each test its own, as ``current``; with XCTest,
/// `makeTemporaryEncryptedDatabase(key:)` removes it when the test ends.
/// Elsewhere, create one and remove it yourself:
///
/// ```swift
/// let database = try TemporaryEncryptedDatabase()
/// defer { database.remove() }
/// let dbPool = try database.makePool()
/// try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
/// ```
///
/// Nothing is written until a queue or pool opens the file: your app can
/// open it itself, with ``path`` and ``configuration``.
public final class TemporaryEncryptedDatabase: @unchecked Sendable {   // safe: `connections` is only touched with `lock` held
    /// The directory that holds the database, and nothing else unless the test puts it there.
    public let directory: TemporaryDatabaseDirectory

    /// The database file (it does not exist until a connection opens it).
    public let path: String

    /// The key of the database.
    public let key: TestKey

    private let lock = NSLock()
    private var connections: [any DatabaseReader] = []

    /// Creates the directory; the database file is `fileName` in it.
    ///
    /// - parameter key: The key. The default, a random raw key, makes opens cost nothing.
    /// - parameter fileName: The name of the database file in the directory.
    /// - throws: A `CocoaError` if the directory cannot be created.
    public init(key: TestKey = .insecureRandomRawKey(), fileName: String = "db.sqlite") throws {
        self.key = key
        directory = try TemporaryDatabaseDirectory(prefix: "GRDBCipherTesting-db")
        path = directory.path(for: fileName)
    }

    /// A configuration keyed with ``key``: what opens the database.
    public var configuration: Configuration { key.configuration }

    /// A new queue on the database, keyed with ``key`` (whatever key `base`
    /// has), closed by ``remove()``.
    ///
    /// - throws: A `DatabaseError` if the database does not open.
    public func makeQueue(configuration base: Configuration = Configuration()) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(path: path, configuration: key.configuration(basedOn: base))
        register(dbQueue)
        return dbQueue
    }

    /// A new pool on the database, keyed with ``key`` (whatever key `base`
    /// has), closed by ``remove()``.
    ///
    /// - throws: A `DatabaseError` if the database does not open.
    public func makePool(configuration base: Configuration = Configuration()) throws -> DatabasePool {
        let dbPool = try DatabasePool(path: path, configuration: key.configuration(basedOn: base))
        register(dbPool)
        return dbPool
    }

    /// Closes the queues and pools made by ``makeQueue(configuration:)`` and
    /// ``makePool(configuration:)``, then deletes the directory with everything
    /// in it. Does nothing the second time.
    public func remove() {
        let connections = lock.withLock {
            defer { self.connections = [] }
            return self.connections
        }
        for connection in connections {
            try? connection.close()
        }
        directory.remove()
    }

    private func register(_ connection: any DatabaseReader) {
        lock.withLock { connections.append(connection) }
    }
}
