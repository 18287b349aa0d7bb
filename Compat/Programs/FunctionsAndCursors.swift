#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

// Failures inside SQL functions and aggregates, and how cursors report them: the error a
// statement throws, what a cursor yields before it, and that the connection goes on working.

/// An error of the program's own, not a `DatabaseError`.
struct ProgramError: Error, CustomStringConvertible {
    var description: String { "program error" }
}

/// The number of aggregates alive: each group's aggregate must be released, failed or not.
final class AggregateCounter: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var count = 0
    func add(_ n: Int) { lock.withLock { count += n } }
    var value: Int { lock.withLock { count } }
}

let liveAggregates = AggregateCounter()

/// Counts rows, and fails in `step` on a row whose value is the text of a failure kind.
final class FailingStepAggregate: DatabaseAggregate {
    var count = 0
    init() { liveAggregates.add(1) }
    deinit { liveAggregates.add(-1) }

    func step(_ dbValues: [DatabaseValue]) throws {
        switch String.fromDatabaseValue(dbValues[0]) {
        case "message": throw DatabaseError(message: "step failed")
        case "code": throw DatabaseError(resultCode: .SQLITE_CONSTRAINT_CHECK)
        case "both": throw DatabaseError(resultCode: .SQLITE_ABORT, message: "step aborted")
        case "other": throw ProgramError()
        default: count += 1
        }
    }

    func finalize() throws -> (any DatabaseValueConvertible)? { count }
}

/// Counts rows, and fails in `finalize`.
final class FailingFinalizeAggregate: DatabaseAggregate {
    init() { liveAggregates.add(1) }
    deinit { liveAggregates.add(-1) }
    func step(_ dbValues: [DatabaseValue]) throws {}
    func finalize() throws -> (any DatabaseValueConvertible)? { throw DatabaseError(message: "finalize failed") }
}

/// Returns its argument, and fails on 3.
let failOnThree = DatabaseFunction("failOnThree", argumentCount: 1) { values in
    if Int.fromDatabaseValue(values[0]) == 3 { throw DatabaseError(message: "three") }
    return values[0]
}

struct CursorItem: FetchableRecord, Decodable {
    var v: Int
}

/// What a cursor yields until it ends or throws.
func drain<C: Cursor>(_ cursor: C) -> String {
    var items: [String] = []
    do {
        while let item = try cursor.next() { items.append("\(item)") }
        return "\(items) end"
    } catch {
        return "\(items) THROWS \(describe(error))"
    }
}

