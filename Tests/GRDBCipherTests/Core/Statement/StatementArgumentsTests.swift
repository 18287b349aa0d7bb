import Foundation
import Testing
@testable import GRDBCipher

private func rowCount(_ db: Database, _ table: String = "t") throws -> Int? {
    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)")
}

@Suite("Statement arguments")
struct StatementArgumentsTests {
    // MARK: - Binding

    @Test func positionalArgumentsBindInOrder() throws {
        try inMemoryDatabase { db throws in
            let values = try DatabaseValue.fetchAll(db, sql: "VALUES (?), (?), (?)", arguments: [1, "two", nil])
            #expect(values == [1.databaseValue, "two".databaseValue, .null])
        }
    }

    @Test func numberedPositionalParametersBindByNumber() throws {
        try inMemoryDatabase { db throws in
            let row = try #require(try Row.fetchAll(db, sql: "SELECT ?2 AS a, ?1 AS b", arguments: ["x", "y"]).first)
            #expect(row["a"] as String == "y")
            #expect(row["b"] as String == "x")
        }
    }

    @Test(arguments: [":", "$", "@"])
    func namedArgumentsBindByNameWithEveryPrefix(prefix: String) throws {
        try inMemoryDatabase { db throws in
            let sql = "SELECT \(prefix)first || '-' || \(prefix)second"
            let text = try String.fetchOne(db, sql: sql, arguments: ["second": "b", "first": "a"])
            #expect(text == "a-b")
        }
    }

    @Test func namedArgumentUsedTwiceBindsTheSameValue() throws {
        try inMemoryDatabase { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT :n * 10 + :n", arguments: ["n": 4]) == 44)
        }
    }

    @Test func namedParametersTakePositionalValuesWhenNoNameMatches() throws {
        try inMemoryDatabase { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT :a || :b", arguments: ["x", "y"]) == "xy")
        }
    }

    @Test func nilNamedValueBindsNull() throws {
        try inMemoryDatabase { db throws in
            #expect(try Bool.fetchOne(db, sql: "SELECT :a IS NULL", arguments: ["a": nil]) == true)
        }
    }

    // MARK: - Building arguments

    @Test func arrayLiteralMakesPositionalValues() {
        let arguments: StatementArguments = [1, "a", nil, 2.5]
        #expect(arguments.values == [1.databaseValue, "a".databaseValue, .null, 2.5.databaseValue])
        #expect(arguments.namedValues.isEmpty)
        #expect(!arguments.isEmpty)
    }

    @Test func dictionaryLiteralMakesNamedValues() {
        let arguments: StatementArguments = ["name": "Arthur", "score": 1000, "none": nil]
        #expect(arguments.values.isEmpty)
        #expect(arguments.namedValues == ["name": "Arthur".databaseValue, "score": 1000.databaseValue, "none": .null])
    }

    @Test func sequenceInitializersMakePositionalOrNamedValues() {
        #expect(StatementArguments([1, 2, 3]).values == [1.databaseValue, 2.databaseValue, 3.databaseValue])
        let dictionary: [String: (any DatabaseValueConvertible)?] = ["a": 1]
        #expect(StatementArguments(dictionary).namedValues == ["a": 1.databaseValue])
        #expect(StatementArguments().isEmpty)
    }

    @Test func plusConcatenatesPositionalValues() {
        let arguments: StatementArguments = [1, 2] + [3]
        #expect(arguments.values == [1.databaseValue, 2.databaseValue, 3.databaseValue])
    }

    @Test func plusMergesNamedValues() {
        let lhs: StatementArguments = ["a": 1]
        let rhs: StatementArguments = ["b": 2]
        let arguments = lhs + rhs
        #expect(arguments.namedValues == ["a": 1.databaseValue, "b": 2.databaseValue])
        let mixed = StatementArguments([1]) + rhs
        #expect(mixed.values == [1.databaseValue])
        #expect(mixed.namedValues == ["b": 2.databaseValue])
    }

