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

    @Test func aPoolFetchesChangesOnReaders() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeObservedDatabase(.pool, in: dir)
        let observation = ValueObservation.tracking { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!, db.configuration.readonly)
        }
        let recorder = ObservationRecorder<(Int, Bool)>()
        let cancellable = recorder.start(observation, in: dbPool)
        recorder.wait(forCount: 1)
        try insertRow(dbPool)
        recorder.wait { $0.last?.0 == 1 }
        #expect(recorder.values.allSatisfy { $0.1 }, "a value was fetched on the writer")
        withExtendedLifetime(cancellable) {}
    }

    @Test func aPoolWriterDoesNotWaitForTheObservationFetch() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeObservedDatabase(.pool, in: dir)
        let fetchMayEnd = DispatchSemaphore(value: 0)
        let fetchStarted = DispatchSemaphore(value: 0)
        let observation = ValueObservation.tracking { db -> Int in
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