let functionAndCursorPrograms: [Program] = [
    Program("functions-aggregate-errors") {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db in
            db.add(function: DatabaseFunction("failing", argumentCount: 1, aggregate: FailingStepAggregate.self))
            db.add(function: DatabaseFunction("failingFinal", argumentCount: 1, aggregate: FailingFinalizeAggregate.self))
            try db.execute(sql: "CREATE TABLE t (k TEXT, g INTEGER)")
            for kind in ["message", "code", "both", "other"] {
                step("step throws \(kind)") {
                    try Int.fetchAll(db, sql: "SELECT failing(column1) FROM (VALUES ('a'), ('b'), (?), ('c'))",
                                     arguments: [kind])
                }
                step("grouped, \(kind) in the second group") {
                    try Int.fetchAll(db, sql: """
                        SELECT failing(column1) FROM (VALUES ('a', 1), ('b', 2), (?, 2), ('c', 3)) GROUP BY column2
                        """, arguments: [kind])
                }
                step("live aggregates after \(kind)") { liveAggregates.value }
            }
            step("finalize throws") { try Int.fetchAll(db, sql: "SELECT failingFinal(column1) FROM (VALUES (1), (2))") }
            step("finalize throws, no row") { try Int.fetchAll(db, sql: "SELECT failingFinal(k) FROM t") }
            step("live aggregates after finalize") { liveAggregates.value }
            step("execute throws") { try db.execute(sql: "INSERT INTO t (k) SELECT failing('other')") }
            step("the connection still works") {
                try Int.fetchAll(db, sql: "SELECT failing(column1) FROM (VALUES ('a'), ('b'))")
            }
            step("live aggregates at the end") { liveAggregates.value }
        }
    },
    Program("cursors-step-errors") {
        let dbQueue = try makeQueue()
        dbQueue.inDatabase { db in
            db.add(function: failOnThree)
            let sql = "SELECT failOnThree(column1) AS v FROM (VALUES (1), (2), (3), (4))"
            step("rows") { drain(try Row.fetchCursor(db, sql: sql).map { $0["v"] as Int }) }
            step("database values") { drain(try DatabaseValue.fetchCursor(db, sql: sql)) }
            step("Int (column convertible)") { drain(try Int.fetchCursor(db, sql: sql)) }
            step("Int? (column convertible)") { drain(try Optional<Int>.fetchCursor(db, sql: sql)) }
            step("Level (value convertible)") {
                drain(try Level.fetchCursor(db, sql: "SELECT failOnThree(column1) FROM (VALUES (1), (2), (3))"))
            }
            step("records") { drain(try CursorItem.fetchCursor(db, sql: sql).map(\.v)) }
            step("fetchAll Int") { try Int.fetchAll(db, sql: sql) }
            step("fetchSet Int") { try Int.fetchSet(db, sql: sql).sorted() }
            step("fetchOne Int, failing row first") {
                try Int.fetchOne(db, sql: "SELECT failOnThree(3)")
            }
            step("the connection still works") { try Int.fetchAll(db, sql: "SELECT failOnThree(1)") }
        }
    },
    Program("fetches-optional-values") {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (NULL)")
            for (label, sql) in [("no row", "SELECT v FROM t WHERE 0"), ("null", "SELECT v FROM t"),
                                 ("value", "SELECT 7")] {
                step("Int? fetchOne, \(label)") { try Int?.fetchOne(db, sql: sql) }
                step("String? fetchOne, \(label)") { try String?.fetchOne(db, sql: sql) }
                step("Level? fetchOne, \(label)") { try Level?.fetchOne(db, sql: sql) }
                step("Int? fetchOne statement, \(label)") { try Int?.fetchOne(db.makeStatement(sql: sql)) }
                step("Int fetchOne, \(label)") { try Int.fetchOne(db, sql: sql) }
                step("Int? fetchAll, \(label)") { try Int?.fetchAll(db, sql: sql) }
                step("Int? fetchSet, \(label)") { try Int?.fetchSet(db, sql: sql) }
            }
        }
    },
    Program("cursors-derived-foreach") {
        let dbQueue = try makeQueue()
        dbQueue.inDatabase { db in
            let sql = "SELECT column1 FROM (VALUES (1), (2), (3), (4))"
            func each<C: Cursor>(_ label: String, _ cursor: () throws -> C) {
                step(label) {
                    var items: [String] = []
                    try cursor().forEach { items.append("\($0)") }
                    return items
                }
            }
            each("base") { try Int.fetchCursor(db, sql: sql) }
            each("map") { try Int.fetchCursor(db, sql: sql).map { $0 * 10 } }
            each("filter") { try Int.fetchCursor(db, sql: sql).filter { $0 % 2 == 0 } }
            each("enumerated") { try Int.fetchCursor(db, sql: sql).enumerated().map { "\($0.0):\($0.1)" } }
            each("compactMap") { try Int.fetchCursor(db, sql: sql).compactMap { $0 == 2 ? nil : $0 } }
            each("prefix") { try Int.fetchCursor(db, sql: sql).prefix(2) }
            each("prefix while") { try Int.fetchCursor(db, sql: sql).prefix(while: { $0 < 3 }) }
            each("dropFirst") { try Int.fetchCursor(db, sql: sql).dropFirst(2) }
            each("drop while") { try Int.fetchCursor(db, sql: sql).drop(while: { $0 < 3 }) }
            each("flatMap sequence") { try Int.fetchCursor(db, sql: sql).flatMap { [$0, -$0] } }
            each("flatMap cursor") {
                try Int.fetchCursor(db, sql: sql).flatMap { AnyCursor([$0, $0 + 100]) }
            }
            each("joined") { try Int.fetchCursor(db, sql: sql).map { [$0, $0] }.joined() }
            each("joined cursors") { try Int.fetchCursor(db, sql: sql).map { AnyCursor([$0]) }.joined() }
            each("rows mapped") { try Row.fetchCursor(db, sql: sql).map { $0[0] as Int } }
            each("records filtered") {
                try CursorItem.fetchCursor(db, sql: "SELECT column1 AS v FROM (VALUES (1), (2))").filter { $0.v > 1 }.map(\.v)
            }
            each("AnyCursor of map") { AnyCursor(try Int.fetchCursor(db, sql: sql).map { $0 + 1 }) }
            each("chained") {
                try Int.fetchCursor(db, sql: sql).map { $0 + 1 }.filter { $0 > 2 }.enumerated().map { $0.1 }.prefix(5)
            }
            step("iteration after forEach") {
                let cursor = try Int.fetchCursor(db, sql: sql).map { $0 * 2 }
                var items: [Int] = []
                try cursor.forEach { items.append($0) }
                items.append(try cursor.next() ?? -1)
                return items
            }
            step("forEach throws") {
                var items: [Int] = []
                try Int.fetchCursor(db, sql: sql).map { $0 }.forEach {
                    if $0 == 3 { throw ProgramError() }
                    items.append($0)
                }
                return items
            }
        }
    },
]
