import Foundation
import Testing
@testable import GRDBCipher

@Suite("Foreign key violations")
struct ForeignKeyViolationsTests {
    @Test func foreignKeyViolationsListEveryBrokenRow() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: """
                PRAGMA foreign_keys = OFF;
                CREATE TABLE team (id INTEGER PRIMARY KEY);
                CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id));
                CREATE TABLE other (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id));
                INSERT INTO team VALUES (1);
                INSERT INTO player VALUES (1, 1), (2, 7), (3, 8);
                INSERT INTO other VALUES (1, 9);
                """)
            let all = try Array(db.foreignKeyViolations())
            #expect(all.map(\.originTable).sorted() == ["other", "player", "player"])
            #expect(all.allSatisfy { $0.destinationTable == "team" && $0.foreignKeyId == 0 })
            let inPlayer = try Array(db.foreignKeyViolations(in: "player"))
            #expect(inPlayer.map(\.originRowID) == [2, 3])
            #expect(try Array(db.foreignKeyViolations(in: "team", in: "main")).isEmpty)
        }
    }

    @Test func foreignKeyViolationsOfAMissingTableThrow() throws {
        try withEncryptedSchemaDatabase { db in
            let error = #expect(throws: DatabaseError.self) { try db.foreignKeyViolations(in: "nope") }
            #expect(error?.message == "no such table: nope")
        }
    }

    @Test func checkingOneTableRunsThePragmaAsGRDBWritesIt() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: "CREATE TABLE team (id INTEGER PRIMARY KEY)")
            let statements = try tracedStatements(db) {
                try db.checkForeignKeys(in: "team")
                _ = try Array(db.foreignKeyViolations(in: "team"))
            }
            #expect(statements.filter { $0.contains("foreign_key_check") } == [
                #"PRAGMA main.foreign_key_check("team")"#,
                #"PRAGMA main.foreign_key_check("team")"#,
            ])
        }
    }
}
