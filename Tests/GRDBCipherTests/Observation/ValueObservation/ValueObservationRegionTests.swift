import Foundation
import Testing
@testable import GRDBCipher

/// What a value observation tracks, as GRDB computes it: rows of requests
/// by key, attached databases, and nothing else (SQLite's truncate
/// optimization stays on for other tables).
@Suite struct ValueObservationRegionTests {
    private struct Row_: Codable, FetchableRecord, TableRecord, Identifiable {
        static let databaseTableName = "t"
        var id: Int64
        var value: Int
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func aRequestByKeyIgnoresChangesToOtherRows(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        for _ in 0..<3 { try insertRow(writer) }
        let fetches = LockedValue(0)
        let observation = ValueObservation
            .tracking { db in try Row_.filter(ids: [1, 2]).fetchAll(db).map(\.value) }
            .handleEvents(willFetch: { fetches.withLock { $0 += 1 } })
        let recorder = ObservationRecorder<[Int]>()
        let cancellable = recorder.start(observation, in: writer)
        recorder.wait(forCount: 1)
        let fetchesBefore = fetches.withLock { $0 }
        try writer.write { db in try db.execute(sql: "UPDATE t SET value = 3 WHERE id = 3") }
        try writer.write { db in try db.execute(sql: "UPDATE t SET value = 2 WHERE id = 2") }
        #expect(recorder.wait { $0.last == [0, 2] } == [[0, 0], [0, 2]])
        // Only the change to row 2 made the observation fetch.
        #expect(fetches.withLock { $0 } == fetchesBefore + 1)
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func writesToAnAttachedDatabaseAreObserved(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        var configuration = keyed("observed secret")
        let attachedPath = dir.path("attached.sqlite")
        configuration.prepareDatabase { db in
            try db.execute(sql: "ATTACH DATABASE ? AS aux", arguments: [attachedPath])
        }
        let writer = try makeObservedDatabase(kind, in: dir, configuration: configuration)
        try writer.write { db in try db.execute(sql: "CREATE TABLE aux.note (id INTEGER PRIMARY KEY)") }
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(
            ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM aux.note")! },
            in: writer)
        recorder.wait(forCount: 1)
        try writer.write { db in try db.execute(sql: "INSERT INTO aux.note DEFAULT VALUES") }
        #expect(recorder.wait { $0.last == 1 } == [0, 1])
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    func deletionsInOtherTablesKeepTheTruncateOptimization(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        let recorder = ObservationRecorder<Int>()
        let cancellable = recorder.start(rowCountObservation, in: writer)
        recorder.wait(forCount: 1)
        // The observation registers on the writer after its initial fetch:
        // once a write ran after it, it is registered.
        try insertRow(writer)
        recorder.wait(forCount: 2)
        try writer.write { db in
            let broker = try #require(db.observationBroker)
            // A `DELETE FROM u` compiled now keeps the truncate optimization:
            // no observer asks for its deletions.
            #expect(broker.observesDeletions(in: "u") == false)
            #expect(broker.observesDeletions(in: "t") == true)
        }
        withExtendedLifetime(cancellable) {}
    }
}
