import Foundation
import Testing
@testable import GRDBCipher

/// Creates table `t` with the integers 1 through `count` in column `n`.
private func createNumbers(_ db: Database, count: Int) throws {
    try db.execute(sql: "CREATE TABLE t (n INTEGER)")
    for n in 1...count {
        try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [n])
    }
}

/// Adds `counted(x)`, which returns x and counts its calls.
private func addCountingFunction(_ db: Database) -> LockedValue<Int> {
    let calls = LockedValue(0)
    db.add(function: DatabaseFunction("counted", argumentCount: 1) { values in
        calls.withLock { $0 += 1 }
        return values[0]
    })
    return calls
}

private struct Failure: Error {}

@Suite("Cursor")
struct CursorTests {
    // MARK: - Iteration

    @Test func nextReturnsEachElementThenNil() throws {
        try inMemoryDatabase { db throws in
            let cursor = try Int.fetchCursor(db, sql: "VALUES (1), (2), (3)")
            #expect(try cursor.next() == 1)
            #expect(try cursor.next() == 2)
            #expect(try cursor.next() == 3)
            #expect(try cursor.next() == nil)
            #expect(try cursor.next() == nil)
        }
    }

    @Test func forEachVisitsEveryElement() throws {
        try inMemoryDatabase { db throws in
            var visited: [String] = []
            try String.fetchCursor(db, sql: "VALUES ('a'), ('b'), ('c')").forEach { visited.append($0) }
            #expect(visited == ["a", "b", "c"])
        }
    }

