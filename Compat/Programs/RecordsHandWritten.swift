#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

/// A hand-written record that logs every persistence callback.
struct LoggedPlayer: FetchableRecord, MutablePersistableRecord, TableRecord {
    static let databaseTableName = "player"
    var id: Int64?
    var name: String
    var score: Int

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let score = Column("score")
    }

    init(id: Int64? = nil, name: String, score: Int) {
        self.id = id
        self.name = name
        self.score = score
    }

    init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        score = row["score"]
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["name"] = name
        container["score"] = score
    }

    mutating func willInsert(_ db: Database) throws { out("  willInsert") }
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        out("  aroundInsert before")
        let inserted = try insert()
        out("  aroundInsert after rowID=\(inserted.rowID) name=\(inserted.persistenceContainer["name"] as Any)")
    }
    mutating func didInsert(_ inserted: InsertionSuccess) {
        out("  didInsert \(inserted.rowID)")
        id = inserted.rowID
    }
    func willUpdate(_ db: Database, columns: Set<String>) throws { out("  willUpdate \(columns.sorted())") }
    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        out("  aroundUpdate before \(columns.sorted())")
        _ = try update()
        out("  aroundUpdate after")
    }
    func didUpdate(_ updated: PersistenceSuccess) { out("  didUpdate score=\(updated.persistenceContainer["score"] as Any)") }
    func willSave(_ db: Database) throws { out("  willSave") }
    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        out("  aroundSave before")
        _ = try save()
        out("  aroundSave after")
    }
    func didSave(_ saved: PersistenceSuccess) { out("  didSave") }
    func willDelete(_ db: Database) throws { out("  willDelete") }
    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        out("  aroundDelete before")
        let deleted = try delete()
        out("  aroundDelete after \(deleted)")
    }
    func didDelete(deleted: Bool) { out("  didDelete \(deleted)") }
}

func createPlayerTable(_ db: Database) throws {
    try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, score INTEGER NOT NULL DEFAULT 0)")
}

