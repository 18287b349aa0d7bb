import Foundation
import Testing
@testable import GRDBCipher

@Suite struct AlterTableTests {
    private func createPlayer(_ db: Database) throws {
        try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
        try db.create(table: "player") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text)
            t.column("url", .text)
            t.column("age", .integer)
        }
    }

    @Test func addedColumnsAreSeenByTheSchemaCache() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try createPlayer(db)
            // Fill the schema cache before the change.
            #expect(try columnNames(db, "player") == ["id", "name", "url", "age"])
            let sql = try schemaStatements(db) {
                try db.alter(table: "player") { t in
                    t.add(column: "bonus", .integer).notNull().defaults(to: 0)
                    t.add(column: "email", .text).indexed()
                    t.add(column: "teamId", .integer).references("team", onDelete: .setNull)
                    t.add(column: "mentorId").references("player")
                }
            }
            #expect(sql == [
                #"ALTER TABLE "player" ADD COLUMN "bonus" INTEGER NOT NULL DEFAULT 0"#,
                #"ALTER TABLE "player" ADD COLUMN "email" TEXT"#,
                #"CREATE INDEX "player_on_email" ON "player"("email")"#,
                #"ALTER TABLE "player" ADD COLUMN "teamId" INTEGER REFERENCES "team"("id") ON DELETE SET NULL"#,
                #"ALTER TABLE "player" ADD COLUMN "mentorId" REFERENCES "player"("id")"#,
            ])
            #expect(try columnNames(db, "player") == ["id", "name", "url", "age", "bonus", "email", "teamId", "mentorId"])
            #expect(try db.indexes(on: "player").map(\.name) == ["player_on_email"])
            #expect(try db.foreignKeys(on: "player").count == 2)
        }
    }

    @Test func rawSQLColumns() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try createPlayer(db)
            let defaultName = "Anonymous"
            let sql = try schemaStatements(db) {
                try db.alter(table: "player") { t in
                    t.addColumn(sql: "bonus INTEGER")
                    t.addColumn(literal: "nickname TEXT DEFAULT \(defaultName)")
                }
            }
            #expect(sql == [
                #"ALTER TABLE "player" ADD COLUMN bonus INTEGER"#,
                #"ALTER TABLE "player" ADD COLUMN nickname TEXT DEFAULT 'Anonymous'"#,
            ])
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            #expect(try String.fetchOne(db, sql: "SELECT nickname FROM player") == "Anonymous")
        }
    }

    @Test func renameAndDropColumns() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try createPlayer(db)
            #expect(try columnNames(db, "player") == ["id", "name", "url", "age"])
            let sql = try schemaStatements(db) {
                try db.alter(table: "player") { t in
                    t.rename(column: "url", to: "homeURL")
                    t.drop(column: "age")
                }
            }
            #expect(sql == [
                #"ALTER TABLE "player" RENAME COLUMN "url" TO "homeURL""#,
                #"ALTER TABLE "player" DROP COLUMN "age""#,
            ])
            #expect(try columnNames(db, "player") == ["id", "name", "homeURL"])
        }
    }

    @Test func droppingAnUnknownColumnThrowsTheRefusedStatement() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try createPlayer(db)
            let error = #expect(throws: DatabaseError.self) {
                try db.alter(table: "player") { t in t.drop(column: "ghost") }
            }
            #expect(error?.sql == #"ALTER TABLE "player" DROP COLUMN "ghost""#)
            #expect(error?.message?.contains("no such column") == true)
            #expect(try columnNames(db, "player") == ["id", "name", "url", "age"])
        }
    }

    @Test func aFailingChangeInATransactionLeavesNothingHalfDone() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try createPlayer(db)
            #expect(throws: DatabaseError.self) {
                try db.inTransaction {
                    try db.alter(table: "player") { t in
                        t.add(column: "bonus", .integer)
                        t.add(column: "name", .text)  // exists
                    }
                    return .commit
                }
            }
            #expect(try columnNames(db, "player") == ["id", "name", "url", "age"])
        }
    }

    @Test func renameAndDropTables() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            let sql = try schemaStatements(db) {
                try db.rename(table: "team", to: "guild")
                try db.drop(table: "guild")
            }
            #expect(sql == [#"ALTER TABLE "team" RENAME TO "guild""#, #"DROP TABLE "guild""#])
            #expect(try !db.tableExists("team"))
            #expect(try !db.tableExists("guild"))
            let error = #expect(throws: DatabaseError.self) { try db.drop(table: "guild") }
            #expect(error?.sql == #"DROP TABLE "guild""#)
        }
    }

    @Test func poolReadersSeeTheAlteredSchema() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("pool.sqlite"), configuration: keyed("schema dsl pool"))
        try dbPool.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
            }
        }
        #expect(try dbPool.read { db in try columnNames(db, "player") } == ["id", "name"])
        try dbPool.write { db in
            try db.alter(table: "player") { t in t.add(column: "score", .integer).notNull().defaults(to: 0) }
            try db.create(indexOn: "player", columns: ["score"])
        }
        #expect(try dbPool.read { db in try columnNames(db, "player") } == ["id", "name", "score"])
        #expect(try dbPool.read { db in try db.indexes(on: "player").map(\.name) } == ["index_player_on_score"])
    }
}
