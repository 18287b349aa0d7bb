import Foundation
import Testing
@testable import GRDBCipher

@Suite struct CopyCancellationTests {
    func files(in dir: TemporaryDirectory) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: dir.url.path))
    }

    /// `rows` rows of 1 kB each, keyed with "k".
    func makeSource(_ writer: some DatabaseWriter, rows: Int) throws {
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, data BLOB)")
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
                INSERT INTO t (data) SELECT randomblob(1000) FROM n
                """)
        }
    }

    /// A plaintext queue on a new source of `rows` rows, and the files of
    /// its folder.
    func plaintextSource(rows: Int) throws -> (TemporaryDirectory, DatabaseQueue, Set<String>) {
        let dir = try TemporaryDirectory()
        let source = try DatabaseQueue(path: dir.path("source.sqlite"))
        try makeSource(source, rows: rows)
        return (dir, source, try files(in: dir))
    }

    /// A cancellation that says stop from its `stopAt`-th question on, and
    /// counts the questions.
    func cancellation(stoppingAt stopAt: Int) -> (CopyCancellation, LockedValue<Int>) {
        let questions = LockedValue(0)
        let cancellation = CopyCancellation {
            questions.withLock { count in
                count += 1
                return count >= stopAt
            }
        }
        return (cancellation, questions)
    }

    @Test(arguments: [false, true])
    func aCopyStopsHalfwayAndLeavesNothingBehind(fromPool: Bool) throws {
        let dir = try TemporaryDirectory()
        var config = Configuration()
        config.passphrase = "k"
        let source: any DatabaseWriter = fromPool
            ? try DatabasePool(path: dir.path("source.sqlite"), configuration: config)
            : try DatabaseQueue(path: dir.path("source.sqlite"), configuration: config)
        try makeSource(source, rows: 2000)
        let before = try files(in: dir)

        let (cancellation, questions) = cancellation(stoppingAt: 3)
        #expect(throws: CancellationError.self) {
            try source.export(
                to: dir.path("copy.sqlite"), encryption: .encrypted(key: .passphrase("other")),
                replacingExistingFile: false, filePermissions: nil, cancellation: cancellation)
        }
        // Asked before the copy, then by SQLite during it.
        #expect(questions.withLock { $0 } >= 3)
        #expect(try files(in: dir) == before)

        // The exporting connection is left as it was (a queue's own one: a
        // pool's is closed): nothing attached, no progress handler, no
        // transaction. The next export copies it all.
        try source.export(to: dir.path("copy.sqlite"), encryption: .encrypted(key: .passphrase("other")))
        var copyConfig = Configuration()
        copyConfig.passphrase = "other"
        let copy = try DatabaseQueue(path: dir.path("copy.sqlite"), configuration: copyConfig)
        #expect(try copy.read(tableCount) == 2000)
        #expect(try source.read { try String.fetchAll($0, sql: "SELECT name FROM pragma_database_list") } == ["main"])
    }

    @Test func aCancellationBeforeTheCopyWritesNothing() throws {
        let (dir, source, before) = try plaintextSource(rows: 10)
        let (cancellation, questions) = cancellation(stoppingAt: 1)
        #expect(throws: CancellationError.self) {
            try source.export(
                to: dir.path("copy.sqlite"), encryption: .plaintext, replacingExistingFile: false,
                filePermissions: nil, cancellation: cancellation)
        }
        #expect(questions.withLock { $0 } == 1)
        #expect(try files(in: dir) == before)
    }

    @Test func aCancellationThatNeverSaysStopLetsTheCopyFinish() throws {
        let (dir, source, _) = try plaintextSource(rows: 2000)
        let (cancellation, questions) = cancellation(stoppingAt: .max)
        try source.export(
            to: dir.path("copy.sqlite"), encryption: .plaintext, replacingExistingFile: false, filePermissions: nil, cancellation: cancellation)
        #expect(questions.withLock { $0 } > 2)
        #expect(try DatabaseQueue(path: dir.path("copy.sqlite")).read(tableCount) == 2000)
    }

    @Test func questionsAskedAfterTheCopyCannotStopIt() throws {
        let (dir, source, _) = try plaintextSource(rows: 2000)
        // Count the questions of a whole export, then export again with a
        // cancellation that would only stop at the next one.
        let (counting, questions) = cancellation(stoppingAt: .max)
        try source.export(
            to: dir.path("first.sqlite"), encryption: .plaintext, replacingExistingFile: false, filePermissions: nil, cancellation: counting)
        let count = questions.withLock { $0 }
        let (late, lateQuestions) = cancellation(stoppingAt: count + 1)
        try source.export(
            to: dir.path("second.sqlite"), encryption: .plaintext, replacingExistingFile: false, filePermissions: nil, cancellation: late)
        #expect(lateQuestions.withLock { $0 } == count)
        #expect(try DatabaseQueue(path: dir.path("second.sqlite")).read(tableCount) == 2000)
    }

    @Test func aReadOnlyQueueStopsAfterItsInMemoryCopy() throws {
        let dir = try TemporaryDirectory()
        try makeSource(DatabaseQueue(path: dir.path("source.sqlite")), rows: 2000)
        var config = Configuration()
        config.readonly = true
        let source = try DatabaseQueue(path: dir.path("source.sqlite"), configuration: config)
        let before = try files(in: dir)
        let (cancellation, _) = cancellation(stoppingAt: 3)
        #expect(throws: CancellationError.self) {
            try source.export(
                to: dir.path("copy.sqlite"), encryption: .plaintext, replacingExistingFile: false,
                filePermissions: nil, cancellation: cancellation)
        }
        #expect(try files(in: dir) == before)
    }

    @Test func aCancelledAsyncExportLeavesACompleteCopyOrNothing() async throws {
        // Whether the cancellation lands during the copy depends on timing;
        // either way, no partial file may remain.
        let (dir, source, before) = try plaintextSource(rows: 20_000)
        let copyPath = dir.path("copy.sqlite")
        let task = Task {
            try await source.export(to: copyPath, encryption: .encrypted(key: .passphrase("other")))
        }
        while try files(in: dir) == before {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        task.cancel()
        do {
            try await task.value
            var config = Configuration()
            config.passphrase = "other"
            let copy = try DatabaseQueue(path: copyPath, configuration: config)
            #expect(try await copy.read(tableCount) == 20_000)
            #expect(try files(in: dir) == before.union(["copy.sqlite"]))
        } catch is CancellationError {
            #expect(try files(in: dir) == before)
        }
    }

    @Test func cancellingATaskBeforeItsExportStartsWritesNothing() async throws {
        let (dir, source, before) = try plaintextSource(rows: 10)
        let copyPath = dir.path("copy.sqlite")
        let task = Task {
            while !Task.isCancelled { await Task.yield() }
            try await source.export(to: copyPath, encryption: .plaintext)
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try files(in: dir) == before)
    }

    @Test func cancellingTheTaskTellsTheRunningExport() async throws {
        // The async twin runs the export with the cancellation made here; the
        // tests above show what the export does when it says stop.
        let started = LockedValue(false)
        let task = Task {
            try await CopyCancellation.runCancellable { cancellation in
                started.withLock { $0 = true }
                let deadline = Date().addingTimeInterval(30)
                while !cancellation.isCancelled() {
                    guard Date() < deadline else { return }
                    usleep(1000)
                }
                throw CancellationError()
            }
        }
        while !started.withLock({ $0 }) {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
