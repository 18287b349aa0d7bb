import Foundation
import Testing
@testable import GRDBCipher

@Suite struct AsyncValueObservationTests {
    @Test(arguments: ObservedDatabaseKind.allCases)
    func valuesDeliversTheInitialValueThenChanges(kind: ObservedDatabaseKind) async throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        var received: [Int] = []
        for try await count in rowCountObservation.values(in: writer) {
            received.append(count)
            if count == 3 { break }
            try await writer.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES (0)") }
        }
        #expect(received == [0, 1, 2, 3])
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func valuesThrowsTheErrorOfTheFetch(kind: ObservedDatabaseKind) async throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        let observation = ValueObservation.tracking { db -> Int in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
            if count == 1 { throw ObservationTestError() }
            return count
        }
        var received: [Int] = []
        await #expect(throws: ObservationTestError.self) {
            for try await count in observation.values(in: writer) {
                received.append(count)
                try await writer.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES (0)") }
            }
        }
        #expect(received == [0])
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func cancellingTheConsumingTaskStopsTheFetches(kind: ObservedDatabaseKind) async throws {
        let dir = try TemporaryDirectory()
        let reads = ReadCounter()
        let writer = try makeObservedDatabase(kind, in: dir, configuration: reads.configuration())
        let observation = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) + countedRead() FROM t")!
        }
        let firstValue = AsyncStream<Int>.makeStream()
        let consumer = Task {
            var received: [Int] = []
            for try await count in observation.values(in: writer) {
                received.append(count)
                firstValue.continuation.yield(count)
            }
            return received
        }
        for await _ in firstValue.stream { break }
        consumer.cancel()
        let received = try await consumer.value
        #expect(received == [0])
        let readsAfterCancel = reads.value
        for _ in 0..<5 {
            try await writer.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES (0)") }
        }
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(reads.value == readsAfterCancel)
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func everyCommittedStateAppearsInOrderOrIsCoalesced(kind: ObservedDatabaseKind) async throws {
        // GRDB's guarantee: values come in commit order, each one a committed
        // state, the last one the final state; a pool may coalesce commits
        // (a queue fetches after each one).
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        try await writer.write { db in try db.execute(sql: "INSERT INTO t (id, value) VALUES (1, 0)") }
        let observation = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT value FROM t WHERE id = 1")!
        }
        let commitCount = 300
        let started = AsyncStream<Void>.makeStream()
        let values = Task {
            var received: [Int] = []
            for try await value in observation.values(in: writer) {
                if received.isEmpty { started.continuation.yield() }
                received.append(value)
                if value == 2 * commitCount { break }
            }
            return received
        }
        for await _ in started.stream { break }
        // Readers run meanwhile, on the pool's other connections.
        let readers = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        for _ in 0..<50 { _ = try await writer.read { try Int.fetchOne($0, sql: "SELECT SUM(value) FROM t") } }
                    }
                }
                try await group.waitForAll()
            }
        }
        for _ in 0..<commitCount {
            try await writer.write { db in
                // An odd value is never committed.
                try db.execute(sql: "UPDATE t SET value = value + 1 WHERE id = 1")
                try db.execute(sql: "UPDATE t SET value = value + 1 WHERE id = 1")
            }
        }
        try await readers.value
        let received = try await values.value
        #expect(received.first == 0)
        #expect(received.last == 2 * commitCount)
        #expect(received.allSatisfy { $0.isMultiple(of: 2) }, "an uncommitted state was notified")
        #expect(zip(received, received.dropFirst()).allSatisfy { $0 <= $1 }, "values out of commit order")
        if kind == .queue {
            #expect(received == Array(stride(from: 0, through: 2 * commitCount, by: 2)))
        }
    }
}
