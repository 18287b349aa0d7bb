import CSQLCipher
import Foundation
import Testing
@testable import GRDBCipher

private struct NotConvertible {}

@Suite("StatementArguments API")
struct ArgumentsAPITests {
    // MARK: - From [Any]

    @Test func argumentsFromAnyArrayConvertEveryElement() throws {
        let values: [Any] = ["Arthur", 1000, NSNull(), Data([1])]
        let arguments = try #require(StatementArguments(values))
        #expect(arguments.values == ["Arthur".databaseValue, 1000.databaseValue, .null, Data([1]).databaseValue])
        #expect(arguments.namedValues.isEmpty)
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b, c, d)")
            try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?, ?)", arguments: arguments)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT a, b, c, d FROM t"))
            #expect(row == ["a": "Arthur", "b": 1000, "c": nil, "d": Data([1])])
        }
    }

    @Test func argumentsFromAnyArrayAreNilForANonConvertibleElement() {
        #expect(StatementArguments(["Arthur", NotConvertible()] as [Any]) == nil)
        #expect(StatementArguments([[1, 2]] as [Any]) == nil)
        #expect(StatementArguments([] as [Any]) == StatementArguments())
    }

    @Test func arraysOfConvertiblesStillMakeNonOptionalArguments() {
        // The failable initializers must not win over the convertible ones.
        let positional: StatementArguments = StatementArguments([1, 2])
        let mixed: StatementArguments = StatementArguments(["a", 1, nil])
        let named: StatementArguments = StatementArguments(["a": 1])
        #expect(positional.values == [1.databaseValue, 2.databaseValue])
        #expect(mixed.values == ["a".databaseValue, 1.databaseValue, .null])
        #expect(named.namedValues == ["a": 1.databaseValue])
    }

    // MARK: - From [AnyHashable: Any]

    @Test func argumentsFromAnyDictionaryMakeNamedValues() throws {
        let json: [String: Any] = ["name": "Arthur", "score": 1000, "bonus": NSNull()]
        let arguments = try #require(StatementArguments(json))
        #expect(arguments.values.isEmpty)
        #expect(arguments.namedValues == ["name": "Arthur".databaseValue, "score": 1000.databaseValue, "bonus": .null])
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE player (name TEXT, score INTEGER, bonus INTEGER)")
            try db.execute(sql: "INSERT INTO player VALUES (:name, :score, :bonus)", arguments: arguments)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT name, score, bonus FROM player"))
            #expect(row == ["name": "Arthur", "score": 1000, "bonus": nil])
        }
    }

    @Test func argumentsFromAnyDictionaryAreNilForANonStringKeyOrValue() {
        #expect(StatementArguments(["name": "Arthur", 2: "two"] as [AnyHashable: Any]) == nil)
        #expect(StatementArguments(["name": NotConvertible()] as [String: Any]) == nil)
        #expect(StatementArguments([:] as [AnyHashable: Any]) == StatementArguments())
    }

    // MARK: - Duplicate names

    @Test func pairsWithADuplicateNameKeepTheLastValue() throws {
        let pairs: [(String, (any DatabaseValueConvertible)?)] = [("a", 1), ("b", 2), ("a", 3)]
        #expect(StatementArguments(pairs).namedValues == ["a": 3.databaseValue, "b": 2.databaseValue])
        let literal: StatementArguments = ["a": 1, "a": nil]
        #expect(literal.namedValues == ["a": .null])
        try inMemoryDatabase { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT :a", arguments: StatementArguments(pairs)) == 3)
        }
    }

    // MARK: - Concatenation

    @Test func mixedArgumentsBindAsGRDBDocumentsThem() throws {
        // Named parameters take their named value, or the next positional one.
        try inMemoryDatabase { db throws in
            let sql = "SELECT ?2 AS two, :foo AS foo, ?1 AS one, :foo AS foo2, :bar AS bar"
            let arguments: StatementArguments = [1, 2, "bar"] + ["foo": "foo"]
            let row = try #require(try Row.fetchOne(db, sql: sql, arguments: arguments))
            #expect(row.description == #"[two:2 foo:"foo" one:1 foo2:"foo" bar:"bar"]"#)
        }
    }

    @Test func concatenationOperatorsKeepPositionalOrderAndMergeNames() throws {
        var arguments: StatementArguments = ["foo": 1] + [2, 3]
        #expect(arguments.values == [2.databaseValue, 3.databaseValue])
        #expect(arguments.namedValues == ["foo": 1.databaseValue])
        arguments += ["bar": 4, "baz": nil]
        #expect(arguments.namedValues == ["foo": 1.databaseValue, "bar": 4.databaseValue, "baz": .null])
        arguments = arguments &+ ["foo": 10] &+ [5]
        #expect(arguments.values == [2.databaseValue, 3.databaseValue, 5.databaseValue])
        #expect(arguments.namedValues["foo"] == 10.databaseValue)
        let replaced = arguments.append(contentsOf: ["bar": 40, "qux": 6])
        #expect(replaced == ["bar": 4.databaseValue])
        #expect(arguments.description == #"["bar": 40, "baz": NULL, "foo": 10, "qux": 6, 2, 3, 5]"#)
    }

    @Test func plusEqualsTrapsOnANameDefinedOnBothSidesEvenWithEqualValues() async {
        await #expect(processExitsWith: .failure) {
            var arguments: StatementArguments = ["foo": 1]
            arguments += ["foo": 1]
        }
    }
}

