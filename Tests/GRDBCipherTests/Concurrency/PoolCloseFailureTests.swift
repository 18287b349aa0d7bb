import Foundation
import Testing
@testable import GRDBCipher

/// A pool on a new file, with one table.
private func makeTablePool(_ dir: TemporaryDirectory) throws -> DatabasePool {
    let dbPool = try DatabasePool(path: dir.path("db.sqlite"))
    try dbPool.write { try $0.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
    return dbPool
}

/// Reads and writes the pool, and returns the number of rows.
private func useFully(_ dbPool: DatabasePool) throws -> Int {
    try dbPool.write { try $0.execute(sql: "INSERT INTO t DEFAULT VALUES") }
    return try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t")! }
}

@Suite("Closing a pool or a snapshot that is still in use")
struct PoolCloseFailureTests {
    @Test func liveWriterStatementFailsTheCloseAndLeavesThePoolOpen() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeTablePool(dir)
        _ = try dbPool.read { try $0.execute(sql: "SELECT 1") }   // opens a reader
        let statement = try dbPool.write { try $0.makeStatement(sql: "SELECT * FROM t") }
        let error = #expect(throws: DatabaseError.self) { try dbPool.close() }
        #expect(error?.resultCode == .SQLITE_BUSY)
        #expect(error?.message == "unable to close due to unfinalized statements or unfinished backups")
        #expect(try useFully(dbPool) == 1)
        withExtendedLifetime(statement) { }
    }

    @Test func liveReaderStatementFailsTheCloseAndLeavesTheWriterOpen() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeTablePool(dir)
        let statement = try dbPool.read { try $0.makeStatement(sql: "SELECT * FROM t") }
        let error = #expect(throws: DatabaseError.self) { try dbPool.close() }
        #expect(error?.resultCode == .SQLITE_BUSY)
        #expect(error?.message == "unable to close due to unfinalized statements or unfinished backups")
        #expect(try useFully(dbPool) == 1)
        #expect(dbPool.readers.openConnectionCount >= 1)
        withExtendedLifetime(statement) { }
    }

    @Test func closeSucceedsOnceTheStatementHasEnded() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeTablePool(dir)
        do {
            let statement = try dbPool.read { try $0.makeStatement(sql: "SELECT * FROM t") }
            #expect(throws: DatabaseError.self) { try dbPool.close() }
            withExtendedLifetime(statement) { }
        }
        try dbPool.close()
        #expect(throws: DatabaseError.self) { try useFully(dbPool) }
    }

    @Test func snapshotThatCannotCloseStaysOnItsState() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeTablePool(dir)
        let snapshot = try dbPool.makeSnapshot()
        try dbPool.write { try $0.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        let count = { try snapshot.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t")! } }
        do {
            let statement = try snapshot.read { try $0.makeStatement(sql: "SELECT * FROM t") }
            let error = #expect(throws: DatabaseError.self) { try snapshot.close() }
            #expect(error?.resultCode == .SQLITE_BUSY)
            #expect(try count() == 0)
            withExtendedLifetime(statement) { }
        }
        try snapshot.close()
        #expect(throws: DatabaseError.self) { try count() }
    }
}
