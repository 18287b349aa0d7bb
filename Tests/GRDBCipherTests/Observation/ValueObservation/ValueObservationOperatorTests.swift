import Dispatch
import Foundation
import Testing
@testable import GRDBCipher

@Suite struct ValueObservationOperatorTests {
    /// An observation of the maximum value in `t`.
    let maximumObservation = ValueObservation.tracking { db in
        try Int.fetchOne(db, sql: "SELECT MAX(value) FROM t")
    }

    @Test func withoutRemoveDuplicatesEachImpactingCommitNotifies() throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(.queue, in: dir)
        let recorder = ObservationRecorder<Int?>()
        let cancellable = recorder.start(maximumObservation, in: writer)
        recorder.wait(forCount: 1)
        try insertRow(writer, value: 5)
        try insertRow(writer, value: 3)
        recorder.wait(forCount: 3)
        #expect(recorder.values == [nil, 5, 5])
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func removeDuplicatesSkipsRepeatedValues(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        let recorder = ObservationRecorder<Int?>()
        let cancellable = recorder.start(maximumObservation.removeDuplicates(), in: writer)
        recorder.wait(forCount: 1)
        try insertRow(writer, value: 5)
        recorder.wait(forCount: 2)
        try insertRow(writer, value: 3)
        try insertRow(writer, value: 4)
        try insertRow(writer, value: 9)
        recorder.wait(forCount: 3)
        #expect(recorder.values == [nil, 5, 9])
        withExtendedLifetime(cancellable) {}
    }

    @Test func removeDuplicatesByAPredicate() throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(.queue, in: dir)
        let recorder = ObservationRecorder<Int?>()
        // Values of the same parity are duplicates.
        let observation = maximumObservation.removeDuplicates { ($0 ?? 0) % 2 == ($1 ?? 0) % 2 }
        let cancellable = recorder.start(observation, in: writer)
        recorder.wait(forCount: 1)
        for value in [2, 4, 5, 7, 8] { try insertRow(writer, value: value) }
        recorder.wait(forCount: 3)
        #expect(recorder.values == [nil, 5, 8])
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func mapTransformsValues(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        let recorder = ObservationRecorder<String>()
        let cancellable = recorder.start(rowCountObservation.map { "\($0) rows" }, in: writer)
        recorder.wait(forCount: 1)
        try insertRow(writer)
        recorder.wait(forCount: 2)
        #expect(recorder.values == ["0 rows", "1 rows"])
        withExtendedLifetime(cancellable) {}
    }

    @Test func aThrowingMapEndsTheObservation() throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(.queue, in: dir)
        let recorder = ObservationRecorder<Int>()
        let observation = rowCountObservation.map { count -> Int in
            if count == 1 { throw ObservationTestError() }
            return count
        }
        let cancellable = recorder.start(observation, in: writer)
        recorder.wait(forCount: 1)
        try insertRow(writer)
        #expect(recorder.waitForError() is ObservationTestError)
        try insertRow(writer)
        try writer.read { _ in }
        #expect(recorder.values == [0])
        withExtendedLifetime(cancellable) {}
    }

    @Test func handleEventsReportsTheLifeOfAnObservation() throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(.queue, in: dir)
        let log = LockedValue<[String]>([])
        let observation = rowCountObservation.handleEvents(
            willStart: { log.withLock { $0.append("start") } },
            willFetch: { log.withLock { $0.append("fetch") } },
            willTrackRegion: { _ in log.withLock { $0.append("region") } },
            databaseDidChange: { log.withLock { $0.append("change") } },
            didReceiveValue: { value in log.withLock { $0.append("value \(value)") } },
            didFail: { _ in log.withLock { $0.append("fail") } },
            didCancel: { log.withLock { $0.append("cancel") } })
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(observation, in: writer)
        recorder.wait(forCount: 1)
        try insertRow(writer)
        recorder.wait(forCount: 2)
        cancellable.cancel()
        #expect(log.withLock { $0 } == [
            "start", "fetch", "region", "value 0", "change", "fetch", "value 1", "cancel",
        ])
    }

    @Test func printWritesOneMessagePerEvent() throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(.queue, in: dir)
        let stream = SharedTextStream()
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(rowCountObservation.print("count", to: stream), in: writer)
        recorder.wait(forCount: 1)
        try insertRow(writer)
        recorder.wait(forCount: 2)
        cancellable.cancel()
        let messages = stream.messages
        #expect(messages.first == "count: start")
        #expect(messages.contains { $0.hasPrefix("count: tracked region: ") })
        #expect(messages.filter { !$0.hasPrefix("count: tracked region: ") } == [
            "count: start", "count: fetch", "count: value: 0",
            "count: database did change", "count: fetch", "count: value: 1", "count: cancel",
        ])
    }
}

/// A text stream whose copies share their messages.
struct SharedTextStream: TextOutputStream {
    private let storage = LockedValue<[String]>([])
    var messages: [String] { storage.withLock { $0 } }
    mutating func write(_ string: String) {
        storage.withLock { $0.append(string) }
    }
}
