import Foundation
import Testing
@testable import GRDBCipher

@Suite("Primary keys")
struct PrimaryKeyTests {
    @Test func aTableWithoutExplicitPrimaryKeyIsKeyedByTheHiddenRowID() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: "CREATE TABLE item (name TEXT)")
            let primaryKey = try db.primaryKey("item")
            #expect(primaryKey.columns == ["rowid"])
            #expect(primaryKey.columnInfos == nil)
            #expect(primaryKey.rowIDColumn == nil)
            #expect(primaryKey.isRowID)
            #expect(primaryKey.tableHasRowID)
            #expect(primaryKey.fastPrimaryKeyColumn == "rowid")
        }
    }

    @Test func anIntegerPrimaryKeyIsTheRowID() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: "CREATE TABLE player (id integer PRIMARY KEY, name TEXT)")
            let primaryKey = try db.primaryKey("player")
            #expect(primaryKey.columns == ["id"])
            #expect(primaryKey.columnInfos?.map(\.name) == ["id"])
            #expect(primaryKey.rowIDColumn == "id")
            #expect(primaryKey.isRowID)
            #expect(primaryKey.tableHasRowID)
            #expect(try db.columnIsRowID("id", of: "player"))
            #expect(try db.columnIsRowID("ROWID", of: "player"))
            #expect(try db.columnIsRowID("name", of: "player") == false)
        }
    }

    @Test func otherIntegerTypesAreNotTheRowID() throws {
        try withEncryptedSchemaDatabase { db in
            // Only the exact type name INTEGER makes an alias of the rowid.
            try db.execute(sql: "CREATE TABLE counter (id INT PRIMARY KEY, value INTEGER)")
            let primaryKey = try db.primaryKey("counter")
            #expect(primaryKey.columns == ["id"])
            #expect(primaryKey.rowIDColumn == nil)
            #expect(primaryKey.isRowID == false)
            #expect(primaryKey.tableHasRowID)
            #expect(primaryKey.fastPrimaryKeyColumn == "rowid")
        }
    }

    @Test func aTextPrimaryKey() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: "CREATE TABLE country (code TEXT NOT NULL PRIMARY KEY, name TEXT)")
            let primaryKey = try db.primaryKey("country")
            #expect(primaryKey.columns == ["code"])
            #expect(primaryKey.rowIDColumn == nil)
            #expect(primaryKey.isRowID == false)
            #expect(primaryKey.tableHasRowID)
        }
    }

    @Test func aCompositePrimaryKeyIsOrderedAsTheKey() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: """
                CREATE TABLE citizenship (
                    countryCode TEXT NOT NULL,
                    citizenId INTEGER NOT NULL,
                    since DATE,
                    PRIMARY KEY (citizenId, countryCode))
                """)
            let primaryKey = try db.primaryKey("citizenship")
            #expect(primaryKey.columns == ["citizenId", "countryCode"])
            #expect(primaryKey.columnInfos?.map(\.primaryKeyIndex) == [1, 2])
            #expect(primaryKey.rowIDColumn == nil)
            #expect(primaryKey.isRowID == false)
            #expect(primaryKey.tableHasRowID)
        }
    }

    @Test func withoutRowIDTablesHaveNoRowID() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: """
                CREATE TABLE tag (name TEXT PRIMARY KEY) WITHOUT ROWID;
                CREATE TABLE pair (a TEXT, b TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID;
                CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER) WITHOUT ROWID;
                """)
            let tag = try db.primaryKey("tag")
            #expect(tag.columns == ["name"])
            #expect(tag.tableHasRowID == false)
            #expect(tag.isRowID == false)
            #expect(tag.fastPrimaryKeyColumn == "name")
            let pair = try db.primaryKey("pair")
            #expect(pair.columns == ["a", "b"])
            #expect(pair.tableHasRowID == false)
            #expect(pair.fastPrimaryKeyColumn == nil)
            // In a WITHOUT ROWID table, INTEGER PRIMARY KEY is an ordinary key.
            let counter = try db.primaryKey("counter")
            #expect(counter.columns == ["id"])
            #expect(counter.rowIDColumn == nil)
            #expect(counter.isRowID == false)
            #expect(counter.tableHasRowID == false)
            #expect(try db.existenceCheckColumns(in: "pair") == ["a", "b"])
        }
    }

    @Test func aViewHasNoPrimaryKey() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
                CREATE VIEW playerName AS SELECT name FROM player;
                """)
            let error = #expect(throws: DatabaseError.self) { try db.primaryKey("playerName") }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "database view playerName has no primary key")
            // With a schema name, GRDB reports a missing table.
            let namedError = #expect(throws: DatabaseError.self) { try db.primaryKey("playerName", in: "main") }
            #expect(namedError?.message == "no such table: playerName")
            #expect(try db.existenceCheckColumns(in: "playerName") == ["name"])
            #expect(try db.existenceCheckColumns(in: "player") == ["id"])
        }
    }
}
