import Foundation
import Testing
@testable import GRDBCipher

/// Aggregates alive now, across all groups of all statements of a test.
private let aliveAggregates = LockedValue(0)
/// Calls of `finalize` after a failed `step`.
private let finalizeCalls = LockedValue(0)

private struct NotADatabaseError: Error, CustomStringConvertible {
    var description: String { "not a database error" }
}

/// Fails in `step` on the text that names a kind of failure.
private final class FailingAggregate: DatabaseAggregate {
    init() { aliveAggregates.withLock { $0 += 1 } }
    deinit { aliveAggregates.withLock { $0 -= 1 } }

    func step(_ dbValues: [DatabaseValue]) throws {
        switch String.fromDatabaseValue(dbValues[0]) {
        case "message": throw DatabaseError(message: "step failed")
        case "code": throw DatabaseError(resultCode: .SQLITE_CONSTRAINT_CHECK)
        case "both": throw DatabaseError(resultCode: .SQLITE_ABORT, message: "step aborted")
        case "other": throw NotADatabaseError()
        default: break
        }
    }

    func finalize() throws -> (any DatabaseValueConvertible)? {
        finalizeCalls.withLock { $0 += 1 }
        return 0
    }
}

@Suite("Aggregates whose step throws", .serialized)
struct AggregateFailureTests {
    private func failure(_ kind: String, grouped: Bool = false) throws -> DatabaseError? {
        try inMemoryDatabase { db throws -> DatabaseError? in
            db.add(function: DatabaseFunction("failing", argumentCount: 1, aggregate: FailingAggregate.self))
            let sql = grouped
                ? "SELECT failing(column1) FROM (VALUES ('a', 1), (?, 2), ('b', 3)) GROUP BY column2"
                : "SELECT failing(column1) FROM (VALUES ('a'), (?), ('b'))"
            let error = #expect(throws: DatabaseError.self) {
                try Int.fetchAll(db, sql: sql, arguments: [kind])
            }
            // The connection goes on working.
            #expect(try Int.fetchOne(db, sql: "SELECT failing('ok')") == 0)
            return error
        }
    }

    @Test func errorWithAMessage() throws {
        let error = try failure("message")
        #expect(error?.resultCode == .SQLITE_ERROR)
        #expect(error?.message == "step failed")
    }

    @Test func errorWithACodeOnlyHasSQLiteMessageForTheCode() throws {
        let error = try failure("code")
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)
        #expect(error?.message == "constraint failed")
    }

    @Test func errorWithACodeAndAMessage() throws {
        let error = try failure("both", grouped: true)
        #expect(error?.resultCode == .SQLITE_ABORT)
        #expect(error?.message == "step aborted")
    }

    @Test func otherErrorBecomesTheMessage() throws {
        let error = try failure("other")
        #expect(error?.resultCode == .SQLITE_ERROR)
        #expect(error?.message == "not a database error")
    }

    @Test func failedAggregatesAreReleasedAndNotFinalized() throws {
        let finalizedBefore = finalizeCalls.withLock { $0 }
        try inMemoryDatabase { db throws in
            db.add(function: DatabaseFunction("failing", argumentCount: 1, aggregate: FailingAggregate.self))
            for _ in 0..<3 {
                _ = try? Int.fetchAll(db, sql: "SELECT failing(column1) FROM (VALUES ('other'))")
            }
        }
        #expect(finalizeCalls.withLock { $0 } == finalizedBefore)
        #expect(aliveAggregates.withLock { $0 } == 0)
    }
}