    @Test func ampersandPlusLetsTheRightSideWin() {
        let lhs: StatementArguments = ["a": 1, "b": 2]
        let rhs: StatementArguments = ["a": 3]
        let arguments = lhs &+ rhs
        #expect(arguments.namedValues == ["a": 3.databaseValue, "b": 2.databaseValue])
        let positional = StatementArguments([1]) &+ StatementArguments([2])
        #expect(positional.values == [1.databaseValue, 2.databaseValue])
    }

    @Test func plusEqualsAppends() {
        var arguments: StatementArguments = [1]
        arguments += [2]
        arguments += ["a": 3]
        #expect(arguments.values == [1.databaseValue, 2.databaseValue])
        #expect(arguments.namedValues == ["a": 3.databaseValue])
    }

    @Test func appendContentsOfReturnsTheReplacedValues() {
        var arguments: StatementArguments = ["a": 1, "b": 2]
        let replaced = arguments.append(contentsOf: ["a": 10, "c": 30])
        #expect(replaced == ["a": 1.databaseValue])
        #expect(arguments.namedValues == ["a": 10.databaseValue, "b": 2.databaseValue, "c": 30.databaseValue])
        let none = arguments.append(contentsOf: [4])
        #expect(none.isEmpty)
        #expect(arguments.values == [4.databaseValue])
    }

