import Foundation
import Synchronization
import Testing
@testable import GRDBCipher

/// The debug-build checks of the rules that unchecked fields rely on: each
/// one fires when its rule is broken.
@Suite(.serialized) struct DebugInvariantsTests {
    /// Runs `body` on a thread of its own, outside of any database access,
    /// and waits for it.
    private func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.start()
        done.wait()
    }

    /// The messages reported while `body` runs.
    private func violations(during body: () throws -> Void) rethrows -> [String] {
        let reported = Mutex<[String]>([])
        try DebugInvariants.withViolationHandler({ message in reported.withLock { $0.append(message) } }, body)
        return reported.withLock { $0 }
    }

    @Test func theTestsRunTheChecks() {
        #expect(DebugInvariants.areChecked, "the suite must run in a debug build, where the checks exist")
    }

    @Test func aStatementRunOutsideOfAnAccessIsReported() throws {
        let dbQueue = try DatabaseQueue()
        let found = try violations {
            try dbQueue.inDatabase { db in
                nonisolated(unsafe) let leaked = db
                onAnotherThread { _ = try? leaked.execute(sql: "SELECT 1") }
            }
        }
        #expect(found.contains { $0.contains("a statement ran outside of an access") }, "\(found)")
    }

    @Test func aCursorRowReadOutsideOfAnAccessIsReported() throws {
        let dbQueue = try DatabaseQueue()
        let found = try violations {
            try dbQueue.inDatabase { db in
                let rows = try Row.fetchCursor(db, sql: "SELECT 1 AS a")
                let row = try #require(try rows.next())
                nonisolated(unsafe) let leaked = row
                onAnotherThread { _ = leaked["a"] as DatabaseValue }
            }
        }
        #expect(found.contains { $0.contains("a cursor row read a column outside of an access") }, "\(found)")
    }

    @Test func accessesOfQueuesAndPoolsBreakNoRule() async throws {
        let directory = try TemporaryDirectory()
        let found = try violations {
            let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: keyed("secret"))
            try dbPool.write { db in
                try db.execute(sql: "CREATE TABLE t(a)")
                try db.execute(sql: "INSERT INTO t VALUES (1), (2)")
            }
            let values = try dbPool.read { db in
                try Row.fetchCursor(db, sql: "SELECT a FROM t").map { $0["a"] as Int }.reduce(0, +)
            }
            #expect(values == 3)
            try dbPool.close()
        }
        #expect(found.isEmpty, "\(found)")
    }

    @Test func aRowWithTwoRepresentationsIsReported() {
        #expect(Row.representationViolation(hasStatement: true, hasValues: false, hasAdaptation: true) != nil)
        #expect(Row.representationViolation(hasStatement: true, hasValues: true, hasAdaptation: false) != nil)
        #expect(Row.representationViolation(hasStatement: false, hasValues: true, hasAdaptation: true) != nil)
        #expect(Row.representationViolation(hasStatement: true, hasValues: false, hasAdaptation: false) == nil)
        #expect(Row.representationViolation(hasStatement: false, hasValues: false, hasAdaptation: true) == nil)
        #expect(Row.representationViolation(hasStatement: false, hasValues: true, hasAdaptation: false) == nil)
        #expect(Row.representationViolation(hasStatement: false, hasValues: false, hasAdaptation: false) == nil)
    }

    @Test func theExistentialLayoutFastPathsAreOn() {
        // If Swift ever changes the layout of optional existentials, the
        // check turns the fast paths of array-literal arguments and record
        // containers off: they stay correct, but this test says so.
        #expect(OptionalExistentialLayout.isKnown)
        let arguments: StatementArguments = [1, "two", nil, 3.5]
        #expect(arguments.values == [1.databaseValue, "two".databaseValue, .null, 3.5.databaseValue])
    }
}
