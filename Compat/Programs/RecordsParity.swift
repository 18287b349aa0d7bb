#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

// Records on the paths that are easy to miss: saveAndFetch of an existing
// row, records on views with INSTEAD OF triggers, batch writes of grouped
// requests, the scopes of to-many associations, and decoding errors.

private struct CaptainKeys: DatabaseSchemaSource {
    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        view.name == "captain" ? ["id"] : nil
    }
}

private struct Captain: Codable, Identifiable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "captain"
    var id: String
    var name: String
    var teamId: String
}

private struct MissingColumnRecord: Decodable, FetchableRecord {
    var id: Int64
    var nickname: String
}

private struct MissingNestedRecord: Decodable, FetchableRecord {
    var player: AssocPlayerRecord
    var coach: AssocTeamRecord
}

private struct MissingRowRecord: FetchableRecord {
    var nickname: String
    init(row: Row) throws {
        nickname = try row.decode(String.self, forColumn: "nickname")
    }
}

let recordsParityPrograms: [Program] = [
    Program("records-save-and-fetch-existing") {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try quietly { try createCodablePlayerTable(db) }
            var player = Player(id: nil, name: "Arthur", score: 100, createdAt: fixedDate)
            step("insert") { try player.insert(db) }
            player.score = 200
            step("save and fetch existing") { try player.saveAndFetch(db).score }
            player.score = 300
            step("save and fetch as") { try player.saveAndFetch(db, as: Player.self).score }
            step("save and fetch selection") {
                try player.saveAndFetch(db, selection: [Column("score")]) { try Int.fetchOne($0)! }
            }
            var missing = Player(id: 42, name: "Barbara", score: 1, createdAt: fixedDate)
            step("save and fetch missing") { try missing.saveAndFetch(db, as: Player.self).id }
            step("count") { try Player.fetchCount(db) }
        }
    },
    Program("records-view-instead-of") {
        let dbQueue = try makeQueue { config in config.schemaSource = CaptainKeys() }
        try dbQueue.write { db in
            try quietly {
                try db.execute(sql: """
                    CREATE TABLE team (id TEXT PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE player (id TEXT PRIMARY KEY, name TEXT NOT NULL,
                      teamId TEXT REFERENCES team(id), isCaptain BOOLEAN NOT NULL);
                    CREATE VIEW captain AS SELECT id, name, teamId FROM player WHERE isCaptain AND teamId IS NOT NULL;
                    CREATE TRIGGER captain_insert INSTEAD OF INSERT ON captain BEGIN
                      UPDATE player SET isCaptain = 0 WHERE teamId = NEW.teamId AND isCaptain;
                      INSERT INTO player(id, name, teamId, isCaptain) VALUES (NEW.id, NEW.name, NEW.teamId, 1);
                    END;
                    CREATE TRIGGER captain_update INSTEAD OF UPDATE ON captain BEGIN
                      UPDATE player SET isCaptain = 0 WHERE teamId = NEW.teamId AND isCaptain AND id <> NEW.id;
                      UPDATE player SET name = NEW.name, teamId = NEW.teamId, isCaptain = 1 WHERE id = NEW.id;
                    END;
                    CREATE TRIGGER captain_delete INSTEAD OF DELETE ON captain BEGIN
                      DELETE FROM player WHERE id = OLD.id;
                    END;
                    INSERT INTO team VALUES ('red', 'Red'), ('blue', 'Blue');
                    """)
            }
            step("insert") { try Captain(id: "alice", name: "Alice", teamId: "red").insert(db) }
            var bob = Captain(id: "bob", name: "Bob", teamId: "blue")
            step("insert bob") { try bob.insert(db) }
            step("exists") { try bob.exists(db) }
            step("exists missing") { try Captain(id: "zoe", name: "Zoe", teamId: "red").exists(db) }
            step("update changes") {
                try bob.updateChanges(db) {
                    $0.name = "Bobby"
                    $0.teamId = "red"
                }
            }
            step("update") { try bob.update(db) }
            step("update missing") { try Captain(id: "zoe", name: "Zoe", teamId: "red").update(db) }
            step("save") { try Captain(id: "carl", name: "Carl", teamId: "blue").save(db) }
            step("captains") { try Captain.orderByPrimaryKey().fetchAll(db).map { "\($0.id) \($0.name) \($0.teamId)" } }
            step("delete one") { try Captain.deleteOne(db, id: "alice") }
            step("delete one missing") { try Captain.deleteOne(db, id: "alice") }
            step("delete") { try bob.delete(db) }
            step("delete all") { try Captain.deleteAll(db) }
            step("players") { try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY id").map(\.description) }
        }
    },
    Program("records-grouped-batch-writes") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.write { db in
            step("delete grouped by primary key") {
                try AssocPlayerRecord.all().group(Column("id")).having(max(Column("score")) < 50).deleteAll(db)
            }
            step("update grouped by primary key") {
                try AssocPlayerRecord.all().group(Column("id")).having(max(Column("score")) > 600)
                    .updateAll(db, Column("score").set(to: Column("score") + 1))
            }
            step("update grouped by rowid") {
                try AssocPlayerRecord.all().group(Column.rowID).having(count(Column("id")) > 0)
                    .updateAll(db, Column("score").set(to: Column("score") + 1))
            }
            step("delete grouped by primary key, returning") {
                try AssocPlayerRecord.all().group(Column("id")).having(max(Column("score")) < 200)
                    .deleteAndFetchAll(db).map(\.name)
            }
            step("delete table grouped by primary key") {
                try Table("player").all().group(Column("id")).having(min(Column("score")) > 1000).deleteAll(db)
            }
            step("left") { try Row.fetchAll(db, sql: "SELECT id, score FROM player ORDER BY id").map(\.description) }
        }
    },
    Program("records-to-many-scope-keys") {
        let dbQueue = try makeLibraryDatabase()
        try dbQueue.read { db in
            func keys(_ request: QueryInterfaceRequest<LibCountry>) throws -> String {
                let row = try Row.fetchOne(db, request.filter(Column("code") == "FR"))!
                return "scopes \(Array(row.scopes.names).sorted()) prefetched \(Array(row.prefetchedRows.keys).sorted())"
            }
            step("has many") { try keys(LibCountry.including(all: LibCountry.people)) }
            step("has many, joining") { try keys(LibCountry.joining(required: LibCountry.people)) }
            step("has many through") { try keys(LibCountry.including(all: LibCountry.books)) }
            step("custom key, all") {
                let association = LibCountry.hasMany(LibPerson.self, key: "citizens")
                return try keys(LibCountry.including(all: association))
            }
            step("through has one") {
                let row = try Row.fetchOne(db, LibBook.including(optional: LibBook.country).order(Column("id")))!
                return "scopes \(Array(row.scopes.names).sorted())"
            }
            step("through nested") {
                let row = try Row.fetchOne(db, LibBook.including(optional: LibBook.country.forKey("land")).order(Column("id")))!
                return "scopes \(Array(row.scopes.names).sorted())"
            }
        }
    },
    Program("records-missing-root-key") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            step("decodable missing column") {
                try MissingColumnRecord.fetchOne(db, sql: "SELECT id FROM player ORDER BY id").map(\.nickname)
            }
            step("decodable missing nested") {
                try AssocPlayerRecord.order(Column("id")).asRequest(of: MissingNestedRecord.self).fetchOne(db).map(\.coach.name)
            }
            step("decodable missing nested, joined") {
                try AssocPlayerRecord.including(required: AssocPlayerRecord.team).order(Column("id"))
                    .asRequest(of: MissingNestedRecord.self).fetchOne(db).map(\.coach.name)
            }
            step("row missing column") {
                try MissingRowRecord.fetchOne(db, sql: "SELECT id FROM player ORDER BY id").map(\.nickname)
            }
            step("row missing scope") {
                let row = try Row.fetchOne(db, sql: "SELECT id FROM player ORDER BY id")!
                return try row.decode(AssocTeamRecord.self, forKey: "team").name
            }
            step("row missing prefetch") {
                let row = try Row.fetchOne(db, sql: "SELECT id FROM player ORDER BY id")!
                return try row.decode([AssocPlayerRecord].self, forKey: "players").count
            }
        }
    },
    Program("config-labels") {
        let pool = try makePool()
        step("pool writer") { try pool.write { db in "\(db.configuration.label ?? "nil") \(db.description)" } }
        step("pool reader") { try pool.read { db in "\(db.configuration.label ?? "nil") \(db.description)" } }
        step("pool configuration") { pool.configuration.label ?? "nil" }
        let labeled = try makePool { config in config.label = "Toreador" }
        step("labeled writer") { try labeled.write { db in "\(db.configuration.label ?? "nil") \(db.description)" } }
        step("labeled reader") { try labeled.read { db in "\(db.configuration.label ?? "nil") \(db.description)" } }
        step("labeled configuration") { labeled.configuration.label ?? "nil" }
        let queue = try makeQueue()
        step("queue") { try queue.read { db in "\(db.configuration.label ?? "nil") \(db.description)" } }
        let labeledQueue = try makeQueue { config in config.label = "Toreador" }
        step("labeled queue") { try labeledQueue.read { db in "\(db.configuration.label ?? "nil") \(db.description)" } }
        step("labeled queue configuration") { labeledQueue.configuration.label ?? "nil" }
    },
]
