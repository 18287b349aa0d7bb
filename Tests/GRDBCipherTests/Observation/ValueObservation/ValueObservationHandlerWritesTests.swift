import Dispatch
import Foundation
import Testing
@testable import GRDBCipher

/// A value handler may write to the database it observes: values are
/// delivered outside of any database access, as in GRDB.
@Suite struct ValueObservationHandlerWritesTests {
    @Test(arguments: ObservedDatabaseKind.allCases)
    func aHandlerOnAQueueSchedulerWritesAnAuditRow(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        let audited = ObservationRecorder<Int>()
        let cancellable = rowCountObservation.start(
            in: writer, scheduling: .async(onQueue: DispatchQueue(label: "handler")),
            onError: { _ in },
            onChange: { count in
                // Writes to another table: no new value, no loop.
                try? writer.write { db in try db.execute(sql: "INSERT INTO u (value) VALUES (?)", arguments: [count]) }
                if let audits = try? writer.read({ db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM u") }) {
                    audited.record(audits)
                }
            })
        audited.wait(forCount: 1)
        try insertRow(writer)
        #expect(audited.wait { $0.contains(2) }.contains(2))
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: ObservedDatabaseKind.allCases)
    @MainActor func anImmediateHandlerWritesDuringStart(kind: ObservedDatabaseKind) throws {
        let dir = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, in: dir)
        var values: [Int] = []
        let cancellable = rowCountObservation.start(
            in: writer, scheduling: .immediate,
            onError: { _ in },
            onChange: { count in
                values.append(count)
                try? writer.write { db in try db.execute(sql: "INSERT INTO u (value) VALUES (?)", arguments: [count]) }
            })
        // The initial value came during `start`, and its handler wrote.
        #expect(values == [0])
        #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM u") } == 1)
        cancellable.cancel()
    }
}