let handWrittenRecordPrograms: [Program] = [
    Program("records-callbacks") {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try quietly { try createPlayerTable(db) }
            var player = LoggedPlayer(name: "Arthur", score: 100)
            out("insert"); try player.insert(db)
            out("update"); player.score = 110; try player.update(db)
            out("update columns"); try player.update(db, columns: ["score"])
            out("update columns expressions"); try player.update(db, columns: [LoggedPlayer.Columns.name])
            out("save existing"); try player.save(db)
            out("updateChanges none"); out("  -> \(try player.updateChanges(db) { $0.score = 110 })")
            out("updateChanges"); out("  -> \(try player.updateChanges(db) { $0.score = 120 })")
            var other = LoggedPlayer(id: 42, name: "Barbara", score: 5)
            out("save missing id"); try other.save(db)
            out("exists"); out("  -> \(try other.exists(db))")
            out("delete"); out("  -> \(try other.delete(db))")
            out("delete again"); out("  -> \(try other.delete(db))")
            out("update missing"); step("  update") { try other.update(db) }
            out("inserted"); let third = try LoggedPlayer(name: "Craig", score: 1).inserted(db); out("  -> \(third.id as Any)")
            out("saved"); let fourth = try LoggedPlayer(name: "Dan", score: 2).saved(db); out("  -> \(fourth.id as Any)")
            out("insert conflict"); step("  insert") { var p = LoggedPlayer(name: "Arthur", score: 0); try p.insert(db) }
            out("insert or replace"); step("  insert") { var p = LoggedPlayer(name: "Arthur", score: 0); try p.insert(db, onConflict: .replace); return p.id }
            out("insert or ignore"); step("  insert") { var p = LoggedPlayer(name: "Arthur", score: 7); try p.insert(db, onConflict: .ignore); return p.id }
            out("upsert"); step("  upsert") { var p = LoggedPlayer(name: "Arthur", score: 8); try p.upsert(db); return p.id }
            step("rows") { try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY id") }
            step("deleteAll") { try LoggedPlayer.deleteAll(db) }
        }
    },
    Program("records-fetch-by-key") {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try quietly {
                try createPlayerTable(db)
                try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 100), (2, 'Barbara', 1000), (3, 'Craig', 10)")
                try db.execute(sql: "CREATE TABLE citizenship (citizenId INTEGER, countryCode TEXT, since INTEGER, PRIMARY KEY (citizenId, countryCode))")
                try db.execute(sql: "INSERT INTO citizenship VALUES (1, 'FR', 2000), (1, 'US', 2010)")
            }
        }
        try dbQueue.read { db in
            step("fetchOne key") { try LoggedPlayer.fetchOne(db, key: 1).map { "\($0.name)" } }
            step("fetchOne missing") { try LoggedPlayer.fetchOne(db, key: 9).map { "\($0.name)" } }
            step("fetchAll keys") { try LoggedPlayer.fetchAll(db, keys: [3, 1, 9]).map(\.name) }
            step("fetchOne unique key") { try LoggedPlayer.fetchOne(db, key: ["name": "Craig"]).map(\.score) }
            step("find") { try LoggedPlayer.find(db, key: 2).name }
            step("find missing") { try LoggedPlayer.find(db, key: 99).name }
            step("find missing unique") { try LoggedPlayer.find(db, key: ["name": "Nobody"]).name }
            step("exists key") { try LoggedPlayer.exists(db, key: 1) }
            step("exists missing") { try LoggedPlayer.exists(db, key: 12) }
            step("filter key") { try LoggedPlayer.filter(key: 1).fetchCount(db) }
            step("filter keys") { try LoggedPlayer.filter(keys: [1, 2]).order(LoggedPlayer.Columns.id.desc).fetchAll(db).map(\.name) }
            step("filter nil key") { try LoggedPlayer.filter(key: nil as Int?).fetchAll(db).count }
            step("composite key") { try Row.fetchOne(db, Table("citizenship").filter(key: ["citizenId": 1, "countryCode": "US"])) }
            step("composite keys") { try Row.fetchAll(db, Table("citizenship").filter(keys: [["citizenId": 1, "countryCode": "FR"], ["citizenId": 2, "countryCode": "FR"]])) }
            step("table exists key") { try Table("player").exists(db, key: 2) }
            step("table find") { try Row.fetchOne(db, Table("player").filter(key: 3)) }
        }
        try dbQueue.write { db in
            step("deleteOne key") { try LoggedPlayer.deleteOne(db, key: 3) }
            step("deleteOne missing") { try LoggedPlayer.deleteOne(db, key: 3) }
            step("deleteAll keys") { try LoggedPlayer.deleteAll(db, keys: [1, 5]) }
            step("deleteOne unique key") { try LoggedPlayer.deleteOne(db, key: ["name": "Barbara"]) }
            step("count") { try LoggedPlayer.fetchCount(db) }
        }
    },
    Program("records-errors") {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try quietly {
                try createPlayerTable(db)
                try db.execute(sql: "CREATE TABLE nokey (a, b)")
            }
            step("recordNotFound description") {
                RecordError.recordNotFound(databaseTableName: "player", key: ["id": 1.databaseValue]).description
            }
            step("recordNotFound composite") {
                RecordError.recordNotFound(databaseTableName: "t", key: ["b": "x".databaseValue]).description
            }
            step("update nil id") { var p = LoggedPlayer(name: "x", score: 0); p.id = nil; try p.update(db) }
            step("update missing row") { try LoggedPlayer(id: 10, name: "x", score: 0).update(db) }
            step("find missing") { try LoggedPlayer.find(db, key: 10) }
            step("not null") { var p = LoggedPlayer(name: "x", score: 0); try p.insert(db); p.id = 99; try p.insert(db) }
            step("missing table") {
                struct Missing: PersistableRecord, TableRecord {
                    func encode(to container: inout PersistenceContainer) { container["a"] = 1 }
                }
                try Missing().insert(db)
            }
            step("no primary key update") {
                struct NoKey: PersistableRecord, TableRecord {
                    static let databaseTableName = "nokey"
                    func encode(to container: inout PersistenceContainer) { container["a"] = 1; container["b"] = 2 }
                }
                try NoKey().insert(db)
                out("  rowid-keyed exists: \(try NoKey().exists(db))")
                try NoKey().update(db)
            }
        }
    },
]
