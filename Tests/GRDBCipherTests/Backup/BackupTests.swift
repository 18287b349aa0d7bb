import Dispatch
import Foundation
import Testing
@testable import GRDBCipher
import GRDBCipherTesting

/// Fills `t` with `count` rows of about 200 bytes, so that the database spans many pages.
func fill(_ writer: some DatabaseWriter, rows count: Int) throws {
    try writer.write { db in
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, value TEXT)")
        let statement = try db.cachedStatement(sql: "INSERT INTO t (value) VALUES (?)")
        for index in 0..<count {
            try statement.execute(arguments: [String(repeating: "v", count: 200) + "\(index)"])
        }
    }
}

func tableCount(_ db: Database) throws -> Int {
    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? -1
}

@Suite struct BackupTests {
    @Test func encryptedQueueToEncryptedPoolAndBack() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: dir.path("queue.sqlite"), configuration: keyedWithDefaultSettings("same"))
        try fill(dbQueue, rows: 300)
        let dbPool = try DatabasePool(path: dir.path("pool.sqlite"), configuration: keyedWithDefaultSettings("same"))

        try dbQueue.backup(to: dbPool)
        #expect(try dbPool.read(tableCount) == 300)
        #expect(try dbPool.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")

        try fill(dbPool, rows: 10)
        try dbPool.backup(to: dbQueue)
        #expect(try dbQueue.read(tableCount) == 310)
        try dbPool.close()
        try dbQueue.close()

        // Both files stay encrypted, and the shell reads them with the key.
        for name in ["queue.sqlite", "pool.sqlite"] {
            #expect(try !file(dir.path(name), contains: "vvvvvvvvvv"))
            let output = try SQLCipherShell.run(dir.path(name), key: nil, script: "PRAGMA key = 'same';\nSELECT COUNT(*) FROM t;\n")
            #expect(output.contains("310"))
        }
    }

    @Test func theDestinationKeepsItsOwnKey() throws {
        let dir = try TemporaryDirectory()
        let source = try DatabaseQueue(path: dir.path("source.sqlite"), configuration: keyed("source key"))
        try fill(source, rows: 50)
        let destination = try DatabaseQueue(path: dir.path("copy.sqlite"), configuration: keyed("copy key"))
        try source.backup(to: destination)
        try destination.close()
        #expect(try DatabaseQueue(path: dir.path("copy.sqlite"), configuration: keyed("copy key")).read(tableCount) == 50)
        #expect(throws: DatabaseError.self) {
            try DatabaseQueue(path: dir.path("copy.sqlite"), configuration: keyed("source key"))
        }
    }

    @Test func encryptedMemoryToEncryptedFileAndBack() throws {
        let dir = try TemporaryDirectory()
        let memory = try DatabaseQueue(configuration: keyedWithDefaultSettings("memory"))
        try fill(memory, rows: 100)
        let fileQueue = try DatabaseQueue(path: dir.path("file.sqlite"), configuration: keyedWithDefaultSettings("memory"))
        try memory.backup(to: fileQueue)
        try fileQueue.close()
        #expect(try !file(dir.path("file.sqlite"), contains: "SQLite format 3"))
        let output = try SQLCipherShell.run(dir.path("file.sqlite"), key: nil, script: "PRAGMA key = 'memory';\nSELECT COUNT(*) FROM t;\n")
        #expect(output.contains("100"))

        let reopened = try DatabaseQueue(path: dir.path("file.sqlite"), configuration: keyedWithDefaultSettings("memory"))
        let memoryCopy = try DatabaseQueue(configuration: keyedWithDefaultSettings("memory"))
        try reopened.backup(to: memoryCopy)
        #expect(try memoryCopy.read(tableCount) == 100)
    }

    @Test func plaintextMemoryToPlaintextMemory() throws {
        let source = try DatabaseQueue()
        try fill(source, rows: 10)
        let destination = try DatabaseQueue()
        try source.backup(to: destination)
        #expect(try destination.read(tableCount) == 10)
    }

    @Test func plaintextAndEncryptedAreAClearErrorThatPointsToExport() throws {
        let dir = try TemporaryDirectory()
        let plaintext = try DatabaseQueue()
        try fill(plaintext, rows: 5)
        let encrypted = try DatabaseQueue(path: dir.path("enc.sqlite"), configuration: keyed("k"))
        try fill(encrypted, rows: 7)
        for (source, destination) in [(plaintext, encrypted), (encrypted, plaintext)] {
            let error = #expect(throws: DatabaseError.self) { try source.backup(to: destination) }
            #expect(error?.message?.contains("export") == true)
        }
        #expect(try encrypted.read(tableCount) == 7)
        #expect(try plaintext.read(tableCount) == 5)
    }

    @Test func differentCipherSettingsAreAClearErrorAndLeaveTheDestinationAsItWas() throws {
        let dir = try TemporaryDirectory()
        let source = try DatabaseQueue(path: dir.path("v4.sqlite"), configuration: keyed("k"))
        try fill(source, rows: 20)
        var legacy = keyed("k")
        legacy.cipherSettings = .sqlcipher3
        let destination = try DatabaseQueue(path: dir.path("v3.sqlite"), configuration: legacy)
        try fill(destination, rows: 3)
        let error = #expect(throws: DatabaseError.self) { try source.backup(to: destination) }
        #expect(error?.message?.contains("export") == true)
        #expect(try destination.read(tableCount) == 3)
    }

    @Test func progressIncreasesAndEndsComplete() throws {
        let dir = try TemporaryDirectory()
        let source = try DatabaseQueue(path: dir.path("source.sqlite"), configuration: keyed("k"))
        try fill(source, rows: 500)
        let destination = try DatabaseQueue(path: dir.path("copy.sqlite"), configuration: keyed("k"))
        var reports: [DatabaseBackupProgress] = []
        try source.backup(to: destination, pagesPerStep: 3) { reports.append($0) }

        #expect(reports.count > 5)
        #expect(reports.last?.isCompleted == true)
        #expect(reports.last?.remainingPageCount == 0)
        #expect(reports.dropLast().allSatisfy { !$0.isCompleted })
        let completed = reports.map(\.completedPageCount)
        #expect(completed == completed.sorted())
        #expect(Set(completed).count == completed.count)
        // The final report counts the pages SQLite counted on the way.
        #expect(reports.last?.totalPageCount == reports.dropLast().last?.totalPageCount)
        #expect(try destination.read { try Int.fetchOne($0, sql: "PRAGMA page_count") } == reports.last?.totalPageCount)
        #expect(try destination.read(tableCount) == 500)
    }

    @Test func anErrorFromProgressCancelsAndLeavesTheDestinationAsItWas() throws {
        struct Stop: Error {}
        let dir = try TemporaryDirectory()
        let source = try DatabaseQueue(path: dir.path("source.sqlite"), configuration: keyed("k"))
        try fill(source, rows: 500)
        let destinationPath = dir.path("copy.sqlite")
        let destination = try DatabaseQueue(path: destinationPath, configuration: keyed("k"))
        try destination.write { db in try db.execute(sql: "CREATE TABLE kept (value TEXT); INSERT INTO kept VALUES ('before')") }
        let before = try fileBytes(destinationPath)

        var steps = 0
        #expect(throws: Stop.self) {
            try source.backup(to: destination, pagesPerStep: 2) { _ in
                steps += 1
                if steps == 3 { throw Stop() }
            }
        }
        #expect(steps == 3)
        #expect(try fileBytes(destinationPath) == before)
        #expect(try destination.read { try String.fetchOne($0, sql: "SELECT value FROM kept") } == "before")
        #expect(try destination.read { try Bool.fetchOne($0, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name = 't'") } == false)
    }

    @Test func cancellingABackupIntoAPoolLeavesItAsItWas() throws {
        struct Stop: Error {}
        let dir = try TemporaryDirectory()
        let source = try DatabaseQueue(path: dir.path("source.sqlite"), configuration: keyed("k"))
        try fill(source, rows: 500)
        let destination = try DatabasePool(path: dir.path("pool.sqlite"), configuration: keyed("k"))
        try fill(destination, rows: 7)
        #expect(throws: Stop.self) {
            try source.backup(to: destination, pagesPerStep: 2) { progress in
                if progress.completedPageCount > 4 { throw Stop() }
            }
        }
        #expect(try destination.read(tableCount) == 7)
        try fill(destination, rows: 1)
        #expect(try destination.read(tableCount) == 8)
        #expect(try destination.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
    }

    @Test func aPoolSourceKeepsAcceptingWritesDuringTheBackup() throws {
        let dir = try TemporaryDirectory()
        let source = try DatabasePool(path: dir.path("source.sqlite"), configuration: keyed("k"))
        try fill(source, rows: 1000)
        let destination = try DatabaseQueue(path: dir.path("copy.sqlite"), configuration: keyed("k"))
        let writes = LockedValue(0)
        try source.backup(to: destination, pagesPerStep: 5) { progress in
            guard !progress.isCompleted else { return }
            // A write that commits, from another thread, while the backup
            // holds its read (progress runs inside the source's read access).
            let committed = DispatchQueue.global().sync {
                Result { try source.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES ('during')") } }
            }
            try committed.get()
            writes.withLock { $0 += 1 }
        }
        #expect(writes.withLock { $0 } > 5)
        // The copy is the state the backup started from, whole and consistent.
        #expect(try destination.read(tableCount) == 1000)
        #expect(try destination.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        #expect(try source.read(tableCount) == 1000 + writes.withLock { $0 })
    }

    @Test func concurrentWritesFromAnotherThreadDoNotBreakTheBackup() async throws {
        let dir = try TemporaryDirectory()
        let source = try DatabasePool(path: dir.path("source.sqlite"), configuration: keyed("k"))
        try fill(source, rows: 2000)
        let destination = try DatabasePool(path: dir.path("copy.sqlite"), configuration: keyed("k"))
        let writer = Task {
            for _ in 0..<50 {
                try await source.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES ('concurrent')") }
            }
        }
        try await source.backup(to: destination, pagesPerStep: 10)
        try await writer.value
        let copied = try await destination.read(tableCount)
        #expect((2000...2050).contains(copied))
        #expect(try await destination.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        #expect(try await source.read(tableCount) == 2050)
    }

    @Test func aDatabaseCannotBeBackedUpIntoItself() throws {
        let dbQueue = try DatabaseQueue()
        let error = #expect(throws: DatabaseError.self) { try dbQueue.backup(to: dbQueue) }
        #expect(error?.resultCode == .SQLITE_MISUSE)
    }
}

@Suite struct AsyncBackupCancellationTests {
    @Test func cancellingTheTaskCancelsTheBackupAndLeavesTheDestinationAsItWas() async throws {
        let dir = try TemporaryDirectory()
        let source = try DatabaseQueue(path: dir.path("source.sqlite"), configuration: keyed("k"))
        try fill(source, rows: 2000)
        let destination = try DatabaseQueue(path: dir.path("copy.sqlite"), configuration: keyed("k"))
        try fill(destination, rows: 3)
        let started = AsyncStream<Void>.makeStream()
        let cancelled = DispatchSemaphore(value: 0)
        let steps = LockedValue(0)
        let task = Task {
            try await source.backup(to: destination, pagesPerStep: 1) { _ in
                // At the second step, wait until the task is cancelled.
                if steps.withLock({ $0 += 1; return $0 }) == 2 {
                    started.continuation.yield()
                    cancelled.wait()
                }
            }
        }
        for await _ in started.stream { break }
        task.cancel()
        cancelled.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await destination.read(tableCount) == 3)
        let pageCount = try await source.read { try Int.fetchOne($0, sql: "PRAGMA page_count") } ?? 0
        #expect(pageCount > 50)
        #expect(steps.withLock { $0 } < pageCount)
    }
}