    @Test func plusWithANameOnBothSidesTraps() async {
        await #expect(processExitsWith: .failure) {
            let lhs: StatementArguments = ["a": 1]
            let rhs: StatementArguments = ["a": 2]
            _ = lhs + rhs
        }
    }

    @Test func plusEqualsWithAnAlreadyDefinedNameTraps() async {
        await #expect(processExitsWith: .failure) {
            var arguments: StatementArguments = ["a": 1]
            arguments += ["a": 2]
        }
    }

    @Test func descriptionListsSortedNamedThenPositionalValues() {
        var arguments: StatementArguments = [1, "it's", nil]
        arguments += ["z": 2, "a": Data([0xAB])]
        #expect(arguments.description == #"["a": Data(1 bytes), "z": 2, 1, "it\'s", NULL]"#)
    }

    // MARK: - Validation before execution

    @Test func tooFewArgumentsThrowMisuseBeforeExecuting() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [1])
            }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(try rowCount(db) == 0)
        }
    }

    @Test func tooManyArgumentsThrowMisuseOnceTheStatementsRan() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [1, 2, 3])
            }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            // As in GRDB, `execute(sql:)` runs the statements before it
            // finds values left over; a transaction would roll them back.
            #expect(try rowCount(db) == 1)
            // A prepared statement checks its arguments before it runs.
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?)")
            #expect(throws: DatabaseError.self) { try statement.execute(arguments: [1, 2, 3]) }
            #expect(try rowCount(db) == 1)
        }
    }

    @Test func missingNamedArgumentThrowsMisuseBeforeExecuting() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t VALUES (:a, :b)", arguments: ["a": 1])
            }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message?.contains("b") == true)
            #expect(try rowCount(db) == 0)
        }
    }

    @Test func preparedStatementValidatesArgumentCountBeforeExecuting() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?)")
            let tooFew = #expect(throws: DatabaseError.self) { try statement.execute(arguments: [1]) }
            #expect(tooFew?.resultCode == .SQLITE_MISUSE)
            let tooMany = #expect(throws: DatabaseError.self) { try statement.execute(arguments: [1, 2, 3]) }
            #expect(tooMany?.resultCode == .SQLITE_MISUSE)
            let missingName = #expect(throws: DatabaseError.self) { try statement.execute(arguments: ["x": 1]) }
            #expect(missingName?.resultCode == .SQLITE_MISUSE)
            #expect(try rowCount(db) == 0)
        }
    }

    @Test func validateArgumentsChecksWithoutBinding() throws {
        try inMemoryDatabase { db throws in
            let statement = try db.makeStatement(sql: "SELECT ?, :name")
            try statement.validateArguments(StatementArguments([1]) + ["name": "x"])
            try statement.validateArguments([1, 2])
            #expect(throws: DatabaseError.self) { try statement.validateArguments([1]) }
            #expect(throws: DatabaseError.self) { try statement.validateArguments([1, 2, 3]) }
            #expect(statement.arguments.isEmpty)
        }
    }

    @Test func fetchWithWrongArgumentCountThrowsMisuse() throws {
        try inMemoryDatabase { db throws in
            let tooMany = #expect(throws: DatabaseError.self) {
                try Int.fetchAll(db, sql: "SELECT ?", arguments: [1, 2])
            }
            #expect(tooMany?.resultCode == .SQLITE_MISUSE)
            let tooFew = #expect(throws: DatabaseError.self) {
                try Row.fetchCursor(db, sql: "SELECT ?, ?", arguments: [1])
            }
            #expect(tooFew?.resultCode == .SQLITE_MISUSE)
        }
    }

    @Test func statementRemembersItsArguments() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?)")
            try statement.execute(arguments: [42])
            #expect(statement.arguments == [42])
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t") == [42])
        }
    }

    // MARK: - Several statements

    @Test func severalStatementsSharePositionalArgumentsInOrder() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE t (a, b);
                INSERT INTO t VALUES (?, ?);
                INSERT INTO t VALUES (?, 'fixed');
                INSERT INTO t VALUES (?, ?);
                """, arguments: [1, "one", 2, 3, "three"])
            let rows = try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY a")
            #expect(rows.map { $0["a"] as Int } == [1, 2, 3])
            #expect(rows.map { $0["b"] as String } == ["one", "fixed", "three"])
        }
    }

    @Test func severalStatementsShareNamedArguments() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE t (a, b);
                INSERT INTO t VALUES (:x, :y);
                INSERT INTO t VALUES (:y, :x);
                """, arguments: ["x": 1, "y": 2])
            #expect(try Int.fetchAll(db, sql: "SELECT a * 10 + b FROM t ORDER BY rowid") == [12, 21])
        }
    }

    @Test func severalStatementsWithTooFewArgumentsThrowMisuse() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)", arguments: [1])
            }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE a IS NULL") == 0)
        }
    }

    @Test func severalStatementsWithTooManyArgumentsThrowMisuse() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)", arguments: [1, 2, 3])
            }
            #expect(error?.resultCode == .SQLITE_MISUSE)
        }
    }

    // MARK: - SQL interpolation

    @Test func interpolatedValuesBecomeArguments() {
        let name = "O'Brien"
        let score = 1000
        let query: SQL = "INSERT INTO player (name, score) VALUES (\(name), \(score))"
        #expect(query.sql == "INSERT INTO player (name, score) VALUES (?, ?)")
        #expect(query.arguments == [name, score])
    }

    @Test func interpolatedInjectionAttemptIsStoredVerbatim() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE x (name TEXT)")
            let name = "'); DROP TABLE x; --"
            try db.execute(literal: "INSERT INTO x (name) VALUES (\(name))")
            #expect(try String.fetchAll(db, sql: "SELECT name FROM x") == [name])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name = 'x'") == 1)
        }
    }

    @Test func interpolatedNilBindsNull() throws {
        try inMemoryDatabase { db throws in
            let none: Int? = nil
            let statement = try db.makeStatement(literal: "SELECT \(none) IS NULL")
            #expect(try Bool.fetchOne(statement) == true)
        }
    }

    @Test func interpolatedColumnIsAQuotedIdentifier() throws {
        let column = Column("na\"me")
        let query: SQL = "SELECT \(column) FROM t"
        #expect(query.sql == "SELECT \"na\"\"me\" FROM t")
        #expect(query.arguments.isEmpty)
        try inMemoryDatabase { db throws in
            // "order" is a keyword: it only works quoted.
            try db.execute(sql: "CREATE TABLE t (\"order\" INTEGER, \"na\"\"me\" TEXT)")
            let order = Column("order")
            let value = "a"
            try db.execute(literal: "INSERT INTO t (\(order), \(column)) VALUES (\(1), \(value))")
            let statement = try db.makeStatement(literal: "SELECT \(column) FROM t WHERE \(order) = \(1)")
            #expect(try String.fetchAll(statement) == ["a"])
        }
    }

    @Test func quotedDatabaseIdentifierDoublesQuotes() {
        #expect("name".quotedDatabaseIdentifier == "\"name\"")
        #expect("a\"b".quotedDatabaseIdentifier == "\"a\"\"b\"")
    }

    @Test func interpolatedSequenceMakesAnInList() throws {
        let ids = [1, 3, 5]
        let query: SQL = "SELECT id FROM t WHERE id IN \(ids)"
        #expect(query.sql == "SELECT id FROM t WHERE id IN (?,?,?)")
        #expect(query.arguments == [1, 3, 5])
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)")
            for id in 1...6 {
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [id])
            }
            let statement = try db.makeStatement(literal: query)
            #expect(try Int.fetchAll(statement) == [1, 3, 5])
        }
    }

    @Test func interpolatedEmptySequenceMatchesNothing() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            let ids: [Int] = []
            let statement = try db.makeStatement(literal: "SELECT id FROM t WHERE id IN \(ids)")
            #expect(try Int.fetchAll(statement) == [])
        }
    }

    @Test func nestedSQLKeepsArgumentsInOrder() throws {
        let minimum = 10
        let name = "Arthur"
        let condition: SQL = "score > \(minimum)"
        let query: SQL = "SELECT * FROM player WHERE \(condition) AND name = \(name)"
        #expect(query.sql == "SELECT * FROM player WHERE score > ? AND name = ?")
        #expect(query.arguments == [10, "Arthur"])
        let raw: SQL = "SELECT \(sql: "?, ?", arguments: [1, 2]), \(3)"
        #expect(raw.sql == "SELECT ?, ?, ?")
        #expect(raw.arguments == [1, 2, 3])
    }

    @Test func sqlConcatenationAppendsTextAndArguments() throws {
        var query = SQL(sql: "SELECT ?", arguments: [1]) + ", \(2)"
        query.append(sql: ", ?", arguments: [3])
        query.append(literal: ", \(4)")
        #expect(query.sql == "SELECT ?, ?, ?, ?")
        #expect(query.arguments == [1, 2, 3, 4])
        try inMemoryDatabase { db throws in
            let row = try #require(try Row.fetchAll(db.makeStatement(literal: query)).first)
            #expect(row.databaseValues == [1, 2, 3, 4].map(\.databaseValue))
        }
    }
}

