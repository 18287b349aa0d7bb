import Dispatch
import Foundation
import Testing
@testable import GRDBCipher

/// A failing ValueObservation notifies the values fetched before the
/// failure, then the error, as GRDB does; a cancellation silences both.
@Suite struct ValueObservationFailureOrderTests {
    /// Counts rows of `t`, and fails when there are more than one.
    private let fragile = ValueObservation.tracking { db -> Int in
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
        if count > 1 { throw DatabaseError(message: "too many rows") }
        return count
    }

    private func makeQueue(_ dir: TemporaryDirectory) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: keyed("failure-order-passphrase"))
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t (a)") }
        return dbQueue
    }

    @Test func valuesScheduledBeforeAFailureAreNotifiedBeforeIt() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeQueue(dir)
        // Notifications wait on a suspended queue while the value and the failure are scheduled.
        let notifications = DispatchQueue(label: "notifications")
        notifications.suspend()
        let events = LockedValue<[String]>([])
        let failed = DispatchSemaphore(value: 0)
        let cancellable = fragile.start(
            in: dbQueue, scheduling: .async(onQueue: notifications),
            onError: { error in
                events.withLock { $0.append("error: \(error)") }
                failed.signal()
            },
            onChange: { value in events.withLock { $0.append("value: \(value)") } })
        try dbQueue.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
        notifications.resume()
        #expect(failed.wait(timeout: .now() + 30) == .success)
        notifications.sync {}
        #expect(events.withLock { $0 } == ["value: 0", "value: 1", "error: SQLite error 1: too many rows"])
        withExtendedLifetime(cancellable) {}
    }

    @Test func aCancellationSilencesAFailureNotYetNotified() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeQueue(dir)
        let notifications = DispatchQueue(label: "notifications")
        notifications.suspend()
        let events = LockedValue<[String]>([])
        let cancellable = fragile.start(
            in: dbQueue, scheduling: .async(onQueue: notifications),
            onError: { error in events.withLock { $0.append("error: \(error)") } },
            onChange: { value in events.withLock { $0.append("value: \(value)") } })
        try dbQueue.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
        // The failure is scheduled, or about to be: it must not be notified
        // after the cancellation, nor the values before it.
        cancellable.cancel()
        notifications.resume()
        notifications.sync {}
        #expect(events.withLock { $0 }.isEmpty)
    }
}
