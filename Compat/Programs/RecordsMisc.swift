#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

/// Default table names derived from type names.
struct PlayerScore: TableRecord {}
struct URLCache: TableRecord {}
struct HTTPRequest: TableRecord {}
struct Person: TableRecord {}

/// A record with a conflict policy and a restricted selection.
struct Tag: Codable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .ignore)
    static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("name")] }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A record that reads scopes and columns by hand.
struct Summary: FetchableRecord {
    var name: String
    var total: Int
    init(row: Row) throws {
        name = try row.decode(forColumn: "name")
        total = try row.decode(forColumn: "total")
    }
}

let miscRecordPrograms: [Program] = [
    Program("records-table-names") {
        step("names") {
            [PlayerScore.databaseTableName, URLCache.databaseTableName, HTTPRequest.databaseTableName,
             Person.databaseTableName, Player.databaseTableName, LoggedPlayer.databaseTableName]
        }
        step("selection") { Tag.databaseSelection.count }
    },
    Program("records-conflict-policy") {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try quietly { try db.execute(sql: "CREATE TABLE tag (id INTEGER PRIMARY KEY, name TEXT UNIQUE, extra TEXT)") }
            var tag = Tag(id: nil, name: "swift")
            step("insert") { try tag.insert(db); return tag.id }
            var other = Tag(id: nil, name: "swift")
            step("insert replace") { try other.insert(db); return other.id }
            var third = Tag(id: nil, name: "sql")
            step("insert third") { try third.insert(db) }
            third.name = "swift"
            step("update ignore") { try third.update(db) }
            step("fetchAll selection") { try Tag.fetchAll(db).map { "\($0.id as Any) \($0.name)" } }
            step("request sql") { try Row.fetchAll(db, Tag.all()) }
            step("summary") {
                try Summary.fetchAll(db, sql: "SELECT name, COUNT(*) AS total FROM tag GROUP BY name ORDER BY name").map { "\($0.name) \($0.total)" }
            }
            step("summary missing column") { try Summary.fetchAll(db, sql: "SELECT name FROM tag") }
            step("decoding null") { try Summary.fetchAll(db, sql: "SELECT NULL AS name, 1 AS total") }
            step("Player from missing columns") { try Player.fetchAll(db, sql: "SELECT 1 AS id") }
            step("Player wrong type") { try Player.fetchAll(db, sql: "SELECT 1 AS id, 'x' AS name, 'abc' AS score, '2020-01-01' AS createdAt") }
        }
    },
    Program("readme-tour") {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.execute(sql: "INSERT INTO player (name, score, createdAt) VALUES (?, ?, ?)", arguments: ["Arthur", 100, fixedDate])
            let name = "O'Brien"
            try db.execute(literal: "INSERT INTO player (name, score, createdAt) VALUES (\(name), \(250), \(fixedDate))")
            var player = Player(id: nil, name: "Barbara", score: 1000, createdAt: fixedDate)
            try player.insert(db)
            player.score += 10
            try player.update(db)
            try player.updateChanges(db) { $0.score = 0 }
        }
        try dbQueue.read { db in
            step("best") {
                try Player.filter(Player.Columns.score > 50).order(Player.Columns.score.desc).limit(10).fetchAll(db).map(\.name)
            }
            step("closures") { try Player.filter { $0.score > 50 }.order { $0.score.desc }.limit(10).fetchAll(db).map(\.name) }
            step("find") { try Player.find(db, id: 3).name }
            step("rows") {
                try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY score DESC LIMIT ?", arguments: [10]).map { row in
                    let name: String = row["name"]
                    let createdAt: Date = row["createdAt"]
                    return "\(name) \(createdAt)"
                }
            }
            step("cached") {
                let statement = try db.cachedStatement(sql: "SELECT score FROM player WHERE name = ?")
                return try Int.fetchOne(statement, arguments: ["Arthur"])
            }
            step("count") { try Player.fetchCount(db) }
        }
    },
]