@Suite("DatabaseValue API")
struct DatabaseValueAPITests {
    @Test func databaseValueFromAnyConvertsConvertibleValues() throws {
        #expect(DatabaseValue(value: 42) == 42.databaseValue)
        #expect(DatabaseValue(value: "it's")?.storage == .string("it's"))
        #expect(DatabaseValue(value: 1.5)?.storage == .double(1.5))
        #expect(DatabaseValue(value: Data([7]))?.storage == .blob(Data([7])))
        #expect(DatabaseValue(value: NSNull()) == .null)
        #expect(DatabaseValue(value: DatabaseValue.null) == .null)
        #expect(DatabaseValue(value: true) == 1.databaseValue)
        let date = Date(timeIntervalSince1970: 0)
        #expect(DatabaseValue(value: date) == date.databaseValue)
    }

    @Test func databaseValueFromAnyIsNilForOtherValues() {
        #expect(DatabaseValue(value: NotConvertible()) == nil)
        #expect(DatabaseValue(value: [1, 2]) == nil)
        #expect(DatabaseValue(value: ["a": 1]) == nil)
    }

    @Test func storageValueIsTheNaturalSwiftValue() {
        #expect(DatabaseValue.null.storage.value == nil)
        #expect(42.databaseValue.storage.value as? Int64 == 42)
        #expect(1.5.databaseValue.storage.value as? Double == 1.5)
        #expect("a".databaseValue.storage.value as? String == "a")
        #expect(Data([1]).databaseValue.storage.value as? Data == Data([1]))
        #expect(42.databaseValue.storage.value as? Int == nil)
    }

    @Test func storagesOfDifferentClassesDifferWhereValuesAreEqual() {
        #expect(1.databaseValue == 1.0.databaseValue)
        #expect(1.databaseValue.storage != 1.0.databaseValue.storage)
        #expect("1".databaseValue.storage != 1.databaseValue.storage)
        #expect(DatabaseValue.null.isNull)
        #expect(!0.databaseValue.isNull)
    }

    @Test func databaseValueReadsAStatementColumn() throws {
        try inMemoryDatabase { db throws in
            let statement = try db.makeStatement(sql: "SELECT NULL, 1, 2.5, 'x', x'01'")
            #expect(sqlite3_step(statement.sqliteStatement) == SQLITE_ROW)
            let values = (0..<5).map { DatabaseValue(sqliteStatement: statement.sqliteStatement, index: CInt($0)) }
            #expect(values.map(\.storage) == [.null, .int64(1), .double(2.5), .string("x"), .blob(Data([1]))])
            sqlite3_reset(statement.sqliteStatement)
        }
    }
}
