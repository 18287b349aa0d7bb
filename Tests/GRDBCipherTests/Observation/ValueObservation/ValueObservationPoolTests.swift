import Dispatch
import Foundation
import Testing
@testable import GRDBCipher

@Suite struct ValueObservationPoolTests {
    @Test func aPoolClosesRightAfterAnObservationEnds() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("closing.sqlite"), configuration: keyed("observed secret"))
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)") }
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(rowCountObservation, in: dbPool)
        recorder.wait(forCount: 1)
        // Keep the writer busy (without a write of the user), so that the
        // observation's teardown is still queued when close() is called.
        let writerMayGoOn = DispatchSemaphore(value: 0)
        let writerIsBusy = DispatchSemaphore(value: 0)
        dbPool.asyncWriteWithoutTransaction { _ in
            writerIsBusy.signal()
            writerMayGoOn.wait()
        }
        writerIsBusy.wait()
        cancellable.cancel()
        let closed = DispatchSemaphore(value: 0)
        let closeError = LockedValue<(any Error)?>(nil)
        DispatchQueue.global().async {
            do { try dbPool.close() } catch { closeError.withLock { $0 = error } }
            closed.signal()
        }
        writerMayGoOn.signal()
        #expect(closed.wait(timeout: .now() + 30) == .success)
        #expect(closeError.withLock { $0 } == nil, "\(String(describing: closeError.withLock { $0 }))")
    }

    @Test func valuesGoOutInTheOrderOfTheirFetchesWhenAWriteRacesTheStart() throws {
        // A write right after the start makes the registration fetch again
        // on the writer, while the reader's initial value is on its way:
        // the older value must never come after the newer one.
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("order.sqlite"), configuration: keyed("observed secret"))
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)") }
        for round in 0..<100 {
            let recorder = ObservationRecorder<Int>()
            let cancellable = recorder.start(rowCountObservation, in: dbPool)
            try dbPool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES (0)") }
            let values = recorder.wait { $0.last == round + 1 }
            #expect(values == values.sorted(), "round \(round): \(values)")
            cancellable.cancel()
        }
    }

    @Test func aPoolFetchesAConstantRegionOnReadersAndATrackedOneOnTheWriter() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeObservedDatabase(.pool, in: dir)
        let fetch: @Sendable (Database) throws -> (Int, Bool) = { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!, db.configuration.readonly)
        }
        let constant = ObservationRecorder<(Int, Bool)>()
        let tracked = ObservationRecorder<(Int, Bool)>()
        let constantCancellable = constant.start(ValueObservation.tracking(region: Table("t"), fetch: fetch), in: dbPool)
        let trackedCancellable = tracked.start(ValueObservation.tracking(fetch), in: dbPool)
        constant.wait(forCount: 1)
        tracked.wait(forCount: 1)
        try insertRow(dbPool)
        let constantValues = constant.wait { $0.last?.0 == 1 }
        let trackedValues = tracked.wait { $0.last?.0 == 1 }
        // The initial values come from readers; a tracked region may change
        // with each fetch, so its later values come from the writer, as in GRDB.
        #expect(constantValues.allSatisfy { $0.1 }, "a constant region's value was fetched on the writer")
        #expect(trackedValues.first?.1 == true, "the initial value was not fetched on a reader")
        #expect(trackedValues.last?.1 == false, "the value after the commit was not fetched on the writer")
        withExtendedLifetime((constantCancellable, trackedCancellable)) {}
    }

    @Test func aPoolNotifiesItsInitialValueOnceWhenNothingChanged() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeObservedDatabase(.pool, in: dir)
        let fetches = LockedValue(0)
        let observation = ValueObservation.tracking { db -> Int in
            fetches.withLock { $0 += 1 }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
        }
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(observation, in: dbPool)
        recorder.wait(forCount: 1)
        // The registration on the writer has run once a write gets the writer.
        try insertRow(dbPool)
        let values = recorder.wait { $0.last == 1 }
        #expect(values == [0, 1])
        #expect(fetches.withLock { $0 } == 2)
        withExtendedLifetime(cancellable) {}
    }

    @Test func aPoolFetchesAgainWhenTheWriterChangedTheDatabaseBeforeTheRegistration() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeObservedDatabase(.pool, in: dir)
        let writerIsBusy = DispatchSemaphore(value: 0)
        let writerMayGoOn = DispatchSemaphore(value: 0)
        // The writer holds the write lock: the initial fetch on a reader
        // sees no row, and the registration waits for the write.
        dbPool.asyncWriteWithoutTransaction { db in
            writerIsBusy.signal()
            writerMayGoOn.wait()
            try? db.execute(sql: "INSERT INTO t (value) VALUES (0)")
        }
        writerIsBusy.wait()
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
        }, in: dbPool)
        #expect(recorder.wait(forCount: 1) == [0], "the initial value waited for the writer")
        writerMayGoOn.signal()
        // The insert happened before the observation registered: no commit
        // tells it, only the writer's change count.
        #expect(recorder.wait { $0.last == 1 } == [0, 1])
        withExtendedLifetime(cancellable) {}
    }

    @Test func aPoolWriterDoesNotWaitForTheObservationFetch() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeObservedDatabase(.pool, in: dir)
        let fetchMayEnd = DispatchSemaphore(value: 0)
        let fetchStarted = DispatchSemaphore(value: 0)
        // A constant region is fetched on readers (a tracked one, on the writer).
        let observation = ValueObservation.tracking(region: Table("t")) { db -> Int in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
            if count == 1 {
                fetchStarted.signal()
                fetchMayEnd.wait()
            }
            return count
        }
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(observation, in: dbPool)
        recorder.wait(forCount: 1)
        try insertRow(dbPool)
        fetchStarted.wait()
        // The fetch of 1 is blocked on a reader: the writer goes on.
        try insertRow(dbPool)
        try insertRow(dbPool)
        fetchMayEnd.signal()
        let values = recorder.wait { $0.last == 3 }
        #expect(values.first == 0)
        #expect(values.contains(1))
        #expect(values.last == 3)
        #expect(values == values.sorted())
        withExtendedLifetime(cancellable) {}
    }
}
