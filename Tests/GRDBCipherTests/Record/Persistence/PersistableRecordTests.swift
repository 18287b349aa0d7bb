import Foundation
import Testing
@testable import GRDBCipher
import GRDBCipherTesting

private struct Player: Codable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    var score: Int

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

private struct Country: Codable, FetchableRecord, PersistableRecord {
    var isoCode: String
    var name: String
}

private struct Citizenship: Codable, FetchableRecord, PersistableRecord {
    var citizenId: Int64
    var countryCode: String
    var native: Bool
}

private struct Item: Codable, FetchableRecord, PersistableRecord {
    var name: String
}

private struct Empty: PersistableRecord {
    static let databaseTableName = "item"
    func encode(to container: inout PersistenceContainer) { }
}

private struct ValidationError: Error { }

/// Records every callback in a shared log.
private final class Log: @unchecked Sendable {   // safe: only used inside one database access
    var events: [String] = []
}

private struct Tracked: MutablePersistableRecord {
    static let databaseTableName = "player"
    var id: Int64?
    var name: String
    let log: Log
    var failWillSave = false

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["name"] = name
        container["score"] = 0
    }

    func willSave(_ db: Database) throws {
        log.events.append("willSave")
        if failWillSave { throw ValidationError() }
    }
    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        log.events.append("aroundSave(before)")
        _ = try save()
        log.events.append("aroundSave(after)")
    }
    func didSave(_ saved: PersistenceSuccess) { log.events.append("didSave") }
    mutating func willInsert(_ db: Database) throws { log.events.append("willInsert") }
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        log.events.append("aroundInsert(before)")
        _ = try insert()
        log.events.append("aroundInsert(after)")
    }
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
        log.events.append("didInsert")
    }
    func willUpdate(_ db: Database, columns: Set<String>) throws { log.events.append("willUpdate") }
    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        log.events.append("aroundUpdate(before)")
        _ = try update()
        log.events.append("aroundUpdate(after)")
    }
    func didUpdate(_ updated: PersistenceSuccess) { log.events.append("didUpdate") }
    func willDelete(_ db: Database) throws { log.events.append("willDelete") }
    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        log.events.append("aroundDelete(before)")
        _ = try delete()
        log.events.append("aroundDelete(after)")
    }
    func didDelete(deleted: Bool) { log.events.append("didDelete(\(deleted))") }
}

private func createTables(_ db: Database) throws {
    try db.execute(sql: """
        CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, score INTEGER NOT NULL DEFAULT 1000);
        CREATE TABLE country (isoCode TEXT NOT NULL PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE citizenship (citizenId INTEGER NOT NULL, countryCode TEXT NOT NULL, native BOOLEAN NOT NULL,
                                  PRIMARY KEY (citizenId, countryCode));
        CREATE TABLE item (name TEXT);
        CREATE TABLE vocabulary (word TEXT NOT NULL PRIMARY KEY, kind TEXT NOT NULL,
                                 isTainted BOOLEAN DEFAULT 0, count INT DEFAULT 1);
        """)
}

/// Runs `body`, and returns the expanded SQL of the statements it ran.
private func recordingSQL(_ db: Database, _ body: () throws -> Void) throws -> [String] {
    var statements: [String] = []
    db.trace { event in
        if case .statement(let statement) = event { statements.append(statement.expandedSQL) }
    }
    defer { db.trace(nil) }
    try body()
    // Schema introspection is not what is tested.
    return statements.filter { !$0.hasPrefix("PRAGMA") && !$0.contains("sqlite_") }
}

