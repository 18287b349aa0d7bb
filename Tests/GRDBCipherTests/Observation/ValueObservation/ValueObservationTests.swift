import Dispatch
import Foundation
import Testing
@testable import GRDBCipher

@Suite struct ValueObservationTests {
    @Test(arguments: ObservedDatabaseKind.allCases)
    func notifiesTheInitialValueThenAValuePerChange(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(rowCountObservation, in: writer)
        recorder.wait(forCount: 1)
        for expectedCount in 1...3 {
            try insertRow(writer)
            // One change at a time: nothing to coalesce.
            recorder.wait(forCount: expectedCount + 1)
        }
        #expect(recorder.values == [0, 1, 2, 3])
        #expect(recorder.errors.isEmpty)
        cancellable.cancel()
    }

    @Test func aQueueNotifiesEveryCommitInOrder() throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(.queue, in: dir)
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(rowCountObservation, in: writer)
        recorder.wait(forCount: 1)
        for _ in 0..<50 { try insertRow(writer) }
        let values = recorder.wait(forCount: 51)
        #expect(values == Array(0...50))
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func writesToUntrackedTablesNotifyNothing(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(rowCountObservation, in: writer)
        recorder.wait(forCount: 1)
        try insertRow(writer, into: "u")
        try insertRow(writer, into: "u")
        try insertRow(writer, into: "t")
        recorder.wait(forCount: 2)
        // Had the writes to `u` been notified, 0 would repeat before 1.
        #expect(recorder.values == [0, 1])
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func aRolledBackTransactionNotifiesNothing(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(rowCountObservation, in: writer)
        recorder.wait(forCount: 1)
        try writer.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO t (value) VALUES (1)")
                return .rollback
            }
        }
        try insertRow(writer, value: 2)
        recorder.wait(forCount: 2)
        #expect(recorder.values == [0, 1])
        withExtendedLifetime(cancellable) {}
    }

    /// The first fetch of a pool observation runs on a reader, and the
    /// writer logs the tables that commits modify meanwhile: a transaction
    /// rolled back then must not count (it once fetched the value again, a
    /// duplicate, in about one run in a hundred of the test above).
    @Test func aTransactionRolledBackDuringTheFirstFetchOnAReaderNotifiesNothing() throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(.pool, in: dir)
        let gate = FirstFetchGate()
        let observation = ValueObservation.tracking { db in
            gate.holdFirstFetch()
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? -1
        }
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(observation, in: writer)
        gate.waitUntilTheFirstFetchRuns()
        try writer.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO t (value) VALUES (1)")
                return .rollback
            }
        }
        gate.releaseTheFirstFetch()
        recorder.wait(forCount: 1)
        // The writer has judged the logged changes once this write runs:
        // a fetch it would start again is on its way, before the insert.
        try writer.writeWithoutTransaction { _ in }
        try insertRow(writer, value: 2)
        recorder.wait { $0.contains(1) }
        #expect(recorder.values == [0, 1])
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func aValueIsNeverAnUncommittedState(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(rowCountObservation, in: writer)
        recorder.wait(forCount: 1)
        for _ in 0..<20 {
            // Each transaction inserts two rows: an odd count was never committed.
            try writer.write { db in
                try db.execute(sql: "INSERT INTO t (value) VALUES (1)")
                try db.execute(sql: "INSERT INTO t (value) VALUES (2)")
            }
        }
        let values = recorder.wait { $0.last == 40 }
        #expect(values.allSatisfy { $0.isMultiple(of: 2) }, "values: \(values)")
        #expect(values == values.sorted(), "values out of commit order: \(values)")
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func trackingRecordsTheRegionAgainAtEachFetch(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE choice (tableName TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO choice VALUES ('t')")
        }
        // Reads `t` or `u`, as `choice` says.
        let observation = ValueObservation.tracking { db -> String in
            let table = try String.fetchOne(db, sql: "SELECT tableName FROM choice")!
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)")!
            return "\(table):\(count)"
        }
        let recorder = ObservationRecorder<String>()
        let cancellable = recorder.start(observation, in: writer)
        recorder.wait(forCount: 1)
        try writer.write { db in try db.execute(sql: "UPDATE choice SET tableName = 'u'") }
        recorder.wait { $0.last == "u:0" }
        // `u` is tracked now.
        try insertRow(writer, into: "u")
        let values = recorder.wait { $0.last == "u:1" }
        #expect(values.first == "t:0")
        #expect(values.last == "u:1")
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func trackingExplicitRegionsIgnoresWhatTheFetchReads(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        let observation = ValueObservation.tracking(region: Table("u")) { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
        }
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(observation, in: writer)
        recorder.wait(forCount: 1)
        try insertRow(writer, into: "t")
        try insertRow(writer, into: "u")
        recorder.wait(forCount: 2)
        // The insert into `t` notified nothing; the one into `u` shows it.
        #expect(recorder.values == [0, 1])
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func trackingConstantRegionKeepsTheFirstRegion(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        let recorder = ObservationRecorder<Int>()
        let observation = ValueObservation.trackingConstantRegion { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
        }
        let cancellable = recorder.start(observation, in: writer)
        recorder.wait(forCount: 1)
        // A pool fetches the initial value on a reader, then registers on
        // the writer, and fetches again if the writer committed meanwhile:
        // a write right after the first value may repeat it. The value 1,
        // fetched after a commit, shows the observation registered.
        try insertRow(writer, into: "t")
        _ = recorder.wait { $0.last == 1 }
        try insertRow(writer, into: "u")
        try insertRow(writer, into: "t")
        let values = recorder.wait { $0.last == 2 }
        #expect(values.first == 0)
        #expect(values == values.sorted())
        #expect(values.filter { $0 == 1 }.count == 1, "the insert into u was notified: \(values)")
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func aThrowingFetchEndsTheObservation(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        let observation = ValueObservation.tracking { db -> Int in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
            if count == 2 { throw ObservationTestError() }
            return count
        }
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(observation, in: writer)
        recorder.wait(forCount: 1)
        try insertRow(writer)
        recorder.wait(forCount: 2)
        try insertRow(writer)
        let error = recorder.waitForError()
        #expect(error is ObservationTestError)
        // Nothing after the error.
        try insertRow(writer)
        try insertRow(writer)
        try writer.read { _ in }
        #expect(recorder.values == [0, 1])
        #expect(recorder.errors.count == 1)
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func aThrowingInitialFetchIsAnError(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        let observation = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM missingTable")
        }
        let recorder = ObservationRecorder<Int?>()
        let cancellable = recorder.start(observation, in: writer)
        let error = recorder.waitForError()
        #expect((error as? DatabaseError)?.resultCode == .SQLITE_ERROR)
        #expect(recorder.values.isEmpty)
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func cancellingStopsTheFetches(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let reads = ReadCounter()
        let writer = try makeObservedDatabase(kind, in: dir, configuration: reads.configuration())
        let observation = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) + countedRead() FROM t")!
        }
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(observation, in: writer)
        recorder.wait(forCount: 1)
        try insertRow(writer)
        recorder.wait(forCount: 2)
        cancellable.cancel()
        let readsAtCancel = reads.value
        #expect(readsAtCancel >= 2)
        for _ in 0..<5 { try insertRow(writer) }
        // Give a leftover fetch the time to show up.
        Thread.sleep(forTimeInterval: 0.2)
        #expect(reads.value == readsAtCancel)
        #expect(recorder.values == [0, 1])
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func deallocatingTheCancellableStopsTheObservation(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let reads = ReadCounter()
        let writer = try makeObservedDatabase(kind, in: dir, configuration: reads.configuration())
        let observation = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) + countedRead() FROM t")!
        }
        let recorder = ObservationRecorder<Int>()
        var cancellable: AnyDatabaseCancellable? = recorder.start(observation, in: writer)
        recorder.wait(forCount: 1)
        _ = cancellable
        cancellable = nil
        let readsAtRelease = reads.value
        for _ in 0..<3 { try insertRow(writer) }
        Thread.sleep(forTimeInterval: 0.2)
        #expect(reads.value == readsAtRelease)
        #expect(recorder.values == [0])
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func requiresWriteAccessFetchesOnTheWriter(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        var observation = ValueObservation.tracking { db -> Int in
            // A write is allowed, in a savepoint.
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS scratch (x)")
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
        }
        observation.requiresWriteAccess = true
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(observation, in: writer)
        recorder.wait(forCount: 1)
        try insertRow(writer)
        try insertRow(writer)
        recorder.wait(forCount: 3)
        #expect(recorder.values == [0, 1, 2])
        #expect(recorder.errors.isEmpty)
        withExtendedLifetime(cancellable) {}
    }

    @Test func aSnapshotNotifiesOneValue() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeObservedDatabase(.pool, in: dir) as! DatabasePool
        try insertRow(dbPool)
        let snapshot = try dbPool.makeSnapshot()
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(rowCountObservation, in: snapshot)
        recorder.wait(forCount: 1)
        try insertRow(dbPool)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(recorder.values == [1])
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func typeErasedDatabasesAreObserved(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(rowCountObservation, in: AnyDatabaseReader(writer))
        recorder.wait(forCount: 1)
        try insertRow(writer)
        recorder.wait(forCount: 2)
        #expect(recorder.values == [0, 1])
        withExtendedLifetime(cancellable) {}
    }
}

/// Holds the first fetch of an observation until the test releases it.
private final class FirstFetchGate: @unchecked Sendable {   // safe: the state is only touched with `condition` locked
    private let condition = NSCondition()
    private var fetchCount = 0
    private var isReleased = false

    /// Called by the fetch: the first one waits for ``releaseTheFirstFetch()``.
    func holdFirstFetch() {
        condition.withLock {
            fetchCount += 1
            condition.broadcast()
            guard fetchCount == 1 else { return }
            while !isReleased { condition.wait() }
        }
    }

    func waitUntilTheFirstFetchRuns() {
        condition.withLock {
            while fetchCount == 0 { condition.wait() }
        }
    }

    func releaseTheFirstFetch() {
        condition.withLock {
            isReleased = true
            condition.broadcast()
        }
    }
}