@Suite struct ArrayLiteralConversionTests {
    @Test func everyKindOfLiteralElementConvertsToItsValue() throws {
        let date = Date(timeIntervalSince1970: 1_000_000)
        let optionalInt: Int? = nil
        let optionalText: String? = "maybe"
        let arguments: StatementArguments = [
            nil, 1, Int64.max, -3.5, "text", Data([0, 1, 2]), true, date, optionalInt, optionalText,
            "a string long enough to live out of line in its container", 0, false, 0.0, "",
        ]
        #expect(arguments.values == [
            .null, DatabaseValue(storage: .int64(1)), DatabaseValue(storage: .int64(.max)),
            DatabaseValue(storage: .double(-3.5)), DatabaseValue(storage: .string("text")),
            DatabaseValue(storage: .blob(Data([0, 1, 2]))), DatabaseValue(storage: .int64(1)), date.databaseValue,
            .null, DatabaseValue(storage: .string("maybe")),
            DatabaseValue(storage: .string("a string long enough to live out of line in its container")),
            DatabaseValue(storage: .int64(0)), DatabaseValue(storage: .int64(0)), DatabaseValue(storage: .double(0)),
            DatabaseValue(storage: .string("")),
        ])
        let empty: StatementArguments = []
        #expect(empty.values.isEmpty)
        let onlyNil: StatementArguments = [nil, nil]
        #expect(onlyNil.values == [.null, .null])
    }
}