    @Test func forEachStopsAtTheFirstThrownError() throws {
        try inMemoryDatabase { db throws in
            var visited: [Int] = []
            #expect(throws: Failure.self) {
                try Int.fetchCursor(db, sql: "VALUES (1), (2), (3)").forEach {
                    visited.append($0)
                    if $0 == 2 { throw Failure() }
                }
            }
            #expect(visited == [1, 2])
        }
    }

    @Test func mapTransformsElements() throws {
        try inMemoryDatabase { db throws in
            let cursor = try Int.fetchCursor(db, sql: "VALUES (1), (2), (3)").map { $0 * 10 }
            #expect(try Array(cursor) == [10, 20, 30])
        }
    }

    @Test func filterKeepsMatchingElements() throws {
        try inMemoryDatabase { db throws in
            let cursor = try Int.fetchCursor(db, sql: "VALUES (1), (2), (3), (4)").filter { $0 % 2 == 0 }
            #expect(try Array(cursor) == [2, 4])
        }
    }

    @Test func compactMapDropsNils() throws {
        try inMemoryDatabase { db throws in
            let cursor = try String.fetchCursor(db, sql: "VALUES ('1'), ('x'), ('3')").compactMap { Int($0) }
            #expect(try Array(cursor) == [1, 3])
        }
    }

    @Test func prefixStopsAfterMaxLength() throws {
        try inMemoryDatabase { db throws in
            #expect(try Array(Int.fetchCursor(db, sql: "VALUES (1), (2), (3)").prefix(2)) == [1, 2])
            #expect(try Array(Int.fetchCursor(db, sql: "VALUES (1), (2), (3)").prefix(5)) == [1, 2, 3])
            #expect(try Array(Int.fetchCursor(db, sql: "VALUES (1), (2), (3)").prefix(0)) == [])
        }
    }

    @Test func dropFirstSkipsElements() throws {
        try inMemoryDatabase { db throws in
            #expect(try Array(Int.fetchCursor(db, sql: "VALUES (1), (2), (3)").dropFirst()) == [2, 3])
            #expect(try Array(Int.fetchCursor(db, sql: "VALUES (1), (2), (3)").dropFirst(2)) == [3])
            #expect(try Array(Int.fetchCursor(db, sql: "VALUES (1), (2), (3)").dropFirst(5)) == [])
        }
    }

    @Test func containsFindsAnElement() throws {
        try inMemoryDatabase { db throws in
            #expect(try Int.fetchCursor(db, sql: "VALUES (1), (2), (3)").contains(2))
            #expect(try !Int.fetchCursor(db, sql: "VALUES (1), (2), (3)").contains(4))
            #expect(try Int.fetchCursor(db, sql: "VALUES (1), (2), (3)").contains { $0 > 2 })
            #expect(try Int.fetchCursor(db, sql: "VALUES (1), (2), (3)").first { $0 > 1 } == 2)
        }
    }

    @Test func reduceCombinesElements() throws {
        try inMemoryDatabase { db throws in
            #expect(try Int.fetchCursor(db, sql: "VALUES (1), (2), (3)").reduce(0, +) == 6)
            let joined = try String.fetchCursor(db, sql: "VALUES ('a'), ('b')").reduce(into: "") { $0 += $1 }
            #expect(joined == "ab")
        }
    }

    @Test func arrayAndSetCollectTheRemainingElements() throws {
        try inMemoryDatabase { db throws in
            #expect(try Array(Int.fetchCursor(db, sql: "VALUES (3), (1), (3)")) == [3, 1, 3])
            #expect(try Set(Int.fetchCursor(db, sql: "VALUES (3), (1), (3)")) == [1, 3])
            let cursor = try Int.fetchCursor(db, sql: "VALUES (1), (2), (3)")
            _ = try cursor.next()
            #expect(try Array(cursor) == [2, 3])
        }
    }

    @Test func isEmptyTellsWhetherAnElementRemains() throws {
        try inMemoryDatabase { db throws in
            #expect(try Int.fetchCursor(db, sql: "SELECT 1 WHERE 0").isEmpty)
            #expect(try !Int.fetchCursor(db, sql: "SELECT 1").isEmpty)
        }
    }

    @Test func anyCursorWrapsSequencesClosuresAndCursors() throws {
        #expect(try Array(AnyCursor([1, 2, 3])) == [1, 2, 3])
        var count = 0
        let closureCursor = AnyCursor<Int> {
            count += 1
            return count <= 2 ? count : nil
        }
        #expect(try Array(closureCursor) == [1, 2])
        try inMemoryDatabase { db throws in
            let wrapped = AnyCursor(try Int.fetchCursor(db, sql: "VALUES (7), (8)"))
            #expect(try Array(wrapped) == [7, 8])
        }
    }

    // MARK: - Laziness

    @Test func prefixOnlyEvaluatesTheRowsItReturns() throws {
        try inMemoryDatabase { db throws in
            try createNumbers(db, count: 100)
            let calls = addCountingFunction(db)
            let values = try Array(Int.fetchCursor(db, sql: "SELECT counted(n) FROM t").prefix(2))
            #expect(values == [1, 2])
            let count = calls.withLock { $0 }
            #expect(count >= 2 && count <= 3)
        }
    }

    @Test func creatingACursorEvaluatesNothing() throws {
        try inMemoryDatabase { db throws in
            try createNumbers(db, count: 10)
            let calls = addCountingFunction(db)
            let cursor = try Int.fetchCursor(db, sql: "SELECT counted(n) FROM t")
                .map { $0 * 2 }
                .filter { $0 > 0 }
            #expect(calls.withLock { $0 } == 0)
            #expect(try cursor.next() == 2)
            #expect(calls.withLock { $0 } == 1)
        }
    }

    @Test func containsStopsAtTheFirstMatch() throws {
        try inMemoryDatabase { db throws in
            try createNumbers(db, count: 100)
            let calls = addCountingFunction(db)
            #expect(try Int.fetchCursor(db, sql: "SELECT counted(n) FROM t").contains(3))
            let count = calls.withLock { $0 }
            #expect(count >= 3 && count <= 4)
        }
    }

    @Test func mapTransformIsCalledLazily() throws {
        try inMemoryDatabase { db throws in
            var transformed: [Int] = []
            let cursor = try Int.fetchCursor(db, sql: "VALUES (1), (2), (3)").map {
                transformed.append($0)
                return $0
            }
            #expect(transformed.isEmpty)
            _ = try cursor.next()
            #expect(transformed == [1])
        }
    }

    // MARK: - Errors and statement life

    @Test func databaseErrorDuringIterationIsThrownByNext() throws {
        try inMemoryDatabase { db throws in
            try createNumbers(db, count: 5)
            db.add(function: DatabaseFunction("failOnThree", argumentCount: 1) { values in
                if values[0] == 3.databaseValue {
                    throw DatabaseError(message: "three")
                }
                return values[0]
            })
            let cursor = try Int.fetchCursor(db, sql: "SELECT failOnThree(n) FROM t")
            #expect(try cursor.next() == 1)
            #expect(try cursor.next() == 2)
            let error = #expect(throws: DatabaseError.self) { try cursor.next() }
            #expect(error?.message == "three")
            // As in GRDB: a failed step does not end the cursor. The next
            // step runs the statement again (SQLite resets it after an
            // error): a function that always fails fails again, this one
            // starts over.
            #expect(try cursor.next() == 1)
        }
    }

    @Test func decodingErrorDuringIterationIsThrownByNext() throws {
        try inMemoryDatabase { db throws in
            // 300 does not fit in Int8 (text would convert, as SQLite converts it).
            let cursor = try Int8.fetchCursor(db, sql: "VALUES (1), (300), (3)")
            #expect(try cursor.next() == 1)
            #expect(throws: RowDecodingError.self) { try cursor.next() }
        }
    }

    @Test func releasedCursorResetsItsStatement() throws {
        try inMemoryDatabase { db throws in
            try createNumbers(db, count: 3)
            let statement = try db.makeStatement(sql: "SELECT n FROM t")
            do {
                let cursor = try Int.fetchCursor(statement)
                #expect(try cursor.next() == 1)
            }
            // A statement still stepping would lock the table.
            try db.execute(sql: "DROP TABLE t")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name = 't'") == 0)
        }
    }

    @Test func aNewCursorOnTheSameStatementStartsOver() throws {
        try inMemoryDatabase { db throws in
            let statement = try db.makeStatement(sql: "VALUES (1), (2), (3)")
            let first = try Int.fetchCursor(statement)
            #expect(try first.next() == 1)
            #expect(try Int.fetchAll(statement) == [1, 2, 3])
        }
    }

    // MARK: - Fetch methods

    @Test func rowFetchMethods() throws {
        try inMemoryDatabase { db throws in
            let sql = "VALUES (1, 'a'), (1, 'a'), (2, 'b')"
            let cursor = try Row.fetchCursor(db, sql: sql)
            var firstColumn: [Int] = []
            while let row = try cursor.next() { firstColumn.append(row[0]) }
            #expect(firstColumn == [1, 1, 2])
            #expect(try Row.fetchAll(db, sql: sql).count == 3)
            #expect(try Row.fetchSet(db, sql: sql).count == 2)
            #expect(try Row.fetchOne(db, sql: sql)?.columnNames == ["column1", "column2"])
            #expect(try Row.fetchOne(db, sql: "SELECT 1 WHERE 0") == nil)
        }
    }

    @Test func stringFetchMethods() throws {
        try inMemoryDatabase { db throws in
            let sql = "VALUES ('b'), ('a'), ('b')"
            #expect(try Array(String.fetchCursor(db, sql: sql)) == ["b", "a", "b"])
            #expect(try String.fetchAll(db, sql: sql) == ["b", "a", "b"])
            #expect(try String.fetchSet(db, sql: sql) == ["a", "b"])
            #expect(try String.fetchOne(db, sql: sql) == "b")
            #expect(try String.fetchOne(db, sql: "SELECT 'x' WHERE 0") == nil)
        }
    }

    @Test func intFetchMethods() throws {
        try inMemoryDatabase { db throws in
            let sql = "VALUES (2), (1), (2)"
            #expect(try Array(Int.fetchCursor(db, sql: sql)) == [2, 1, 2])
            #expect(try Int.fetchAll(db, sql: sql) == [2, 1, 2])
            #expect(try Int.fetchSet(db, sql: sql) == [1, 2])
            #expect(try Int.fetchOne(db, sql: sql) == 2)
            #expect(try Int.fetchOne(db, sql: "SELECT 1 WHERE 0") == nil)
        }
    }

    @Test func optionalFetchMethods() throws {
        try inMemoryDatabase { db throws in
            let sql = "VALUES (NULL), (1), (NULL)"
            #expect(try Array(Int?.fetchCursor(db, sql: sql)) == [nil, 1, nil])
            #expect(try Int?.fetchAll(db, sql: sql) == [nil, 1, nil])
            #expect(try Int?.fetchSet(db, sql: sql) == [nil, 1])
            // fetchOne flattens: a NULL first value and no row both give nil.
            #expect(try Int.fetchOne(db, sql: sql) == nil)
            #expect(try Int?.fetchOne(db, sql: "SELECT 5") == .some(.some(5)))
            #expect(try String?.fetchAll(db, sql: "VALUES ('a'), (NULL)") == ["a", nil])
        }
    }

    @Test func databaseValueFetchMethods() throws {
        try inMemoryDatabase { db throws in
            let sql = "VALUES (1), ('a'), (NULL), (1.0)"
            let expected: [DatabaseValue] = [1.databaseValue, "a".databaseValue, .null, 1.0.databaseValue]
            #expect(try Array(DatabaseValue.fetchCursor(db, sql: sql)) == expected)
            #expect(try DatabaseValue.fetchAll(db, sql: sql) == expected)
            // 1 and 1.0 compare equal, as in SQLite.
            #expect(try DatabaseValue.fetchSet(db, sql: sql).count == 3)
            #expect(try DatabaseValue.fetchOne(db, sql: sql) == 1.databaseValue)
            // A NULL first value reads as `.null` (GRDB 7.10 does, checked
            // with `make compat`); no row reads as nil.
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT NULL") == .some(.null))
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT 1 WHERE 0") == nil)
        }
    }

    @Test func fetchFromAPreparedStatementWithArguments() throws {
        try inMemoryDatabase { db throws in
            try createNumbers(db, count: 5)
            let statement = try db.makeStatement(sql: "SELECT n FROM t WHERE n > ? ORDER BY n")
            #expect(try Int.fetchAll(statement, arguments: [3]) == [4, 5])
            #expect(try Int.fetchOne(statement, arguments: [1]) == 2)
            #expect(try Int.fetchSet(statement, arguments: [2]) == [3, 4, 5])
            // nil arguments keep the bound ones.
            #expect(try Int.fetchAll(statement) == [3, 4, 5])
            #expect(try Row.fetchAll(statement, arguments: [4]).map { $0["n"] as Int } == [5])
            #expect(try Array(Int.fetchCursor(statement, arguments: [0])) == [1, 2, 3, 4, 5])
        }
    }
}
