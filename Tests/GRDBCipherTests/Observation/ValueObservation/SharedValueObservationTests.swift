import Dispatch
import Foundation
import Testing
@testable import GRDBCipher

@Suite struct SharedValueObservationTests {
    @Test(arguments: ObservedDatabaseKind.allCases)
    func subscribersShareOneFetchPerChange(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let reads = ReadCounter()
        let writer = try makeObservedDatabase(kind, in: dir, configuration: reads.configuration())
        let shared = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) + countedRead() FROM t")! }
            .shared(in: writer, scheduling: .async(onQueue: DispatchQueue(label: "shared")))
        let first = ObservationRecorder<Int>()
        let second = ObservationRecorder<Int>()
        let cancellable1 = shared.start(onError: first.record(error:), onChange: first.record)
        first.wait(forCount: 1)
        let readsBeforeSecond = reads.value
        let cancellable2 = shared.start(onError: second.record(error:), onChange: second.record)
        // The late subscriber gets the last value, without a fetch.
        second.wait(forCount: 1)
        #expect(reads.value == readsBeforeSecond)
        try insertRow(writer)
        first.wait(forCount: 2)
        second.wait(forCount: 2)
        #expect(first.values == [0, 1])
        #expect(second.values == [0, 1])
        #expect(reads.value == readsBeforeSecond + 1)
        withExtendedLifetime((cancellable1, cancellable2)) {}
    }

    @Test func whileObservedStopsWithTheLastSubscriptionAndRestarts() throws {
        let dir = try TemporaryDirectory()
        let reads = ReadCounter()
        let writer = try makeObservedDatabase(.queue, in: dir, configuration: reads.configuration())
        let shared = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) + countedRead() FROM t")! }
            .shared(in: writer, scheduling: .async(onQueue: DispatchQueue(label: "shared")))
        let first = ObservationRecorder<Int>()
        let cancellable1 = shared.start(onError: first.record(error:), onChange: first.record)
        first.wait(forCount: 1)
        cancellable1.cancel()
        let readsAfterCancel = reads.value
        try insertRow(writer)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(reads.value == readsAfterCancel)
        let second = ObservationRecorder<Int>()
        let cancellable2 = shared.start(onError: second.record(error:), onChange: second.record)
        second.wait(forCount: 1)
        #expect(second.values == [1])
        #expect(first.values == [0])
        withExtendedLifetime(cancellable2) {}
    }

    @Test func anErrorReachesEverySubscriber() throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(.queue, in: dir)
        let shared = ValueObservation
            .tracking { db -> Int in
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
                if count == 1 { throw ObservationTestError() }
                return count
            }
            .shared(in: writer, scheduling: .async(onQueue: DispatchQueue(label: "shared")), extent: .observationLifetime)
        let first = ObservationRecorder<Int>()
        let second = ObservationRecorder<Int>()
        let cancellable1 = shared.start(onError: first.record(error:), onChange: first.record)
        let cancellable2 = shared.start(onError: second.record(error:), onChange: second.record)
        first.wait(forCount: 1)
        second.wait(forCount: 1)
        try insertRow(writer)
        #expect(first.waitForError() is ObservationTestError)
        #expect(second.waitForError() is ObservationTestError)
        // With `observationLifetime`, the error is final.
        let late = ObservationRecorder<Int>()
        let cancellable3 = shared.start(onError: late.record(error:), onChange: late.record)
        #expect(late.waitForError() is ObservationTestError)
        withExtendedLifetime((cancellable1, cancellable2, cancellable3)) {}
    }

    @Test func sharedValuesAsAnAsyncSequence() async throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(.pool, in: dir)
        let shared = rowCountObservation.shared(in: writer, scheduling: .task)
        var received: [Int] = []
        for try await count in shared.values() {
            received.append(count)
            if count == 2 { break }
            try await writer.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES (0)") }
        }
        #expect(received == [0, 1, 2])
    }
}

@Suite struct ImmediateSchedulingTests {
    @MainActor @Test(arguments: ObservedDatabaseKind.allCases)
    func theInitialValueIsNotifiedBeforeStartReturns(kind: ObservedDatabaseKind) async throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        try insertRow(writer)
        var values: [Int] = []
        let cancellable = rowCountObservation.start(in: writer, scheduling: .immediate) { error in
            Issue.record(error)
        } onChange: { count in
            values.append(count)
        }
        #expect(values == [1])
        withExtendedLifetime(cancellable) {}
    }

    @MainActor @Test func anImmediateErrorIsNotifiedBeforeStartReturns() async throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(.queue, in: dir)
        var errors: [any Error] = []
        let observation = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT * FROM missing") }
        let cancellable = observation.start(in: writer, scheduling: .immediate) { error in
            errors.append(error)
        } onChange: { _ in
            Issue.record("unexpected value")
        }
        #expect(errors.count == 1)
        withExtendedLifetime(cancellable) {}
    }
}
