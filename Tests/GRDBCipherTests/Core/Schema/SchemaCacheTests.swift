import Foundation
import Testing
@testable import GRDBCipher

@Suite("Schema cache")
struct SchemaCacheTests {
    @Test func repeatedQuestionsInATransactionRunNoStatement() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: keyed("cache secret"))
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
        }
        try dbQueue.write { db in
            let first = try tracedStatements(db) {
                _ = try db.primaryKey("player")
                _ = try db.columns(in: "player")
            }
            #expect(first.contains { $0.contains("table_xinfo") })
            let again = try tracedStatements(db) {
                for _ in 0..<100 {
                    _ = try db.primaryKey("player")
                    _ = try db.columns(in: "player")
                    _ = try db.indexes(on: "player")
                    _ = try db.foreignKeys(on: "player")
                    _ = try db.tableExists("player")
                    _ = try db.table("player", hasUniqueKey: ["name"])
                    _ = try db.canonicalTableName("PLAYER")
                }
            }
            // indexes and foreign keys were not asked before: one read each.
            #expect(again.filter { $0.contains("table_xinfo") }.isEmpty)
            #expect(again.filter { $0.contains("index_list") }.count == 1)
            #expect(again.filter { $0.contains("foreign_key_list") }.count == 1)
            #expect(again.filter { $0.contains("schema_version") }.isEmpty)
        }
    }

    @Test func laterAccessesOnlyCheckTheSchemaVersion() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: keyed("cache secret"))
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            _ = try db.primaryKey("player")
        }
        for _ in 0..<3 {
            try dbQueue.write { db in
                let statements = try tracedStatements(db) {
                    for _ in 0..<10 { _ = try db.primaryKey("player") }
                }
                #expect(statements == ["PRAGMA schema_version"])
            }
        }
        // Outside of a transaction, each question checks the version.
        try dbQueue.writeWithoutTransaction { db in
            let statements = try tracedStatements(db) {
                for _ in 0..<3 { _ = try db.primaryKey("player") }
            }
            #expect(statements == Array(repeating: "PRAGMA schema_version", count: 3))
        }
    }

    @Test func schemaChangesOfTheConnectionAreSeenAtOnce() throws {
        try withEncryptedSchemaDatabase { db in
            try db.inTransaction {
                try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
                #expect(try db.columns(in: "player").map(\.name) == ["id", "name"])
                try db.execute(sql: "ALTER TABLE player ADD COLUMN score INTEGER")
                #expect(try db.columns(in: "player").map(\.name) == ["id", "name", "score"])
                try db.execute(sql: "CREATE INDEX player_score ON player(score)")
                #expect(try db.indexes(on: "player").map(\.name) == ["player_score"])
                try db.execute(sql: "ALTER TABLE player RENAME TO gamer")
                #expect(try db.tableExists("player") == false)
                #expect(try db.primaryKey("gamer").rowIDColumn == "id")
                try db.execute(sql: "DROP TABLE gamer")
                #expect(try db.tableExists("gamer") == false)
                return .commit
            }
        }
    }

    @Test func rollingBackASchemaChangeIsSeen() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)")
            try db.inTransaction {
                try db.inSavepoint {
                    try db.execute(sql: "CREATE TABLE team (id INTEGER PRIMARY KEY)")
                    try db.execute(sql: "CREATE TEMP TABLE scratch (value)")
                    #expect(try db.tableExists("team"))
                    #expect(try db.tableExists("scratch"))
                    return .rollback
                }
                #expect(try db.tableExists("team") == false)
                #expect(try db.tableExists("scratch") == false)
                try db.execute(sql: "ALTER TABLE player ADD COLUMN name TEXT")
                #expect(try db.columns(in: "player").count == 2)
                return .rollback
            }
            #expect(try db.columns(in: "player").map(\.name) == ["id"])
        }
    }

    @Test func clearSchemaCacheRereadsTheSchema() throws {
        try withEncryptedSchemaDatabase { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)")
            try db.inTransaction {
                _ = try db.columns(in: "player")
                let cached = tracedStatements(db) { _ = try? db.columns(in: "player") }
                #expect(cached.isEmpty)
                db.clearSchemaCache()
                let reread = tracedStatements(db) { _ = try? db.columns(in: "player") }
                #expect(reread.contains { $0.contains("table_xinfo") })
                return .commit
            }
        }
    }

    @Test func aPoolReaderSeesTheColumnsTheWriterAdds() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("pool.sqlite"), configuration: keyed("pool secret"))
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
        }
        #expect(try dbPool.read { try $0.columns(in: "player").map(\.name) } == ["id", "name"])
        #expect(try dbPool.read { try Row.fetchOne($0, sql: "SELECT * FROM player")?.count } == 2)
        // The writer caches its own view, too.
        #expect(try dbPool.write { try $0.primaryKey("player").columns } == ["id"])
        try dbPool.write { db in
            try db.execute(sql: "ALTER TABLE player ADD COLUMN score INTEGER")
            try db.execute(sql: "CREATE TABLE team (id INTEGER PRIMARY KEY)")
        }
        #expect(try dbPool.read { try $0.columns(in: "player").map(\.name) } == ["id", "name", "score"])
        #expect(try dbPool.read { try $0.tableExists("team") })
        // The cached `SELECT *` statement sees the new column too.
        #expect(try dbPool.read { try Row.fetchOne($0, sql: "SELECT * FROM player")?.count } == 3)
        // Every reader of the pool, not only the one that happened to read.
        let readers = DispatchGroup()
        let results = LockedValue<[[String]]>([])
        for _ in 0..<4 {
            readers.enter()
            dbPool.asyncRead { result in
                defer { readers.leave() }
                let names = (try? result.get().columns(in: "player").map(\.name)) ?? []
                results.withLock { $0.append(names) }
            }
        }
        readers.wait()
        #expect(results.withLock { $0 } == Array(repeating: ["id", "name", "score"], count: 4))
    }

    @Test func aPoolReadChecksTheSchemaWithTheSnapshotRead() throws {
        let dir = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: dir.path("pool.sqlite"), configuration: keyed("pool secret"))
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
        }
        _ = try dbPool.read { try $0.primaryKey("player") }
        try dbPool.read { db in
            let statements = try tracedStatements(db) {
                for _ in 0..<10 { _ = try db.primaryKey("player") }
            }
            #expect(statements.isEmpty)
        }
    }

    @Test func anotherQueueOnTheSameFileSeesTheNewSchema() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("shared.sqlite")
        let first = try DatabaseQueue(path: path, configuration: keyed("shared secret"))
        let second = try DatabaseQueue(path: path, configuration: keyed("shared secret"))
        try first.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
        }
        #expect(try second.read { try $0.columns(in: "player").map(\.name) } == ["id", "name"])
        #expect(try second.read { try $0.primaryKey("player").rowIDColumn } == "id")
        try first.write { db in
            try db.execute(sql: "DROP TABLE player")
            try db.execute(sql: "CREATE TABLE player (uuid TEXT PRIMARY KEY, name TEXT, score INTEGER)")
        }
        #expect(try second.read { try $0.columns(in: "player").map(\.name) } == ["uuid", "name", "score"])
        try second.writeWithoutTransaction { db in
            let primaryKey = try db.primaryKey("player")
            #expect(primaryKey.columns == ["uuid"])
            #expect(primaryKey.rowIDColumn == nil)
        }
        // Between two transactions of one access, too.
        try second.writeWithoutTransaction { db in
            try db.inTransaction {
                let exists = try db.tableExists("team")
                #expect(exists == false)
                return .commit
            }
            try first.write { db in try db.execute(sql: "CREATE TABLE team (id INTEGER PRIMARY KEY)") }
            try db.inTransaction {
                let exists = try db.tableExists("team")
                #expect(exists)
                return .commit
            }
        }
    }

    @Test func anAttachedDatabaseChangedElsewhereIsSeen() throws {
        let dir = try TemporaryDirectory()
        let archivePath = dir.path("archive.sqlite")
        let archive = try DatabaseQueue(path: archivePath, configuration: keyedWithDefaultSettings("archive secret"))
        try archive.write { db in try db.execute(sql: "CREATE TABLE item (name TEXT)") }
        let dbQueue = try DatabaseQueue(path: dir.path("main.sqlite"), configuration: keyedWithDefaultSettings("main secret"))
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS archive KEY ?", arguments: [archivePath, "archive secret"])
        }
        #expect(try dbQueue.read { try $0.columns(in: "item").map(\.name) } == ["name"])
        try archive.write { db in try db.execute(sql: "ALTER TABLE item ADD COLUMN price REAL") }
        #expect(try dbQueue.read { try $0.columns(in: "item").map(\.name) } == ["name", "price"])
    }
}
