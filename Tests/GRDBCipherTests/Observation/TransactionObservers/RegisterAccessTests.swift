import Foundation
import Testing
@testable import GRDBCipher

/// `Database.registerAccess(to:)`: a fetch declares a region it depends on
/// without reading it.
@Suite struct RegisterAccessTests {
    @Test(arguments: ObservedDatabaseKind.allCases)
    func aRegisteredTableTriggersTheObservation(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        let observation = ValueObservation.tracking { db -> Int in
            try db.registerAccess(to: Table("u"))
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
        }
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(observation, in: writer)
        recorder.wait(forCount: 1)
        // Only `u` changes: the fetch runs again, and sees the same count.
        try insertRow(writer, into: "u")
        recorder.wait(forCount: 2)
        try insertRow(writer, into: "t")
        let values = recorder.wait(forCount: 3)
        #expect(values == [0, 0, 1])
        withExtendedLifetime(cancellable) {}
    }

    @Test func outsideOfAnObservationItDoesNothing() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.registerAccess(to: Table("t"))
            // An unknown table is not looked up when nothing records.
            try db.registerAccess(to: Table("missing"))
        }
    }

    @Test func anUnknownTableEndsTheObservationWithItsError() throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(.queue, in: dir)
        let observation = ValueObservation.tracking { db -> Int in
            try db.registerAccess(to: SQLRequest<Row>(sql: "SELECT * FROM missing"))
            return 0
        }
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(observation, in: writer)
        let error = recorder.waitForError() as? DatabaseError
        #expect(error?.message?.contains("no such table: missing") == true)
        withExtendedLifetime(cancellable) {}
    }
}
