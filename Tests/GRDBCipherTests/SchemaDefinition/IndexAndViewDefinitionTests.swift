import Foundation
import Testing
@testable import GRDBCipher

@Suite struct IndexAndViewDefinitionTests {
    private func createPlayer(_ db: Database) throws {
        try db.create(table: "player") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text)
            t.column("email", .text)
            t.column("score", .integer)
            t.column("isHero", .boolean)
        }
    }

    @Test func namedIndexes() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try createPlayer(db)
            let sql = try schemaStatements(db) {
                try db.create(index: "byEmail", on: "player", columns: ["email"])
                try db.create(index: "byEmail", on: "player", columns: ["email"], options: [.unique, .ifNotExists])
                try db.create(index: "byNameScore", on: "player", columns: ["name", "score"], unique: true)
                try db.create(index: "bestScores", on: "player", columns: ["score"], condition: Column("score") > 100)
            }
            #expect(sql == [
                #"CREATE INDEX "byEmail" ON "player"("email")"#,
                #"CREATE UNIQUE INDEX IF NOT EXISTS "byEmail" ON "player"("email")"#,
                #"CREATE UNIQUE INDEX "byNameScore" ON "player"("name", "score")"#,
                #"CREATE INDEX "bestScores" ON "player"("score") WHERE "score" > 100"#,
            ])
            let indexes = try db.indexes(on: "player")
            #expect(indexes.first { $0.name == "byNameScore" }?.isUnique == true)
            #expect(indexes.first { $0.name == "bestScores" }?.columns == ["score"])
        }
    }

    @Test func expressionIndexes() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try createPlayer(db)
            let sql = try schemaStatements(db) {
                try db.create(index: "total", on: "player", expressions: [Column("score") + Column("id")])
                try db.create(
                    index: "byName", on: "player", expressions: [Column("name").collating(.nocase)],
                    options: .unique, condition: Column("name") != "")
            }
            #expect(sql == [
                #"CREATE INDEX "total" ON "player"("score" + "id")"#,
                #"CREATE UNIQUE INDEX "byName" ON "player"("name" COLLATE NOCASE) WHERE "name" <> ''"#,
            ])
            try db.execute(sql: "INSERT INTO player (name) VALUES ('arthur')")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO player (name) VALUES ('ARTHUR')") }
        }
    }

    @Test func derivedIndexNames() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try createPlayer(db)
            let sql = try schemaStatements(db) {
                try db.create(indexOn: "player", columns: ["email"])
                try db.create(indexOn: "player", columns: ["name", "score"], options: .unique)
            }
            #expect(sql == [
                #"CREATE INDEX "index_player_on_email" ON "player"("email")"#,
                #"CREATE UNIQUE INDEX "index_player_on_name_score" ON "player"("name", "score")"#,
            ])
        }
    }

    @Test func dropIndexes() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try createPlayer(db)
            try db.create(index: "byEmail", on: "player", columns: ["email"])
            try db.create(indexOn: "player", columns: ["name", "score"])
            let sql = try schemaStatements(db) {
                try db.drop(index: "byEmail")
                try db.drop(indexOn: "player", columns: ["score"])          // no such index: nothing
                try db.drop(indexOn: "player", columns: ["NAME", "Score"])
            }
            #expect(sql == [#"DROP INDEX "byEmail""#, #"DROP INDEX "index_player_on_name_score""#])
            #expect(try db.indexes(on: "player").isEmpty)
            let error = #expect(throws: DatabaseError.self) { try db.drop(index: "byEmail") }
            #expect(error?.sql == #"DROP INDEX "byEmail""#)
        }
    }

    @Test func viewsFromQueryInterfaceRequests() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try createPlayer(db)
            try db.execute(sql: "INSERT INTO player (name, score, isHero) VALUES ('Arthur', 100, 1), ('Barbara', 5, 0)")
            let sql = try schemaStatements(db) {
                try db.create(view: "hero", as: Table("player").filter(Column("isHero") == true))
                try db.create(
                    view: "scores", options: [.temporary, .ifNotExists], columns: ["who", "points"],
                    as: Table("player").select(Column("name"), Column("score")).filter(Column("name") != "O'Brien"))
            }
            #expect(sql == [
                #"CREATE VIEW "hero" AS SELECT * FROM "player" WHERE "isHero" = 1"#,
                #"CREATE TEMPORARY VIEW IF NOT EXISTS "scores" ("who", "points") AS "#
                    + #"SELECT "name", "score" FROM "player" WHERE "name" <> 'O''Brien'"#,
            ])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM hero") == ["Arthur"])
            #expect(try String.fetchAll(db, sql: "SELECT who FROM scores ORDER BY points") == ["Barbara", "Arthur"])
            #expect(try db.viewExists("hero"))
        }
    }

    @Test func viewsFromSQLLiterals() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try createPlayer(db)
            let minScore = 10
            let sql = try schemaStatements(db) {
                try db.create(view: "good", asLiteral: "SELECT * FROM player WHERE score >= \(minScore)")
                try db.create(view: "heroes", as: SQLRequest<Row>(sql: "SELECT * FROM player WHERE isHero == 1"))
                try db.drop(view: "good")
            }
            #expect(sql == [
                #"CREATE VIEW "good" AS SELECT * FROM player WHERE score >= 10"#,
                #"CREATE VIEW "heroes" AS SELECT * FROM player WHERE isHero == 1"#,
                #"DROP VIEW "good""#,
            ])
            #expect(try !db.viewExists("good"))
            let error = #expect(throws: DatabaseError.self) {
                try db.create(view: "heroes", asLiteral: "SELECT 1")
            }
            #expect(error?.sql == #"CREATE VIEW "heroes" AS SELECT 1"#)
        }
    }

    @Test func reindexCollations() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try createPlayer(db)
            let sql = try schemaStatements(db) {
                try db.reindex(collation: .nocase)
                try db.reindex(collation: .localizedCompare)
            }
            #expect(sql == ["REINDEX NOCASE", "REINDEX swiftLocalizedCompare"])
        }
    }
}
