import Dispatch
import Foundation
import Testing
@testable import GRDBCipher

@Suite struct ValueObservationPoolTests {
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
