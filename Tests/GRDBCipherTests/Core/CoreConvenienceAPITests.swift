import Foundation
import Testing
@testable import GRDBCipher

/// Conveniences of the core types: rows read by column expressions, CGFloat
/// values, identifiable collations and functions, cursor regions.
@Suite struct CoreConvenienceAPITests {
    private enum Columns: String, ColumnExpression {
        case name, nickname, data
    }

    @Test func rowMethodsTakeAnyColumnExpression() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'Arthur' AS name, NULL AS nickname, x'0102' AS data, 3 AS score"))
            #expect(try row.decode(String.self, forColumn: Columns.name) == "Arthur")
            #expect(try row.decode(Int.self, forColumn: Column("score")) == 3, "the fast path, for a StatementColumnConvertible type")
            #expect(try row.decode(String?.self, forColumn: Columns.nickname) == nil)
            #expect(row.coalesce([Columns.nickname, Columns.name]) == "Arthur")
            #expect(row.coalesce([Column("nickname"), Column("name")]) == "Arthur")
            #expect(try row.withUnsafeData(at: Columns.data) { $0.map(Array.init) } == [1, 2])
        }
    }

    @Test func cgFloatIsStoredAsAReal() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            #expect(CGFloat(1.5).databaseValue == 1.5.databaseValue)
            #expect(try CGFloat.fetchOne(db, sql: "SELECT ?", arguments: [CGFloat(2.25)]) == 2.25)
            #expect(try CGFloat.fetchOne(db, sql: "SELECT 3") == 3)
            #expect(CGFloat.fromDatabaseValue("x".databaseValue) == nil)
        }
    }

    @Test func collationsAndFunctionsAreIdentifiedAsSQLiteIdentifiesThem() {
        let lower = DatabaseCollation("myCollation") { $0.compare($1) }
        let upper = DatabaseCollation("MYCOLLATION") { $0.compare($1) }
        let other = DatabaseCollation("other") { $0.compare($1) }
        #expect(lower.id == upper.id, "SQLite compares collation names without case")
        #expect(lower.id != other.id)
        #expect(Set([lower.id, upper.id, other.id]).count == 2)

        let f1 = DatabaseFunction("f", argumentCount: 1) { _ in nil }
        let f1again = DatabaseFunction("f", argumentCount: 1) { _ in 1 }
        let f2 = DatabaseFunction("f", argumentCount: 2) { _ in nil }
        let variadic = DatabaseFunction("f") { _ in nil }
        #expect(f1.id == f1again.id)
        #expect(f1.id != f2.id)
        #expect(f1.id != variadic.id)
    }

    @Test func aRecordDescribesItsOwnMissingKey() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE assocTeam (id INTEGER PRIMARY KEY, name TEXT)")
            struct AssocTeam: Codable, PersistableRecord { var id: Int64; var name: String }
            let error = AssocTeam(id: 42, name: "Reds").recordNotFound(db)
            #expect("\(error)" == "Key not found in table assocTeam: [id:42]")
            guard case RecordError.recordNotFound(let table, let key)? = error as? RecordError else {
                Issue.record("\(error)")
                return
            }
            #expect(table == "assocTeam")
            #expect(key == ["id": 42.databaseValue])
        }
    }

    @Test func cursorsTellTheRegionTheyRead() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            let cursor = try Row.fetchCursor(db, sql: "SELECT name FROM player")
            #expect(cursor.databaseRegion.description == "player(id,name)" || cursor.databaseRegion.description == "player(name)",
                    "\(cursor.databaseRegion)")
            #expect(cursor.databaseRegion == (try db.makeStatement(sql: "SELECT name FROM player")).databaseRegion)
        }
    }
}
