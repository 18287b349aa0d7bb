import Foundation
import Testing
@testable import GRDBCipher

@Suite struct BelongsToTests {
    /// The team and country tables of GRDB's `belongsTo` documentation.
    private func createTeamAndCountry(_ db: Database, teamTable: String = "team", countryTable: String = "country") throws {
        try db.create(table: teamTable) { t in t.autoIncrementedPrimaryKey("id") }
        try db.create(table: countryTable) { t in t.primaryKey("code", .text) }
    }

    @Test func columnsAreNamedAfterTheReferencedPrimaryKey() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try createTeamAndCountry(db)
            let sql = try schemaStatements(db) {
                try db.create(table: "player") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.belongsTo("team")
                    t.belongsTo("country").notNull()
                }
            }
            #expect(sql == [
                #"CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "#
                    + #""teamId" INTEGER REFERENCES "team"("id"), "#
                    + #""countryCode" TEXT NOT NULL REFERENCES "country"("code"))"#,
                #"CREATE INDEX "player_on_teamId" ON "player"("teamId")"#,
                #"CREATE INDEX "player_on_countryCode" ON "player"("countryCode")"#,
            ])
            #expect(try columnNames(db, "player") == ["id", "teamId", "countryCode"])
            let foreignKeys = try db.foreignKeys(on: "player")
            #expect(Set(foreignKeys.map(\.destinationTable)) == ["team", "country"])
        }
    }

    @Test func singularNamesFindPluralTables() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try createTeamAndCountry(db, teamTable: "teams", countryTable: "countries")
            let sql = try schemaStatements(db) {
                try db.create(table: "players") { t in
                    t.belongsTo("team")
                    t.belongsTo("country")
                }
            }
            #expect(sql == [
                #"CREATE TABLE "players" ("teamId" INTEGER REFERENCES "teams"("id"), "#
                    + #""countryCode" TEXT REFERENCES "countries"("code"))"#,
                #"CREATE INDEX "players_on_teamId" ON "players"("teamId")"#,
                #"CREATE INDEX "players_on_countryCode" ON "players"("countryCode")"#,
            ])
        }
    }

    @Test func explicitTablesAndSelfReferences() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(table: "person") { t in t.autoIncrementedPrimaryKey("id") }
            let sql = try schemaStatements(db) {
                try db.create(table: "book") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.belongsTo("author", inTable: "person", onDelete: .cascade)
                    t.belongsTo("translator", inTable: "person", onDelete: .setNull, onUpdate: .cascade, deferred: true)
                    t.column("title", .text)
                }
                try db.create(table: "player") { t in
                    t.primaryKey("uuid", .text)
                    t.belongsTo("captain", inTable: "player", indexed: false)
                }
                try db.create(table: "employees") { t in
                    t.belongsTo("employee")
                }
            }
            #expect(sql == [
                #"CREATE TABLE "book" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "#
                    + #""authorId" INTEGER REFERENCES "person"("id") ON DELETE CASCADE, "#
                    + #""translatorId" INTEGER REFERENCES "person"("id") ON DELETE SET NULL ON UPDATE CASCADE "#
                    + #"DEFERRABLE INITIALLY DEFERRED, "title" TEXT)"#,
                #"CREATE INDEX "book_on_authorId" ON "book"("authorId")"#,
                #"CREATE INDEX "book_on_translatorId" ON "book"("translatorId")"#,
                #"CREATE TABLE "player" ("uuid" TEXT PRIMARY KEY NOT NULL, "captainUuid" TEXT REFERENCES "player"("uuid"))"#,
                // A table keyed by its rowid refers to itself through the rowid.
                #"CREATE TABLE "employees" ("employeeId" INTEGER REFERENCES "employees"("rowid"))"#,
                #"CREATE INDEX "employees_on_employeeId" ON "employees"("employeeId")"#,
            ])
        }
    }

    @Test func uniqueForeignKeyHasAUniqueConstraintInsteadOfAnIndex() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try createTeamAndCountry(db)
            let sql = try schemaStatements(db) {
                try db.create(table: "player") { t in
                    t.belongsTo("country").unique().notNull(onConflict: .fail)
                }
            }
            #expect(sql == [
                #"CREATE TABLE "player" ("countryCode" TEXT NOT NULL ON CONFLICT FAIL UNIQUE REFERENCES "country"("code"))"#,
            ])
        }
    }

    @Test func compositeKeysGetATableConstraintAndAnIndex() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(table: "citizenship") { t in
                t.primaryKey {
                    t.column("citizenId", .integer)
                    t.column("countryCode", .text)
                }
            }
            let sql = try schemaStatements(db) {
                try db.create(table: "passport") { t in
                    t.column("score", .integer).indexed()
                    t.belongsTo("citizenship", onDelete: .cascade).notNull()
                }
                try db.create(table: "visa") { t in
                    t.belongsTo("citizenship").unique()
                }
            }
            #expect(sql == [
                #"CREATE TABLE "passport" ("score" INTEGER, "#
                    + #""citizenshipCitizenId" INTEGER NOT NULL, "citizenshipCountryCode" TEXT NOT NULL, "#
                    + #"FOREIGN KEY ("citizenshipCitizenId", "citizenshipCountryCode") "#
                    + #"REFERENCES "citizenship"("citizenId", "countryCode") ON DELETE CASCADE)"#,
                #"CREATE INDEX "index_passport_on_citizenshipCitizenId_citizenshipCountryCode" "#
                    + #"ON "passport"("citizenshipCitizenId", "citizenshipCountryCode")"#,
                #"CREATE INDEX "passport_on_score" ON "passport"("score")"#,
                #"CREATE TABLE "visa" ("citizenshipCitizenId" INTEGER, "citizenshipCountryCode" TEXT, "#
                    + #"FOREIGN KEY ("citizenshipCitizenId", "citizenshipCountryCode") "#
                    + #"REFERENCES "citizenship"("citizenId", "countryCode"))"#,
                #"CREATE UNIQUE INDEX "index_visa_on_citizenshipCitizenId_citizenshipCountryCode" "#
                    + #"ON "visa"("citizenshipCitizenId", "citizenshipCountryCode")"#,
            ])
        }
    }

    @Test func foreignKeysInsideThePrimaryKey() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try createTeamAndCountry(db)
            let sql = try schemaStatements(db) {
                try db.create(table: "membership") { t in
                    t.primaryKey {
                        t.belongsTo("team")
                        t.belongsTo("country")
                    }
                    t.column("since", .date)
                }
            }
            #expect(sql == [
                #"CREATE TABLE "membership" ("teamId" INTEGER NOT NULL REFERENCES "team"("id"), "#
                    + #""countryCode" TEXT NOT NULL REFERENCES "country"("code"), "since" DATE, "#
                    + #"PRIMARY KEY ("teamId", "countryCode"))"#,
            ])
            #expect(try db.primaryKey("membership").columns == ["teamId", "countryCode"])
        }
    }

    @Test func tablesWithoutPrimaryKeyAreReferencedByRowID() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE tag (name TEXT)")
            let sql = try schemaStatements(db) {
                try db.create(table: "label") { t in t.belongsTo("tag", indexed: false) }
            }
            #expect(sql == [#"CREATE TABLE "label" ("tagId" INTEGER REFERENCES "tag"("rowid"))"#])
        }
    }

    @Test func aMissingTableThrowsBeforeAnyStatement() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let creates = LockedValue(0)
            db.trace { event in
                if case .statement(let statement) = event, statement.sql.hasPrefix("CREATE") {
                    creates.withLock { $0 += 1 }
                }
            }
            defer { db.trace(nil) }
            let error = #expect(throws: DatabaseError.self) {
                try db.create(table: "player") { t in t.belongsTo("ghost") }
            }
            #expect(error?.message == "no such table: ghost")
            #expect(creates.withLock { $0 } == 0)
            #expect(try !db.tableExists("player"))
        }
    }
}
