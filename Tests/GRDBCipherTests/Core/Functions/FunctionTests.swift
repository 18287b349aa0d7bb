import Foundation
import Testing
@testable import GRDBCipher

private let succ = DatabaseFunction("succ", argumentCount: 1, pure: true) { values in
    Int.fromDatabaseValue(values[0]).map { $0 + 1 }
}

private struct Boom: Error, CustomStringConvertible {
    var description: String { "boom happened" }
}

/// Sums integer arguments; NULL and other values count as zero.
private struct IntegerSum: DatabaseAggregate {
    var sum = 0
    mutating func step(_ dbValues: [DatabaseValue]) throws {
        sum += Int.fromDatabaseValue(dbValues[0]) ?? 0
    }
    func finalize() throws -> (any DatabaseValueConvertible)? { sum }
}

/// Fails in step when it meets a negative number.
private struct RejectNegative: DatabaseAggregate {
    var count = 0
    mutating func step(_ dbValues: [DatabaseValue]) throws {
        if let n = Int.fromDatabaseValue(dbValues[0]), n < 0 { throw Boom() }
        count += 1
    }
    func finalize() throws -> (any DatabaseValueConvertible)? { count }
}

/// Fails in finalize.
private struct FailingFinalize: DatabaseAggregate {
    mutating func step(_ dbValues: [DatabaseValue]) throws {}
    func finalize() throws -> (any DatabaseValueConvertible)? {
        throw DatabaseError(message: "finalize failed")
    }
}

/// Returns NULL whatever the rows.
private struct NullAggregate: DatabaseAggregate {
    mutating func step(_ dbValues: [DatabaseValue]) throws {}
    func finalize() throws -> (any DatabaseValueConvertible)? { nil }
}

/// Concatenates all arguments of all rows.
private struct Concat: DatabaseAggregate {
    var text = ""
    mutating func step(_ dbValues: [DatabaseValue]) throws {
        text += dbValues.compactMap { String.fromDatabaseValue($0) }.joined()
    }
    func finalize() throws -> (any DatabaseValueConvertible)? { text }
}

@Suite("SQL functions")
struct FunctionTests {
    // MARK: - Scalar functions

    @Test func fixedArityFunctionComputesItsResult() throws {
        try inMemoryDatabase { db throws in
            db.add(function: succ)
            #expect(try Int.fetchOne(db, sql: "SELECT succ(1)") == 2)
            #expect(try Int.fetchOne(db, sql: "SELECT succ(?)", arguments: [41]) == 42)
            #expect(try Int.fetchOne(db, sql: "SELECT succ(NULL)") == nil)
            #expect(succ.argumentCount == 1)
            #expect(succ.isPure)
            #expect(succ.name == "succ")
        }
    }

    @Test func fixedArityFunctionRejectsAnotherArgumentCount() throws {
        try inMemoryDatabase { db throws in
            db.add(function: succ)
            let error = #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT succ(1, 2)") }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message?.contains("succ") == true)
        }
    }

    @Test func variadicFunctionReceivesEveryArgument() throws {
        try inMemoryDatabase { db throws in
            db.add(function: DatabaseFunction("describeArgs") { values in
                values.map(\.description).joined(separator: ",")
            })
            #expect(try String.fetchOne(db, sql: "SELECT describeArgs()") == "")
            #expect(try String.fetchOne(db, sql: "SELECT describeArgs(1)") == "1")
            #expect(try String.fetchOne(db, sql: "SELECT describeArgs(1, 2.5, 'a', x'0F', NULL)")
                == #"1,2.5,"a",Data(1 bytes),NULL"#)
        }
    }

