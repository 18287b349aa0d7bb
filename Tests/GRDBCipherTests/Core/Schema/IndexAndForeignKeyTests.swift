import Foundation
import Testing
@testable import GRDBCipher

@Suite("Indexes and foreign keys")
struct IndexAndForeignKeyTests {
    @Test func indexesListColumnIndexesWithTheirOrigin() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: """
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY,
                    email TEXT UNIQUE,
                    firstName TEXT,
                    lastName TEXT,
                    score INTEGER);
                CREATE INDEX player_name ON player(lastName, firstName);
                CREATE INDEX player_score_expression ON player(score * 2);
                CREATE TABLE tag (name TEXT PRIMARY KEY) WITHOUT ROWID;
                """)
            let indexes = try db.indexes(on: "player").sorted { $0.name < $1.name }
            // No index for the INTEGER PRIMARY KEY, none for the expression.
            #expect(indexes.map(\.name) == ["player_name", "sqlite_autoindex_player_1"])
            #expect(indexes[0].columns == ["lastName", "firstName"])
            #expect(indexes[0].isUnique == false)
            #expect(indexes[0].origin == .createIndex)
            #expect(indexes[1].columns == ["email"])
            #expect(indexes[1].isUnique)
            #expect(indexes[1].origin == .uniqueConstraint)
            let tagIndexes = try db.indexes(on: "tag")
            #expect(tagIndexes.map(\.columns) == [["name"]])
            #expect(tagIndexes.map(\.origin) == [.primaryKeyConstraint])
        }
    }

    @Test func aTableWithoutIndexHasNone() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: "CREATE TABLE item (name TEXT)")
            #expect(try db.indexes(on: "item").isEmpty)
        }
    }

    @Test func uniqueKeys() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: """
                CREATE TABLE t (id INTEGER PRIMARY KEY, a, b, c);
                CREATE UNIQUE INDEX t_ab ON t(a, b);
                CREATE INDEX t_c ON t(c);
                CREATE TABLE item (name TEXT);
                """)
            #expect(try db.table("t", hasUniqueKey: ["id"]))
            #expect(try db.table("t", hasUniqueKey: ["ID"]))
            #expect(try db.table("t", hasUniqueKey: ["a", "b"]))
            #expect(try db.table("t", hasUniqueKey: ["b", "a"]))
            #expect(try db.table("t", hasUniqueKey: ["id", "c"]))
            #expect(try db.table("t", hasUniqueKey: ["a", "b", "c"]))
            #expect(try db.table("t", hasUniqueKey: ["a"]) == false)
            #expect(try db.table("t", hasUniqueKey: ["c"]) == false)
            #expect(try db.table("t", hasUniqueKey: []) == false)
            #expect(try db.table("item", hasUniqueKey: ["rowid"]))
            #expect(try db.table("item", hasUniqueKey: ["name"]) == false)
            #expect(try db.columnsForUniqueKey(["B", "a"], in: "t") == ["a", "b"])
        }
    }

    @Test func foreignKeysMapColumnsInKeyOrder() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE country (code TEXT, region TEXT, PRIMARY KEY (region, code));
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY,
                    teamId INTEGER REFERENCES team(id),
                    captainOf INTEGER REFERENCES team,
                    countryRegion TEXT,
                    countryCode TEXT,
                    FOREIGN KEY (countryCode, countryRegion) REFERENCES country(code, region));
                """)
            let foreignKeys = try db.foreignKeys(on: "player")
            #expect(foreignKeys.count == 3)
            let byTeam = foreignKeys.filter { $0.destinationTable == "team" }
            #expect(Set(byTeam.map(\.originColumns)) == [["teamId"], ["captainOf"]])
            // A reference without columns refers to the primary key.
            #expect(byTeam.map(\.destinationColumns) == [["id"], ["id"]])
            let byCountry = try #require(foreignKeys.first { $0.destinationTable == "country" })
            #expect(byCountry.originColumns == ["countryCode", "countryRegion"])
            #expect(byCountry.destinationColumns == ["code", "region"])
            #expect(byCountry.mapping.map(\.origin) == ["countryCode", "countryRegion"])
            #expect(Set(foreignKeys.map(\.id)).count == 3)
            #expect(try db.foreignKeys(on: "team").isEmpty)
        }
    }

    @Test func implicitReferencesFollowACompositePrimaryKey() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: """
                CREATE TABLE country (code TEXT, region TEXT, PRIMARY KEY (region, code));
                CREATE TABLE city (name TEXT, r TEXT, c TEXT, FOREIGN KEY (r, c) REFERENCES country);
                """)
            let foreignKey = try #require(try db.foreignKeys(on: "city").first)
            #expect(foreignKey.originColumns == ["r", "c"])
            #expect(foreignKey.destinationColumns == ["region", "code"])
        }
    }

    @Test func checkForeignKeysThrowsTheFirstViolation() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: """
                PRAGMA foreign_keys = OFF;
                CREATE TABLE team (id INTEGER PRIMARY KEY);
                CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), name TEXT);
                CREATE TABLE other (id INTEGER PRIMARY KEY);
                INSERT INTO team (id) VALUES (1);
                INSERT INTO player (id, teamId, name) VALUES (1, 1, 'Arthur'), (2, 2, 'Barbara');
                """)
            try db.checkForeignKeys(in: "other")
            try db.checkForeignKeys(in: "team")
            let error = #expect(throws: DatabaseError.self) { try db.checkForeignKeys() }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            #expect(error?.message == """
                FOREIGN KEY constraint violation - from player(teamId) to team(id), \
                in [id:2 teamId:2 name:"Barbara"]
                """)
            let tableError = #expect(throws: DatabaseError.self) { try db.checkForeignKeys(in: "player", in: "main") }
            #expect(tableError?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            let row = try #require(try Row.fetchOne(db, sql: "PRAGMA foreign_key_check"))
            let violation = ForeignKeyViolation(row: row)
            #expect(violation.originTable == "player")
            #expect(violation.originRowID == 2)
            #expect(violation.destinationTable == "team")
            #expect(violation.description == "FOREIGN KEY constraint violation - from player to team, in rowid 2")
            try db.execute(sql: "DELETE FROM player WHERE id = 2")
            try db.checkForeignKeys()
        }
    }
}
