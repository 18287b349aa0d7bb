import Foundation
import Testing
@testable import GRDBCipher

@Suite struct DatabaseRegionObservationTests {
    @Test func changeIsToldAfterEachImpactfulCommit() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let changes = LockedValue<[Int]>([])
        let observation = DatabaseRegionObservation(tracking: Table("player"))
        let cancellable = observation.start(in: dbQueue, onError: { error in
            Issue.record("unexpected error \(error)")
        }, onChange: { db in
            let count = (try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")) ?? -1
            changes.withLock { $0.append(count) }
        })
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (1)") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team (id) VALUES (1)") }
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "INSERT INTO player (id) VALUES (2)")
            try db.execute(sql: "INSERT INTO player (id) VALUES (3)")
        }
        try dbQueue.inDatabase { (db: Database) throws in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO player (id) VALUES (4)")
                return .rollback
            }
        }
        #expect(changes.withLock { $0 } == [1, 3], "one call per impactful commit, none for others")
        cancellable.cancel()
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (5)") }
        #expect(changes.withLock { $0 } == [1, 3], "nothing after cancellation")
    }

    @Test func columnsAndRowsNarrowTheRegion() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'a', 0), (2, 'b', 0)") }
        let count = LockedValue(0)
        let cancellable = DatabaseRegionObservation(tracking: SQLRequest<Row>(sql: "SELECT name FROM player"))
            .start(in: dbQueue, onError: { _ in }, onChange: { _ in count.withLock { $0 += 1 } })
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 1") }
        #expect(count.withLock { $0 } == 0, "the score is not in the region")
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET name = 'c' WHERE id = 2") }
        #expect(count.withLock { $0 } == 1)
        withExtendedLifetime(cancellable) {}
    }

    @Test func deallocatedCancellableStopsTheObservation() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let count = LockedValue(0)
        do {
            let cancellable = DatabaseRegionObservation(tracking: .fullDatabase)
                .start(in: dbQueue, onError: { _ in }, onChange: { _ in count.withLock { $0 += 1 } })
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO team (id) VALUES (1)") }
            withExtendedLifetime(cancellable) {}
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team (id) VALUES (2)") }
        #expect(count.withLock { $0 } == 1)
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            #expect(db.observationBroker == nil, "the released observer is forgotten")
        }
    }

    @Test func regionThatDoesNotCompileIsAnError() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let errors = LockedValue<[String]>([])
        let cancellable = DatabaseRegionObservation(tracking: SQLRequest<Row>(sql: "SELECT * FROM nowhere"))
            .start(in: dbQueue, onError: { error in errors.withLock { $0.append("\(error)") } }, onChange: { _ in })
        #expect(errors.withLock { $0.count } == 1)
        #expect(errors.withLock { $0.first?.contains("no such table: nowhere") } == true)
        withExtendedLifetime(cancellable) {}
    }

    @Test func closedDatabaseIsAnError() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        try dbQueue.close()
        let errors = LockedValue<[any Error]>([])
        let cancellable = DatabaseRegionObservation(tracking: Table("player"))
            .start(in: dbQueue, onError: { error in errors.withLock { $0.append(error) } }, onChange: { _ in })
        let error = try #require(errors.withLock { $0.first } as? DatabaseError)
        #expect(error.resultCode == .SQLITE_MISUSE)
        withExtendedLifetime(cancellable) {}
    }

    @Test func valuesEndWhenTheTaskIsCancelled() async throws {
        let dir = try TemporaryDirectory()
        let dbPool = try makeObservedPool(dir)
        let values = DatabaseRegionObservation(tracking: Table("player")).values(in: dbPool)
        let received = LockedValue(0)
        let task = Task {
            for try await _ in values {
                received.withLock { $0 += 1 }
            }
        }
        // Wait until the iteration has started observing, then write.
        while try await dbPool.writeWithoutTransaction({ db in db.observationBroker == nil }) {
            await Task.yield()
        }
        try await dbPool.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (1)") }
        try await dbPool.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (2)") }
        while received.withLock({ $0 }) < 2 {
            await Task.yield()
        }
        task.cancel()
        try await task.value
        #expect(received.withLock { $0 } == 2)
        try await dbPool.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (3)") }
        try await dbPool.writeWithoutTransaction { (db: Database) throws in
            #expect(db.observationBroker == nil, "the cancelled iteration stopped observing")
        }
    }
}
