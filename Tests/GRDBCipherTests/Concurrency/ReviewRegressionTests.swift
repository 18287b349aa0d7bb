import Dispatch
import Foundation
import Testing
@testable import GRDBCipher

/// Regressions found in review: each test failed (or hung) before its fix.
@Suite struct ReviewRegressionTests {
    @Test func rotatingBackToAnEarlierPassphraseDoesNotHang() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 2)
        try await dbPool.changePassphrase("B")
        try await dbPool.changePassphrase("pool secret")
        try await dbPool.changePassphrase("C")
        dbPool.invalidateReadOnlyConnections()
        // A new reader is configured with "pool secret", now replaced by "C".
        let count = try await withTimeout(seconds: 20) { try await dbPool.read(rowCount) }
        #expect(count == 2)
        try dbPool.close()
        _ = try DatabaseQueue(path: dir.path("pool.sqlite"), configuration: keyed("C"))
    }

    @Test func aBarrierAndAConcurrentReadDoNotDeadlock() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 1)
        let result = try await withTimeout(seconds: 20) {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        try await withCheckedThrowingContinuation { continuation in
                            // rethrows: the closure throws nothing, so neither does the access.
                            dbPool.writeWithoutTransaction { _ in
                                dbPool.asyncConcurrentRead { result in
                                    continuation.resume(with: result.flatMap { db in Result { try rowCount(db) } })
                                }
                            }
                        }
                    }
                    group.addTask {
                        try await dbPool.barrierWriteWithoutTransaction { db in try rowCount(db) }
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        #expect(result == 40)
    }

    @Test func aReaderLeftInATransactionTraps() async {
        // A reader left in a transaction would keep an old snapshot for the
        // next read: GRDB traps, and so does GRDBCipher.
        await #expect(processExitsWith: .failure) {
            do {
                let dir = try TemporaryDirectory()
                let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: keyed("secret"))
                try dbPool.unsafeRead { db in try db.beginTransaction() }
            } catch {
                exit(0)
            }
        }
    }

    @Test func aWriterLeftInATransactionTraps() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.writeWithoutTransaction { db in try db.beginTransaction() }
        }
    }

    @Test func unsafeTransactionsCanBeAllowed() throws {
        var config = Configuration()
        config.allowsUnsafeTransactions = true
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.beginTransaction()
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        try dbQueue.writeWithoutTransaction { db in
            #expect(db.isInsideTransaction)
            try db.commit()
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") } == 1)
    }

    @Test func changingThePassphraseOnThePoolWriterRefreshesReaders() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 3)
        #expect(try dbPool.read(rowCount) == 3)  // an idle reader now holds the old key
        try dbPool.writeWithoutTransaction { db in try db.changePassphrase("changed on the writer") }
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES ('after')") }
        #expect(try dbPool.read(rowCount) == 4)
    }

    @Test func aFailedCloseLeavesThePoolOpen() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 1)
        #expect(try dbPool.read(rowCount) == 1)
        let statement = try dbPool.writeWithoutTransaction { db in try db.makeStatement(sql: "SELECT 1") }
        let error = #expect(throws: DatabaseError.self) { try dbPool.close() }
        #expect(error?.resultCode == .SQLITE_BUSY)
        // Reads and writes still work.
        #expect(try dbPool.read(rowCount) == 1)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES ('x')") }
        withExtendedLifetime(statement) {}
    }

    @Test func dataInterpolatesAsOneBlob() throws {
        try inMemoryDatabase { db in
            let data = Data([0x41, 0x42, 0x43])
            let sql: SQL = "SELECT typeof(\(data)), length(\(data))"
            #expect(sql.arguments.values.count == 2)
            let row = try #require(try Row.fetchOne(db, sql: sql.sql, arguments: sql.arguments))
            #expect(row[0] as String == "blob")
            #expect(row[1] as Int == 3)
        }
    }

    @Test func keysInArgumentsAndMessagesAreRedacted() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: keyed("secret"))
        var config = Configuration()
        config.publicStatementArguments = true
        let secret = "argument-key-5d1e"
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.inDatabase { db in
                try db.execute(sql: "ATTACH DATABASE ? AS other KEY ?", arguments: ["/no/such/dir/x.db", secret])
            }
        }
        let texts = [error.map { "\($0)" }, error.map(\.expandedDescription), error?.message]
        for text in texts.compactMap({ $0 }) {
            #expect(!text.contains(secret), "leaked in: \(text)")
        }
        let tokenError = #expect(throws: DatabaseError.self) {
            try dbQueue.inDatabase { db in try db.execute(sql: "PRAGMA key = 'unterminated-\(secret)") }
        }
        #expect(tokenError.map { "\($0)" }?.contains(secret) == false)
    }

    @Test func gRDBCollationNamesWorkOnEveryConnection() throws {
        try inMemoryDatabase { db in
            try db.execute(sql: "CREATE TABLE t (name TEXT COLLATE swiftLocalizedCaseInsensitiveCompare)")
            try db.execute(sql: "INSERT INTO t VALUES ('b'), ('A'), ('c')")
            #expect(try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY name") == ["A", "b", "c"])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY name COLLATE swiftCompare") == ["A", "b", "c"])
        }
    }

    @Test func datesOutsideSQLiteRangeAreNotTruncated() throws {
        let farFuture = Date(timeIntervalSince1970: 300_000_000_000)  // year 11476
        guard case .string(let text) = farFuture.databaseValue.storage else {
            Issue.record("a date is stored as text")
            return
        }
        #expect(text.hasPrefix("11476-"))
    }
}

/// Fails instead of hanging when `body` does not finish in time. (A task
/// group would wait for a hung child; unstructured tasks do not.)
func withTimeout<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let resumed = LockedValue(false)
        let resumeOnce: @Sendable (Result<T, any Error>) -> Void = { result in
            let first = resumed.withLock { done in
                defer { done = true }
                return !done
            }
            if first { continuation.resume(with: result) }
        }
        Task {
            do { resumeOnce(.success(try await body())) } catch { resumeOnce(.failure(error)) }
        }
        Task {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            resumeOnce(.failure(TimedOut(seconds: seconds)))
        }
    }
}

struct TimedOut: Error, CustomStringConvertible {
    let seconds: Double
    var description: String { "timed out after \(seconds) seconds: probably a deadlock" }
}

@Suite struct CachedStatementCursorTests {
    @Test func aCachedStatementIsNotSharedWithACursorThatHasNotStepped() throws {
        try inMemoryDatabase { db in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1), (2), (3)")
            let sql = "SELECT a FROM t WHERE a >= ? ORDER BY a"
            let first = try Int.fetchCursor(db.cachedStatement(sql: sql), arguments: [2])
            let second = try Int.fetchCursor(db.cachedStatement(sql: sql), arguments: [1])
            #expect(first.statement !== second.statement)
            #expect(try Array(first) == [2, 3])
            #expect(try Array(second) == [1, 2, 3])
        }
    }

    @Test func passphraseBytesChangeTheKeyOfQueuesAndPools() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makePool(dir, rows: 1)
        try dbPool.changePassphrase(Data("bytes 1".utf8))
        #expect(try dbPool.read(rowCount) == 1)
        try dbPool.close()
        let dbQueue = try DatabaseQueue(path: dir.path("pool.sqlite"), configuration: keyed("bytes 1"))
        try dbQueue.changePassphrase(Data("bytes 2".utf8))
        try dbQueue.close()
        _ = try DatabaseQueue(path: dir.path("pool.sqlite"), configuration: keyed("bytes 2"))
    }
}