    @Test func functionArgumentsKeepTheirStorageClass() throws {
        try inMemoryDatabase { db throws in
            let received = LockedValue<[DatabaseValue]>([])
            db.add(function: DatabaseFunction("record") { values in
                received.withLock { $0 = values }
                return nil
            })
            try db.execute(sql: "SELECT record(?, ?, ?, ?, ?, ?)",
                           arguments: [Int64.max, 0.5, "é", Data([1, 2]), Data(), nil])
            #expect(received.withLock { $0 }.map(\.storage) == [
                .int64(Int64.max), .double(0.5), .string("é"), .blob(Data([1, 2])), .blob(Data()), .null,
            ])
        }
    }

    @Test func functionResultsKeepTheirStorageClass() throws {
        try inMemoryDatabase { db throws in
            db.add(function: DatabaseFunction("valueOfKind", argumentCount: 1) { values in
                switch String.fromDatabaseValue(values[0]) {
                case "int": return 7
                case "real": return 1.5
                case "text": return "it's"
                case "blob": return Data([0xFF])
                case "empty": return Data()
                case "bool": return true
                default: return nil
                }
            })
            let sql = "SELECT typeof(valueOfKind(?)), valueOfKind(?)"
            func result(_ kind: String) throws -> [DatabaseValue] {
                try #require(try Row.fetchAll(db, sql: sql, arguments: [kind, kind]).first).databaseValues
            }
            #expect(try result("int") == ["integer".databaseValue, 7.databaseValue])
            #expect(try result("real") == ["real".databaseValue, 1.5.databaseValue])
            #expect(try result("text") == ["text".databaseValue, "it's".databaseValue])
            #expect(try result("blob") == ["blob".databaseValue, Data([0xFF]).databaseValue])
            #expect(try result("empty") == ["blob".databaseValue, Data().databaseValue])
            #expect(try result("bool") == ["integer".databaseValue, 1.databaseValue])
            #expect(try result("none") == ["null".databaseValue, .null])
        }
    }

    @Test func thrownErrorMessageReachesDatabaseError() throws {
        try inMemoryDatabase { db throws in
            db.add(function: DatabaseFunction("explode", argumentCount: 0) { _ in throw Boom() })
            let error = #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT explode()") }
            #expect(error?.message == "boom happened")
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.sql == "SELECT explode()")
        }
    }

    @Test func thrownDatabaseErrorKeepsItsMessageAndCode() throws {
        try inMemoryDatabase { db throws in
            db.add(function: DatabaseFunction("refuse", argumentCount: 0) { _ in
                throw DatabaseError(resultCode: .SQLITE_CONSTRAINT_FUNCTION, message: "refused by function")
            })
            let error = #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT refuse()") }
            #expect(error?.message == "refused by function")
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FUNCTION)
        }
    }

    @Test func thrownErrorAbortsTheWritingStatement() throws {
        try inMemoryDatabase { db throws in
            db.add(function: DatabaseFunction("nonNegative", argumentCount: 1) { values in
                guard let n = Int.fromDatabaseValue(values[0]), n >= 0 else { throw Boom() }
                return n
            })
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t SELECT nonNegative(column1) FROM (VALUES (1), (-1))")
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 0)
        }
    }

    @Test func pureFunctionCanBeUsedInAnIndexButAnImpureOneCannot() throws {
        try inMemoryDatabase { db throws in
            db.add(function: succ)
            let impure = DatabaseFunction("impureSucc", argumentCount: 1) { values in
                Int.fromDatabaseValue(values[0]).map { $0 + 1 }
            }
            #expect(!impure.isPure)
            db.add(function: impure)
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            try db.execute(sql: "CREATE INDEX t_succ ON t (succ(n))")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "CREATE INDEX t_impure ON t (impureSucc(n))")
            }
        }
    }

    @Test func addingAFunctionAgainReplacesIt() throws {
        try inMemoryDatabase { db throws in
            db.add(function: DatabaseFunction("answer", argumentCount: 0) { _ in 1 })
            db.add(function: DatabaseFunction("answer", argumentCount: 0) { _ in 42 })
            #expect(try Int.fetchOne(db, sql: "SELECT answer()") == 42)
        }
    }

    @Test func removedFunctionIsNoLongerAvailable() throws {
        try inMemoryDatabase { db throws in
            db.add(function: succ)
            #expect(try Int.fetchOne(db, sql: "SELECT succ(1)") == 2)
            db.remove(function: succ)
            let error = #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT succ(1)") }
            #expect(error?.message?.contains("no such function") == true)
        }
    }

    @Test func functionIsPrivateToItsConnection() throws {
        try inMemoryDatabase { db throws in
            db.add(function: succ)
        }
        try inMemoryDatabase { db throws in
            #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT succ(1)") }
        }
    }

    @Test func functionAddedByPrepareDatabaseIsAvailable() throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(function: succ) }
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.inDatabase { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT succ(2)") == 3)
        }
    }

    // MARK: - Aggregates

    @Test func aggregateComputesOneResultPerGroup() throws {
        try inMemoryDatabase { db throws in
            db.add(function: DatabaseFunction("intSum", argumentCount: 1, aggregate: IntegerSum.self))
            try db.execute(sql: """
                CREATE TABLE t (g TEXT, n INTEGER);
                INSERT INTO t VALUES ('a', 1), ('b', 10), ('a', 2), ('c', NULL), ('b', 20);
                """)
            let rows = try Row.fetchAll(db, sql: "SELECT g, intSum(n) AS total FROM t GROUP BY g ORDER BY g")
            #expect(rows.map { $0["g"] as String } == ["a", "b", "c"])
            #expect(rows.map { $0["total"] as Int } == [3, 30, 0])
        }
    }

    @Test func aggregateOverZeroRowsFinalizesAFreshAggregate() throws {
        try inMemoryDatabase { db throws in
            db.add(function: DatabaseFunction("intSum", argumentCount: 1, aggregate: IntegerSum.self))
            try db.execute(sql: "CREATE TABLE t (g TEXT, n INTEGER)")
            #expect(try Int?.fetchAll(db, sql: "SELECT intSum(n) FROM t") == [0])
            try db.execute(sql: "INSERT INTO t VALUES ('a', 5)")
            #expect(try Int?.fetchAll(db, sql: "SELECT intSum(n) FROM t WHERE 0") == [0])
            // No group at all: no row.
            #expect(try Int.fetchAll(db, sql: "SELECT intSum(n) FROM t WHERE 0 GROUP BY g") == [])
        }
    }

    @Test func aggregatesInTheSameQueryKeepSeparateStates() throws {
        try inMemoryDatabase { db throws in
            db.add(function: DatabaseFunction("intSum", argumentCount: 1, aggregate: IntegerSum.self))
            let row = try #require(try Row.fetchAll(
                db, sql: "SELECT intSum(column1), intSum(column1 * 100) FROM (VALUES (1), (2), (3))").first)
            #expect(row.databaseValues == [6.databaseValue, 600.databaseValue])
            // And the next query starts from scratch.
            #expect(try Int.fetchOne(db, sql: "SELECT intSum(column1) FROM (VALUES (4))") == 4)
        }
    }

    @Test func variadicAggregateReceivesEveryArgument() throws {
        try inMemoryDatabase { db throws in
            db.add(function: DatabaseFunction("concatAll", aggregate: Concat.self))
            let text = try String.fetchOne(db, sql: """
                SELECT concatAll(a, b) FROM (SELECT 'x' AS a, 'y' AS b UNION ALL SELECT 'z', 'w')
                """)
            #expect(text == "xyzw")
        }
    }

    @Test func aggregateReturningNilGivesNull() throws {
        try inMemoryDatabase { db throws in
            db.add(function: DatabaseFunction("alwaysNull", argumentCount: 1, aggregate: NullAggregate.self))
            #expect(try String.fetchOne(db, sql: "SELECT typeof(alwaysNull(column1)) FROM (VALUES (1))")
                == "null")
        }
    }

    @Test func aggregateStepErrorFailsTheStatement() throws {
        try inMemoryDatabase { db throws in
            db.add(function: DatabaseFunction("countPositive", argumentCount: 1, aggregate: RejectNegative.self))
            #expect(try Int.fetchOne(db, sql: "SELECT countPositive(column1) FROM (VALUES (1), (2))") == 2)
            let error = #expect(throws: DatabaseError.self) {
                try Int.fetchOne(db, sql: "SELECT countPositive(column1) FROM (VALUES (1), (-2))")
            }
            #expect(error?.message == "boom happened")
        }
    }

    @Test func aggregateFinalizeErrorFailsTheStatement() throws {
        try inMemoryDatabase { db throws in
            db.add(function: DatabaseFunction("failing", argumentCount: 1, aggregate: FailingFinalize.self))
            let error = #expect(throws: DatabaseError.self) {
                try Int.fetchOne(db, sql: "SELECT failing(column1) FROM (VALUES (1))")
            }
            #expect(error?.message == "finalize failed")
        }
    }
}
