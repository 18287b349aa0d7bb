import CSQLCipher
import Foundation
import Testing
@testable import GRDBCipher

/// GRDB's documented `Tagged` recipe: a wrapper that is what its raw value is.
private struct Tagged<Tag, RawValue>: RawRepresentable {
    var rawValue: RawValue
}

extension Tagged: StatementBinding where RawValue: StatementBinding { }
extension Tagged: SQLExpressible where RawValue: SQLExpressible { }
extension Tagged: SQLSelectable where RawValue: SQLSelectable { }
extension Tagged: SQLOrderingTerm where RawValue: SQLOrderingTerm { }
extension Tagged: DatabaseValueConvertible where RawValue: DatabaseValueConvertible { }

private enum PlayerTag { }
private typealias PlayerID = Tagged<PlayerTag, Int64>
private typealias ColumnAlias = Tagged<PlayerTag, Column>

/// A binding of the library's protocol that is no database value.
private struct Answer: StatementBinding {
    func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, 42)
    }
}

@Suite("StatementBinding and RawRepresentable defaults")
struct StatementBindingTests {
    @Test func aTypeOfItsOwnBindsThroughTheProtocol() throws {
        try inMemoryDatabase { db throws in
            let statement = try db.makeStatement(sql: "SELECT ?")
            #expect(Answer().bind(to: statement.sqliteStatement, at: 1) == SQLITE_OK)
            #expect(try statement.step())
            #expect(sqlite3_column_int64(statement.sqliteStatement, 0) == 42)
        }
    }

    @Test func taggedValueBindsItsRawValue() throws {
        try inMemoryDatabase { db throws in
            let statement = try db.makeStatement(sql: "SELECT ?")
            #expect(PlayerID(rawValue: 7).bind(to: statement.sqliteStatement, at: 1) == SQLITE_OK)
            #expect(try statement.step())
            #expect(sqlite3_column_int64(statement.sqliteStatement, 0) == 7)
        }
    }

    @Test func optionalOfABindingBindsNullOrTheValue() throws {
        try inMemoryDatabase { db throws in
            let statement = try db.makeStatement(sql: "SELECT ?, ?")
            let none: Answer? = nil
            #expect(none.bind(to: statement.sqliteStatement, at: 1) == SQLITE_OK)
            #expect(Optional(Answer()).bind(to: statement.sqliteStatement, at: 2) == SQLITE_OK)
            #expect(try statement.step())
            #expect(sqlite3_column_type(statement.sqliteStatement, 0) == SQLITE_NULL)
            #expect(sqlite3_column_int64(statement.sqliteStatement, 1) == 42)
        }
    }

    @Test func taggedValueIsAnExpressionInTheQueryInterface() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur'), (2, 'Barbara')")
            let request = Table("player").filter(Column("id") == PlayerID(rawValue: 2)).select(Column("name"))
            let sql = try request.makePreparedRequest(db, forSingleResult: false).statement.sql
            #expect(sql == #"SELECT "name" FROM "player" WHERE "id" = ?"#)
            #expect(try String.fetchAll(db, request) == ["Barbara"])
        }
    }

    @Test func taggedColumnIsASelectionAndAnOrdering() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            let name = ColumnAlias(rawValue: Column("name"))
            let request = Table("player").select(name).order(name)
            let sql = try request.makePreparedRequest(db, forSingleResult: false).statement.sql
            #expect(sql == #"SELECT "name" FROM "player" ORDER BY "name""#)
        }
    }

    @Test func taggedValueStoresAndFetchesAsItsRawValue() throws {
        try inMemoryDatabase { db throws in
            #expect(try PlayerID.fetchOne(db, sql: "SELECT ?", arguments: [PlayerID(rawValue: 9)]) == PlayerID(rawValue: 9))
        }
    }
}

extension Tagged: Equatable where RawValue: Equatable { }