@Suite("PersistableRecord")
struct PersistableRecordTests {
    @Test func insertSetsTheAutoIncrementedIdWithGRDBsSQL() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            var player = Player(id: nil, name: "Arthur", score: 100)
            let sql = try recordingSQL(db) { try player.insert(db) }
            #expect(sql == [#"INSERT INTO "player" ("id", "name", "score") VALUES (NULL,'Arthur',100)"#])
            #expect(player.id == 1)
            let inserted = try Player(id: nil, name: "Barbara", score: 200).inserted(db)
            #expect(inserted.id == 2)
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY id")
                == [["id": 1, "name": "Arthur", "score": 100], ["id": 2, "name": "Barbara", "score": 200]])
        }
    }

    @Test func conflictResolutionsWriteGRDBsSQL() throws {
        struct Replacing: Codable, PersistableRecord {
            static let databaseTableName = "player"
            static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .ignore)
            var id: Int64
            var name: String
            var score: Int
        }
        try inEncryptedDatabase { db in
            try createTables(db)
            try Replacing(id: 1, name: "Arthur", score: 1).insert(db)
            let sql = try recordingSQL(db) {
                try Replacing(id: 1, name: "Arthur", score: 2).insert(db)
                try Replacing(id: 1, name: "Arthur", score: 3).update(db)
                try Replacing(id: 2, name: "Arthur", score: 4).insert(db, onConflict: .ignore)
            }
            #expect(sql == [
                #"INSERT OR REPLACE INTO "player" ("id", "name", "score") VALUES (1,'Arthur',2)"#,
                #"UPDATE OR IGNORE "player" SET "name"='Arthur', "score"=3 WHERE "id"=1"#,
                #"INSERT OR IGNORE INTO "player" ("id", "name", "score") VALUES (2,'Arthur',4)"#,
            ])
            #expect(try Row.fetchAll(db, sql: "SELECT id, score FROM player") == [["id": 1, "score": 3]])
            // The default policy aborts.
            #expect(throws: DatabaseError.self) { try Country(isoCode: "FR", name: "France").insert(db); try Country(isoCode: "FR", name: "France").insert(db) }
        }
    }

    @Test func updateWritesGRDBsSQLAndThrowsRecordNotFound() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            player.score = 200
            let sql = try recordingSQL(db) {
                try player.update(db)
                try player.update(db, columns: ["name"])
                try player.update(db, columns: [Column("score")])
            }
            #expect(sql == [
                #"UPDATE "player" SET "name"='Arthur', "score"=200 WHERE "id"=1"#,
                #"UPDATE "player" SET "name"='Arthur' WHERE "id"=1"#,
                #"UPDATE "player" SET "score"=200 WHERE "id"=1"#,
            ])
            let missing = Player(id: 42, name: "Nobody", score: 0)
            let error = #expect(throws: RecordError.self) { try missing.update(db) }
            #expect(error?.description == "Key not found in table player: [id:42]")
            let nullKey = Player(id: nil, name: "Nobody", score: 0)
            let nullError = #expect(throws: RecordError.self) { try nullKey.update(db) }
            #expect(nullError?.description == "Key not found in table player: [id:NULL]")
            #expect(try Player.fetchCount(db) == 1)
        }
    }

    @Test func updateChangesOnlyWritesChangedColumns() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            let old = player
            player.score = 150
            var changed = false
            var sql = try recordingSQL(db) { changed = try player.updateChanges(db, from: old) }
            #expect(changed)
            #expect(sql == [#"UPDATE "player" SET "score"=150 WHERE "id"=1"#])
            sql = try recordingSQL(db) { changed = try player.updateChanges(db) { $0.score = 150 } }
            #expect(!changed)
            #expect(sql.isEmpty)
            sql = try recordingSQL(db) { changed = try player.updateChanges(db) { $0.name = "Art" } }
            #expect(changed)
            #expect(sql == [#"UPDATE "player" SET "name"='Art' WHERE "id"=1"#])
        }
    }

    @Test func saveUpdatesOrInserts() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            var player = Player(id: nil, name: "Arthur", score: 100)
            var sql = try recordingSQL(db) { try player.save(db) }
            #expect(sql == [#"INSERT INTO "player" ("id", "name", "score") VALUES (NULL,'Arthur',100)"#])
            player.score = 5
            sql = try recordingSQL(db) { try player.save(db) }
            #expect(sql == [#"UPDATE "player" SET "name"='Arthur', "score"=5 WHERE "id"=1"#])
            var ghost = Player(id: 7, name: "Ghost", score: 1)
            sql = try recordingSQL(db) { try ghost.save(db) }
            #expect(sql == [
                #"UPDATE "player" SET "name"='Ghost', "score"=1 WHERE "id"=7"#,
                #"INSERT INTO "player" ("id", "name", "score") VALUES (7,'Ghost',1)"#,
            ])
            let saved = try Country(isoCode: "FR", name: "France").saved(db)
            #expect(saved.name == "France")
            #expect(try Row.fetchAll(db, sql: "SELECT id, score FROM player ORDER BY id") == [["id": 1, "score": 5], ["id": 7, "score": 1]])
        }
    }

    @Test func deleteAndExists() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            let france = Country(isoCode: "FR", name: "France")
            try france.insert(db)
            var results: [Bool] = []
            let sql = try recordingSQL(db) {
                results.append(try france.exists(db))
                results.append(try france.delete(db))
                results.append(try france.delete(db))
                results.append(try france.exists(db))
            }
            #expect(results == [true, true, false, false])
            #expect(sql == [
                #"SELECT EXISTS (SELECT 1 FROM "country" WHERE "isoCode"='FR')"#,
                #"DELETE FROM "country" WHERE "isoCode"='FR'"#,
                #"DELETE FROM "country" WHERE "isoCode"='FR'"#,
                #"SELECT EXISTS (SELECT 1 FROM "country" WHERE "isoCode"='FR')"#,
            ])
            // A NULL key: nothing to delete, nothing exists, no statement.
            #expect(try Player(id: nil, name: "x", score: 0).delete(db) == false)
            #expect(try Player(id: nil, name: "x", score: 0).exists(db) == false)
        }
    }

    @Test func compositePrimaryKey() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            var citizenship = Citizenship(citizenId: 1, countryCode: "FR", native: true)
            try citizenship.insert(db)
            citizenship.native = false
            var results: [Bool] = []
            let sql = try recordingSQL(db) {
                try citizenship.update(db)
                results.append(try citizenship.exists(db))
                results.append(try citizenship.delete(db))
            }
            #expect(results == [true, true])
            #expect(sql == [
                #"UPDATE "citizenship" SET "native"=0 WHERE "citizenId"=1 AND "countryCode"='FR'"#,
                #"SELECT EXISTS (SELECT 1 FROM "citizenship" WHERE "citizenId"=1 AND "countryCode"='FR')"#,
                #"DELETE FROM "citizenship" WHERE "citizenId"=1 AND "countryCode"='FR'"#,
            ])
            let error = #expect(throws: RecordError.self) { try citizenship.update(db) }
            #expect(error?.description == "Key not found in table citizenship: [citizenId:1 countryCode:\"FR\"]")
        }
    }

    @Test func hiddenRowIDTable() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            let item = Item(name: "pen")
            try item.insert(db)
            #expect(try Int.fetchOne(db, sql: "SELECT rowid FROM item") == 1)
            // The record does not know its rowid: its key is NULL.
            #expect(throws: RecordError.self) { try item.update(db) }
            #expect(try item.exists(db) == false)
            // Save inserts.
            try item.save(db)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") == 2)
        }
    }

    // As GRDB runs them: each did... callback after its around... callback
    // returned (GRDB's README lists the callbacks in this order, without
    // the around... exits).
    @Test func callbacksRunInGRDBsOrder() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            let log = Log()
            var record = Tracked(id: nil, name: "Arthur", log: log)
            try record.insert(db)
            #expect(log.events == ["willSave", "aroundSave(before)", "willInsert", "aroundInsert(before)",
                                   "aroundInsert(after)", "didInsert", "aroundSave(after)", "didSave"])
            #expect(record.id == 1)
            log.events = []
            try record.update(db)
            #expect(log.events == ["willSave", "aroundSave(before)", "willUpdate", "aroundUpdate(before)",
                                   "aroundUpdate(after)", "didUpdate", "aroundSave(after)", "didSave"])
            log.events = []
            var unsaved = Tracked(id: 5, name: "Barbara", log: log)
            try unsaved.save(db)
            #expect(log.events == ["willSave", "aroundSave(before)", "willUpdate", "aroundUpdate(before)",
                                   "willInsert", "aroundInsert(before)", "aroundInsert(after)", "didInsert",
                                   "aroundSave(after)", "didSave"])
            log.events = []
            try record.delete(db)
            #expect(log.events == ["willDelete", "aroundDelete(before)", "aroundDelete(after)", "didDelete(true)"])
            log.events = []
            var upserted = Tracked(id: 5, name: "Barbara", log: log)
            try upserted.upsert(db)
            #expect(log.events == ["willSave", "aroundSave(before)", "willInsert", "aroundInsert(before)",
                                   "aroundInsert(after)", "didInsert", "aroundSave(after)", "didSave"])
            #expect(upserted.id == 5)
        }
    }

    @Test func throwingWillSaveWritesNothing() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            let log = Log()
            var record = Tracked(id: nil, name: "Arthur", log: log, failWillSave: true)
            #expect(throws: ValidationError.self) { try record.insert(db) }
            #expect(throws: ValidationError.self) { try record.save(db) }
            #expect(throws: ValidationError.self) { try record.upsert(db) }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
            #expect(log.events == ["willSave", "willSave", "willSave"])
            #expect(record.id == nil)
        }
    }

    @Test func aroundCallbackThatForgetsTheActionThrowsMisuse() throws {
        struct Forgetful: Codable, PersistableRecord {
            static let databaseTableName = "country"
            var isoCode: String
            var name: String
            func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws { }
        }
        try inEncryptedDatabase { db in
            try createTables(db)
            let error = #expect(throws: DatabaseError.self) { try Forgetful(isoCode: "FR", name: "France").insert(db) }
            #expect(error?.resultCode == .SQLITE_MISUSE)
        }
    }

    @Test func upsertWritesGRDBsSQL() throws {
        struct Vocabulary: Codable, FetchableRecord, PersistableRecord {
            var word: String
            var kind: String
            var isTainted: Bool
            var count: Int?
            func encode(to container: inout PersistenceContainer) {
                container["word"] = word
                container["kind"] = kind
                container["isTainted"] = isTainted
            }
        }
        try inEncryptedDatabase { db in
            try createTables(db)
            let player = Player(id: 1, name: "Arthur", score: 1000)
            var inserted = try player.inserted(db)
            var sql = try recordingSQL(db) { try inserted.upsert(db) }
            #expect(sql.last == #"INSERT INTO "player" ("id", "name", "score") VALUES (1,'Arthur',1000) ON CONFLICT DO UPDATE SET "name" = "excluded"."name", "score" = "excluded"."score" RETURNING "rowid""#)

            try db.execute(sql: "INSERT INTO vocabulary(word, kind, isTainted) VALUES('jovial', 'name', 1)")
            let vocabulary = Vocabulary(word: "jovial", kind: "adjective", isTainted: false)
            var upserted: Vocabulary?
            sql = try recordingSQL(db) {
                upserted = try vocabulary.upsertAndFetch(db, onConflict: ["word"], doUpdate: { _ in
                    [Column("count") += 1, Column("isTainted").noOverwrite]
                })
            }
            #expect(sql == [#"INSERT INTO "vocabulary" ("word", "kind", "isTainted") VALUES ('jovial','adjective',0) ON CONFLICT("word") DO UPDATE SET "count" = "count" + 1, "kind" = "excluded"."kind" RETURNING *, "rowid""#])
            #expect(upserted?.kind == "adjective")
            #expect(upserted?.isTainted == true)
            #expect(upserted?.count == 2)

            sql = try recordingSQL(db) { _ = try vocabulary.upsertAndFetch(db, updating: .noColumnUnlessSpecified) }
            #expect(sql == [#"INSERT INTO "vocabulary" ("word", "kind", "isTainted") VALUES ('jovial','adjective',0) ON CONFLICT DO UPDATE SET "word" = "word" RETURNING *, "rowid""#])

            let maxed = try vocabulary.upsertAndFetch(db) { excluded in
                [Column("kind").set(to: excluded["word"])]
            }
            #expect(maxed.kind == "jovial")
        }
    }

    @Test func returningClause() throws {
        struct PartialPlayer: Encodable, PersistableRecord {
            static let databaseTableName = "player"
            var name: String
            enum Columns { static let score = Column("score") }
        }
        try inEncryptedDatabase { db in
            try createTables(db)
            var player: Player?
            var sql = try recordingSQL(db) { player = try PartialPlayer(name: "Alice").insertAndFetch(db, as: Player.self) }
            #expect(sql == [#"INSERT INTO "player" ("name") VALUES ('Alice') RETURNING *"#])
            #expect(player?.id == 1)
            #expect(player?.score == 1000)

            var score: Int?
            sql = try recordingSQL(db) {
                score = try PartialPlayer(name: "Bob").insertAndFetch(db) { statement in
                    try Int.fetchOne(statement)
                } select: {
                    [$0.score]
                }
            }
            #expect(sql == [#"INSERT INTO "player" ("name") VALUES ('Bob') RETURNING "score""#])
            #expect(score == 1000)

            var alice = try #require(player)
            alice.score = 1
            let updated = try alice.updateAndFetch(db)
            #expect(updated.score == 1)
            let changed = try alice.updateChangesAndFetch(db) { $0.score = 2 }
            #expect(changed?.score == 2)
            #expect(try alice.updateChangesAndFetch(db) { $0.score = 2 } == nil)
            let saved = try Player(id: nil, name: "Carol", score: 3).saveAndFetch(db)
            #expect(saved.id == 3)
            #expect(throws: RecordError.self) { try Player(id: 99, name: "Nobody", score: 0).updateAndFetch(db) }
        }
    }

    @Test func errorsForEmptyContainerAndUnknownTable() throws {
        struct Unknown: Codable, PersistableRecord { var id: Int }
        try inEncryptedDatabase { db in
            try createTables(db)
            let empty = #expect(throws: DatabaseError.self) { try Empty().insert(db) }
            #expect(empty?.message?.contains("invalid empty persistence container") == true)
            let unknown = #expect(throws: DatabaseError.self) { try Unknown(id: 1).insert(db) }
            #expect(unknown?.message?.contains("no such table: unknown") == true)
            #expect(throws: DatabaseError.self) { try Unknown(id: 1).update(db) }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") == 0)
        }
    }

    @Test func insertPlanFollowsTheContainerShapeAndTheSchema() throws {
        struct Flexible: PersistableRecord {
            static let databaseTableName = "player"
            var withScore: Bool
            var name: String
            func encode(to container: inout PersistenceContainer) {
                container["name"] = name
                if withScore { container["score"] = 7 }
            }
        }
        try inEncryptedDatabase { db in
            try createTables(db)
            let sql = try recordingSQL(db) {
                try Flexible(withScore: false, name: "a").insert(db)
                try Flexible(withScore: true, name: "b").insert(db)
                try Flexible(withScore: false, name: "c").insert(db)
            }
            #expect(sql == [
                #"INSERT INTO "player" ("name") VALUES ('a')"#,
                #"INSERT INTO "player" ("name", "score") VALUES ('b',7)"#,
                #"INSERT INTO "player" ("name") VALUES ('c')"#,
            ])
            // A new primary key after DDL is seen by the next update.
            try db.execute(sql: "DROP TABLE country; CREATE TABLE country (isoCode TEXT, name TEXT NOT NULL PRIMARY KEY)")
            try Country(isoCode: "FR", name: "France").insert(db)
            let updateSQL = try recordingSQL(db) { try Country(isoCode: "FX", name: "France").update(db) }
            #expect(updateSQL == [#"UPDATE "country" SET "isoCode"='FX' WHERE "name"='France'"#])
        }
    }

    @Test func placesRoundTripThroughTheSQLCipherShell() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path, configuration: keyedWithDefaultSettings("shell-pass"))
        try dbQueue.write { db in
            try createTables(db)
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
        }
        try dbQueue.close()
        let output = try SQLCipherShell.run(path, key: nil, script: """
            PRAGMA key = 'shell-pass';
            SELECT id || '|' || name || '|' || score FROM player;
            INSERT INTO player (name, score) VALUES ('Barbara', 200);
            """)
        #expect(output.contains("1|Arthur|100"))
        let reopened = try DatabaseQueue(path: path, configuration: keyedWithDefaultSettings("shell-pass"))
        try reopened.write { db in
            var barbara = try #require(try Player.fetchOne(db, sql: "SELECT * FROM player WHERE name = 'Barbara'"))
            #expect(barbara.score == 200)
            try barbara.updateChanges(db) { $0.score = 300 }
        }
        try reopened.close()
        let after = try SQLCipherShell.run(path, key: nil, script: "PRAGMA key = 'shell-pass';\nSELECT score FROM player WHERE name = 'Barbara';\n")
        #expect(after.contains("300"))
    }
}
