import Foundation
import Testing
@testable import GRDBCipher

@Suite struct CreateTableTests {
    @Test func placeExampleOfGRDBDocumentation() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try schemaStatements(db) {
                try db.create(table: "place") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.column("title", .text)
                    t.column("isFavorite", .boolean).notNull().defaults(to: false)
                    t.column("longitude", .double).notNull()
                    t.column("latitude", .double).notNull()
                }
            }
            #expect(sql == [
                #"CREATE TABLE "place" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT, "#
                    + #""isFavorite" BOOLEAN NOT NULL DEFAULT 0, "longitude" DOUBLE NOT NULL, "latitude" DOUBLE NOT NULL)"#,
            ])
            let columns = try db.columns(in: "place")
            #expect(columns.map(\.name) == ["id", "title", "isFavorite", "longitude", "latitude"])
            #expect(columns.map(\.type) == ["INTEGER", "TEXT", "BOOLEAN", "DOUBLE", "DOUBLE"])
            #expect(columns.map(\.isNotNull) == [false, false, true, true, true])
            #expect(columns[2].defaultValueSQL == "0")
            #expect(try db.primaryKey("place").rowIDColumn == "id")
            // AUTOINCREMENT creates sqlite_sequence.
            #expect(try db.tableExists("sqlite_sequence"))
        }
    }

    @Test func tableOptions() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try schemaStatements(db) {
                try db.create(table: "session", options: [.temporary, .ifNotExists]) { t in t.column("a") }
                try db.create(table: "session", options: [.temporary, .ifNotExists]) { t in t.column("a") }
                try db.create(table: "country", options: [.strict, .withoutRowID]) { t in
                    t.primaryKey("code", .text)
                    t.column("population", .integer)
                }
            }
            #expect(sql == [
                #"CREATE TEMPORARY TABLE IF NOT EXISTS "session" ("a")"#,
                #"CREATE TEMPORARY TABLE IF NOT EXISTS "session" ("a")"#,
                #"CREATE TABLE "country" ("code" TEXT PRIMARY KEY NOT NULL, "population" INTEGER) STRICT, WITHOUT ROWID"#,
            ])
            #expect(try db.tableExists("session", in: "temp"))
            #expect(try !db.tableExists("session", in: "main"))
            #expect(try !db.primaryKey("country").tableHasRowID)
            // STRICT refuses a text that is not an integer.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO country VALUES ('FR', 'many')")
            }
        }
    }

    @Test func legacyBooleanOptions() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try schemaStatements(db) {
                try db.create(table: "t", temporary: true, ifNotExists: true, withoutRowID: true) { t in
                    t.primaryKey("id", .text)
                }
            }
            #expect(sql == [#"CREATE TEMPORARY TABLE IF NOT EXISTS "t" ("id" TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID"#])
        }
    }

    @Test func singleColumnPrimaryKeys() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try schemaStatements(db) {
                try db.create(table: "a") { t in t.primaryKey("uuid", .text) }
                try db.create(table: "b") { t in t.primaryKey("id", .integer) }
                try db.create(table: "c") { t in t.autoIncrementedPrimaryKey("id", onConflict: .replace) }
                try db.create(table: "d") { t in t.primaryKey("code", .text, onConflict: .ignore) }
            }
            #expect(sql == [
                #"CREATE TABLE "a" ("uuid" TEXT PRIMARY KEY NOT NULL)"#,
                #"CREATE TABLE "b" ("id" INTEGER PRIMARY KEY)"#,
                #"CREATE TABLE "c" ("id" INTEGER PRIMARY KEY ON CONFLICT REPLACE AUTOINCREMENT)"#,
                #"CREATE TABLE "d" ("code" TEXT PRIMARY KEY ON CONFLICT IGNORE NOT NULL)"#,
            ])
            #expect(try db.primaryKey("a").columns == ["uuid"])
            #expect(try db.primaryKey("b").rowIDColumn == "id")
            // The text key is NOT NULL, which SQLite would not enforce alone.
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO a VALUES (NULL)") }
        }
    }

    @Test func compositePrimaryKeys() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try schemaStatements(db) {
                try db.create(table: "citizenship") { t in
                    t.column("citizenId", .integer).notNull()
                    t.column("countryCode", .text).notNull()
                    t.primaryKey(["citizenId", "countryCode"], onConflict: .replace)
                }
                try db.create(table: "passport") { t in
                    t.primaryKey {
                        t.column("citizenId", .integer)
                        t.column("countryCode", .text)
                    }
                    t.column("issueDate", .date).notNull()
                }
            }
            #expect(sql == [
                #"CREATE TABLE "citizenship" ("citizenId" INTEGER NOT NULL, "countryCode" TEXT NOT NULL, "#
                    + #"PRIMARY KEY ("citizenId", "countryCode") ON CONFLICT REPLACE)"#,
                #"CREATE TABLE "passport" ("citizenId" INTEGER NOT NULL, "countryCode" TEXT NOT NULL, "#
                    + #""issueDate" DATE NOT NULL, PRIMARY KEY ("citizenId", "countryCode"))"#,
            ])
            #expect(try db.primaryKey("citizenship").columns == ["citizenId", "countryCode"])
            #expect(try db.primaryKey("passport").columns == ["citizenId", "countryCode"])
        }
    }

    @Test func columnConstraintsAreWrittenInSQLiteOrder() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try schemaStatements(db) {
                try db.create(table: "player") { t in
                    // Called in reverse order of the SQL.
                    t.column("name", .text)
                        .collate(.nocase)
                        .defaults(to: "O'Reilly")
                        .check { length($0) > 0 }
                        .unique(onConflict: .ignore)
                        .notNull(onConflict: .replace)
                    t.column("email", .text).unique().notNull()
                    t.column("score", .integer).check(sql: "score >= -1").defaults(to: -1)
                    t.column("createdAt", .datetime).defaults(sql: "CURRENT_TIMESTAMP")
                    t.column("sortName", .text).collate(.localizedCompare)
                    t.column("extra")
                }
            }
            #expect(sql == [
                #"CREATE TABLE "player" ("#
                    + #""name" TEXT NOT NULL ON CONFLICT REPLACE UNIQUE ON CONFLICT IGNORE CHECK (LENGTH("name") > 0) "#
                    + #"DEFAULT 'O''Reilly' COLLATE NOCASE, "#
                    + #""email" TEXT NOT NULL UNIQUE, "#
                    + #""score" INTEGER CHECK (score >= -1) DEFAULT -1, "#
                    + #""createdAt" DATETIME DEFAULT CURRENT_TIMESTAMP, "#
                    + #""sortName" TEXT COLLATE swiftLocalizedCompare, "#
                    + #""extra")"#,
            ])
            try db.execute(sql: "INSERT INTO player (email) VALUES ('a@example.com')")
            let row = try #require(try Row.fetchOne(db, sql: "SELECT name, score, createdAt FROM player"))
            #expect(row["name"] == "O'Reilly")
            #expect(row["score"] == -1)
            #expect(row["createdAt"] != nil as String?)
            // The check and the unique constraint are enforced.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (email, score) VALUES ('b@example.com', -5)")
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (email) VALUES ('a@example.com')")
            }
            #expect(try db.indexes(on: "player").contains { $0.columns == ["email"] && $0.isUnique })
        }
    }

    @Test func defaultValuesAreSQLLiterals() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try schemaStatements(db) {
                try db.create(table: "t") { t in
                    t.column("a", .double).defaults(to: 1.5)
                    t.column("b", .blob).defaults(to: Data([0x00, 0xFF]))
                    t.column("c", .text).defaults(to: "it's")
                    t.column("d", .integer).defaults(to: Int64.max)
                }
            }
            #expect(sql == [
                #"CREATE TABLE "t" ("a" DOUBLE DEFAULT 1.5, "b" BLOB DEFAULT X'00FF', "#
                    + #""c" TEXT DEFAULT 'it''s', "d" INTEGER DEFAULT 9223372036854775807)"#,
            ])
            try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM t"))
            #expect(row["a"] == 1.5)
            #expect(row["b"] == Data([0x00, 0xFF]))
            #expect(row["c"] == "it's")
            #expect(row["d"] == Int64.max)
        }
    }

    @Test func indexedColumnsGetTheirIndexAfterTheTable() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try schemaStatements(db) {
                try db.create(table: "player") { t in
                    t.column("score", .integer).indexed()
                    t.column("email", .text).unique().indexed()
                    t.column("name", .text).indexed().unique()
                }
                try db.create(table: "game", options: .ifNotExists) { t in
                    t.column("date", .date).indexed()
                }
            }
            #expect(sql == [
                #"CREATE TABLE "player" ("score" INTEGER, "email" TEXT UNIQUE, "name" TEXT UNIQUE)"#,
                #"CREATE INDEX "player_on_score" ON "player"("score")"#,
                #"CREATE TABLE IF NOT EXISTS "game" ("date" DATE)"#,
                #"CREATE INDEX IF NOT EXISTS "game_on_date" ON "game"("date")"#,
            ])
            #expect(try db.indexes(on: "player").contains { $0.name == "player_on_score" && $0.columns == ["score"] })
        }
    }

    @Test func generatedColumns() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try schemaStatements(db) {
                try db.create(table: "player") { t in
                    t.column("score", .integer)
                    t.column("bonus", .integer)
                    t.column("total", .integer).generatedAs(sql: "score + bonus")
                    t.column("double", .integer).generatedAs(Column("score") * 2, .stored)
                }
            }
            #expect(sql == [
                #"CREATE TABLE "player" ("score" INTEGER, "bonus" INTEGER, "#
                    + #""total" INTEGER GENERATED ALWAYS AS (score + bonus) VIRTUAL, "#
                    + #""double" INTEGER GENERATED ALWAYS AS ("score" * 2) STORED)"#,
            ])
            try db.execute(sql: "INSERT INTO player (score, bonus) VALUES (10, 3)")
            let row = try #require(try Row.fetchOne(db, sql: "SELECT total, double FROM player"))
            #expect(row["total"] == 13)
            #expect(row["double"] == 20)
        }
    }

    @Test func columnReferences() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE team (id INTEGER PRIMARY KEY, code TEXT UNIQUE)")
            let sql = try schemaStatements(db) {
                try db.create(table: "player") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.column("teamId", .integer).references("team", onDelete: .cascade)
                    t.column("teamCode", .text)
                        .references("team", column: "code", onDelete: .setNull, onUpdate: .cascade, deferred: true)
                    t.column("captainId", .integer).references("player")
                }
                try db.create(table: "note") { t in
                    t.column("text", .text)
                    t.column("parentId", .integer).references("note", onDelete: .restrict)
                }
            }
            #expect(sql == [
                #"CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "#
                    + #""teamId" INTEGER REFERENCES "team"("id") ON DELETE CASCADE, "#
                    + #""teamCode" TEXT REFERENCES "team"("code") ON DELETE SET NULL ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED, "#
                    + #""captainId" INTEGER REFERENCES "player"("id"))"#,
                #"CREATE TABLE "note" ("text" TEXT, "parentId" INTEGER REFERENCES "note"("rowid") ON DELETE RESTRICT)"#,
            ])
            let foreignKeys = try db.foreignKeys(on: "player")
            #expect(foreignKeys.count == 3)
            #expect(foreignKeys.contains { $0.destinationTable == "team" && $0.originColumns == ["teamId"] })
            #expect(foreignKeys.contains { $0.destinationTable == "player" && $0.destinationColumns == ["id"] })
        }
    }

    @Test func tableConstraintsComeAfterColumnsInSQLiteOrder() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE citizenship (citizenId INTEGER, countryCode TEXT, PRIMARY KEY (citizenId, countryCode))")
            let minScore = 0
            let sql = try schemaStatements(db) {
                try db.create(table: "passport") { t in
                    t.constraint(literal: "CHECK (score >= \(minScore))")
                    t.check(sql: "score < 1000")
                    t.check(Column("a") + Column("b") < 10)
                    t.foreignKey(["citizenId", "countryCode"], references: "citizenship", onDelete: .cascade)
                    t.foreignKey(["a"], references: "citizenship", columns: ["citizenId"], deferred: true)
                    t.uniqueKey(["a", "b"], onConflict: .replace)
                    t.uniqueKey(["score"])
                    t.primaryKey(["citizenId", "countryCode"])
                    t.column("citizenId", .integer).notNull()
                    t.column("countryCode", .text).notNull()
                    t.column("a", .integer)
                    t.column("b", .integer)
                    t.column("score", .integer)
                }
            }
            #expect(sql == [
                #"CREATE TABLE "passport" ("citizenId" INTEGER NOT NULL, "countryCode" TEXT NOT NULL, "#
                    + #""a" INTEGER, "b" INTEGER, "score" INTEGER, "#
                    + #"PRIMARY KEY ("citizenId", "countryCode"), "#
                    + #"UNIQUE ("a", "b") ON CONFLICT REPLACE, UNIQUE ("score"), "#
                    + #"FOREIGN KEY ("citizenId", "countryCode") REFERENCES "citizenship"("citizenId", "countryCode") ON DELETE CASCADE, "#
                    + #"FOREIGN KEY ("a") REFERENCES "citizenship"("citizenId") DEFERRABLE INITIALLY DEFERRED, "#
                    + #"CHECK (score < 1000), CHECK (("a" + "b") < 10), CHECK (score >= 0))"#,
            ])
            #expect(try db.foreignKeys(on: "passport").count == 2)
        }
    }

    @Test func checkConstraintsWithValuesAreEnforced() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try schemaStatements(db) {
                try db.create(table: "player") { t in
                    t.column("personalPhone", .text)
                    t.column("workPhone", .text)
                    t.column("name", .text).check { $0 != "admin" }
                    t.check(Column("personalPhone") != nil || Column("workPhone") != nil)
                }
            }
            #expect(sql == [
                #"CREATE TABLE "player" ("personalPhone" TEXT, "workPhone" TEXT, "name" TEXT CHECK ("name" <> 'admin'), "#
                    + #"CHECK (("personalPhone" IS NOT NULL) OR ("workPhone" IS NOT NULL)))"#,
            ])
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (personalPhone, name) VALUES ('1', 'admin')")
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('arthur')")
            }
            try db.execute(sql: "INSERT INTO player (workPhone, name) VALUES ('2', 'arthur')")
        }
    }

    @Test func rawSQLColumns() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let defaultName = "Anonymous"
            let sql = try schemaStatements(db) {
                try db.create(table: "player") { t in
                    t.column(sql: "id INTEGER PRIMARY KEY")
                    t.column(literal: "name TEXT DEFAULT \(defaultName)")
                    t.constraint(sql: "CHECK (id > 0)")
                }
            }
            #expect(sql == [#"CREATE TABLE "player" (id INTEGER PRIMARY KEY, name TEXT DEFAULT 'Anonymous', CHECK (id > 0))"#])
            #expect(try db.columns(in: "player").first { $0.name == "name" }?.defaultValueSQL == "'Anonymous'")
        }
    }

    @Test func anExistingTableThrowsTheRefusedStatement() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(table: "player") { t in t.column("name", .text) }
            let error = #expect(throws: DatabaseError.self) {
                try db.create(table: "player") { t in t.column("other", .text) }
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.sql == #"CREATE TABLE "player" ("other" TEXT)"#)
            #expect(error?.message?.contains("already exists") == true)
            #expect(try columnNames(db, "player") == ["name"])
        }
    }

    @Test func aFailingIndexIsReportedWithItsStatement() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE other (a); CREATE INDEX player_on_score ON other(a)")
            let error = #expect(throws: DatabaseError.self) {
                try db.create(table: "player") { t in t.column("score", .integer).indexed() }
            }
            // As in GRDB: the rest of the SQL from the failing statement on, as written.
            #expect(error?.sql == #" CREATE INDEX "player_on_score" ON "player"("score")"#)
        }
    }

    @Test func theBodyErrorIsRethrownAndNothingIsCreated() throws {
        struct Stop: Error {}
        try withEncryptedSchemaDatabase { (db: Database) throws in
            #expect(throws: Stop.self) {
                try db.create(table: "player") { t in
                    t.column("name", .text)
                    throw Stop()
                }
            }
            #expect(try !db.tableExists("player"))
        }
    }

    @Test func schemaIsStoredEncryptedAndReadBack() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path, configuration: keyed("schema dsl"))
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique()
            }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("team", onDelete: .cascade)
                t.column("name", .text).notNull()
            }
        }
        try dbQueue.close()
        let header = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(16)
        #expect(header != Data("SQLite format 3\0".utf8))
        let reopened = try DatabaseQueue(path: path, configuration: keyed("schema dsl"))
        try reopened.read { (db: Database) throws in
            #expect(try storedSQL(db, "player")
                == #"CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "#
                + #""teamId" INTEGER REFERENCES "team"("id") ON DELETE CASCADE, "name" TEXT NOT NULL)"#)
            #expect(try storedSQL(db, "player_on_teamId") == #"CREATE INDEX "player_on_teamId" ON "player"("teamId")"#)
        }
    }
}
