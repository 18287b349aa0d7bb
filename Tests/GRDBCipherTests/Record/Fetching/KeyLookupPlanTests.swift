import Foundation
import Testing
@testable import GRDBCipher

/// A record whose table and selection a test changes while it runs.
private struct ShapeShifter: TableRecord, FetchableRecord {
    static let state = LockedValue<(table: String, selection: [any SQLSelectable])>(("player", [AllColumns()]))
    static var databaseTableName: String { state.withLock { $0.table } }
    static var databaseSelection: [any SQLSelectable] { state.withLock { $0.selection } }

    var row: Row
    init(row: Row) { self.row = row.copy() }
}

/// A player that looks up its team's captain, another player, while it
/// decodes: a lookup of the same type nested in a lookup.
private struct CaptainedPlayer: TableRecord, FetchableRecord {
    static let databaseTableName = "player"
    var name: String
    var captainName: String?

    init(row: Row) throws {
        name = row["name"]
        let captainID: Int64? = row["captainId"]
        if let captainID, let db = Self.database {
            captainName = try Self.fetchOne(db, key: captainID)?.name
        }
    }

    nonisolated(unsafe) static var database: Database?
}

@Suite("fetchOne(_:key:) through a compiled plan", .serialized)  // the tests share ShapeShifter.state
struct KeyLookupPlanTests {
    @Test("Repeated lookups run one statement, prepared once, with GRDB's SQL")
    func preparedOnce() throws {
        try withTeamsAndPlayers { db throws in
            let sql = try queryInterfaceTrace(db) { () throws in
                #expect(try GenPlayer.fetchOne(db, key: 1)?.name == "Arthur")
                #expect(try GenPlayer.fetchOne(db, key: 2)?.name == "Barbara")
                #expect(try GenPlayer.fetchOne(db, key: 99) == nil)
                #expect(try GenPlayer.fetchOne(db, key: Int?.none) == nil)
            }
            #expect(sql == Array(repeating: #"SELECT * FROM "player" WHERE "id" = ?"#, count: 3))
            let plan = try #require(db.schemaCache.recordPlans.keyLookupPlan(for: ObjectIdentifier(GenPlayer.self)))
            #expect(plan.statement.sql == #"SELECT * FROM "player" WHERE "id" = ?"#)
            _ = try GenPlayer.fetchOne(db, key: 3)
            #expect(db.schemaCache.recordPlans.keyLookupPlan(for: ObjectIdentifier(GenPlayer.self)) === plan)
            // The statement is reset after each lookup: it holds no read.
            #expect(!plan.statement.isBusy)
        }
    }

    @Test("find(_:id:) and fetchOne(_:id:) take the plan too")
    func identifiable() throws {
        struct Team: TableRecord, FetchableRecord, Decodable, Identifiable {
            var id: Int64
            var name: String
        }
        try withTeamsAndPlayers { db throws in
            #expect(try Team.find(db, id: 2).name == "Blues")
            #expect(try Team.fetchOne(db, id: 3)?.name == "Greens")
            #expect(db.schemaCache.recordPlans.keyLookupPlan(for: ObjectIdentifier(Team.self)) != nil)
            #expect(throws: RecordError.self) { try Team.find(db, id: 42) }
        }
    }

    @Test("A schema change drops the plan: `*` reads the new columns")
    func schemaChange() throws {
        try withTeamsAndPlayers { db throws in
            #expect(try ShapeShifterReset.fetch(db, key: 1).count == 4)
            try db.execute(sql: "ALTER TABLE player ADD COLUMN rank INTEGER DEFAULT 7")
            let row = try ShapeShifterReset.fetch(db, key: 1)
            #expect(row.count == 5)
            #expect(row["rank"] == 7)
        }
    }

    @Test("A record whose table or selection changes gets the SQL of its new shape")
    func changingShape() throws {
        try withTeamsAndPlayers { db throws in
            ShapeShifter.state.withLock { $0 = ("player", [AllColumns()]) }
            #expect(try ShapeShifter.fetchOne(db, key: 1)?.row.count == 4)

            ShapeShifter.state.withLock { $0.selection = [Column("name")] }
            var row = try #require(try ShapeShifter.fetchOne(db, key: 1)).row
            #expect(row.columnNames == ["name"])

            ShapeShifter.state.withLock { $0.selection = [Column("name"), Column("score")] }
            row = try #require(try ShapeShifter.fetchOne(db, key: 2)).row
            #expect(row.columnNames == ["name", "score"])
            #expect(row["score"] == 1000)

            ShapeShifter.state.withLock { $0.selection = [Column("name").forKey("label")] }
            row = try #require(try ShapeShifter.fetchOne(db, key: 2)).row
            #expect(row.columnNames == ["label"])

            // A selection with an argument is never planned, and still right.
            ShapeShifter.state.withLock { $0.selection = [Column("score") + 1] }
            row = try #require(try ShapeShifter.fetchOne(db, key: 2)).row
            #expect(row[0] == 1001)

            ShapeShifter.state.withLock { $0 = ("team", [AllColumns()]) }
            row = try #require(try ShapeShifter.fetchOne(db, key: 2)).row
            #expect(row["name"] == "Blues")
            ShapeShifter.state.withLock { $0 = ("player", [AllColumns()]) }
        }
    }

    @Test("A lookup nested in the decoding of the same type runs its own statement")
    func nested() throws {
        try withTeamsAndPlayers { db throws in
            try db.execute(sql: """
                ALTER TABLE player ADD COLUMN captainId INTEGER;
                UPDATE player SET captainId = 2 WHERE id = 1;
                """)
            CaptainedPlayer.database = db
            defer { CaptainedPlayer.database = nil }
            let player = try #require(try CaptainedPlayer.fetchOne(db, key: 1))
            #expect(player.name == "Arthur")
            #expect(player.captainName == "Barbara")
            // The outer lookup's statement was reset after the nested one.
            #expect(try CaptainedPlayer.fetchOne(db, key: 3)?.name == "Craig")
        }
    }

    @Test("NULL keys: filter(key:) is none(); exists(id:) and deleteOne(key:) run nothing")
    func nullKeys() throws {
        struct Player: TableRecord, FetchableRecord, Decodable, Identifiable {
            var id: Int64?
            var name: String
        }
        try withTeamsAndPlayers { db throws in
            let (sql, arguments) = try generated(db, Player.filter(key: Int64?.none))
            let (noneSQL, noneArguments) = try generated(db, Player.none())
            #expect(sql == noneSQL)
            #expect(arguments == noneArguments)
            let traced = try queryInterfaceTrace(db) { () throws in
                #expect(try !Player.exists(db, id: nil))
                #expect(try !Player.deleteOne(db, key: Int64?.none))
                #expect(try Player.fetchOne(db, id: nil) == nil)
            }
            #expect(traced.isEmpty)
            #expect(try Player.fetchCount(db) == 4)
        }
    }

    @Test("A missing table fails with GRDB's error, and no plan is kept")
    func missingTable() throws {
        struct Ghost: TableRecord, FetchableRecord {
            init(row: Row) {}
        }
        try withTeamsAndPlayers { db throws in
            #expect(throws: DatabaseError.self) { try Ghost.fetchOne(db, key: 1) }
            #expect(db.schemaCache.recordPlans.keyLookupPlan(for: ObjectIdentifier(Ghost.self)) == nil)
        }
    }

    @Test("Keys encoded by the record's strategies take the general path")
    func strategyKeys() throws {
        struct Event: TableRecord, FetchableRecord, Codable, PersistableRecord {
            var day: Date
            var name: String
            static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
                .timeIntervalSince1970
            }
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
                .timeIntervalSince1970
            }
        }
        try inEncryptedDatabase { db throws in
            try db.execute(sql: "CREATE TABLE event (day REAL PRIMARY KEY, name TEXT)")
            let day = Date(timeIntervalSince1970: 86400)
            try Event(day: day, name: "launch").insert(db)
            #expect(try Event.fetchOne(db, key: day)?.name == "launch")
            #expect(try Event.fetchOne(db, key: Date?.some(day))?.name == "launch")
            #expect(db.schemaCache.recordPlans.keyLookupPlan(for: ObjectIdentifier(Event.self)) == nil)
        }
    }

    @Test("Dropping the plan frees its statement and row, also for Decodable records")
    func release() throws {
        try withTeamsAndPlayers { db throws in
            #expect(try GenPlayer.fetchOne(db, key: 1)?.name == "Arthur")
            weak let row = db.schemaCache.recordPlans.keyLookupPlan(for: ObjectIdentifier(GenPlayer.self))?.row
            weak let statement = db.schemaCache.recordPlans.keyLookupPlan(for: ObjectIdentifier(GenPlayer.self))?.statement
            #expect(row != nil && statement != nil)
            db.clearSchemaCache()
            #expect(row == nil)
            #expect(statement == nil)
        }
    }

    @Test("Lookups outside a transaction see another connection's schema change")
    func otherConnection() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path, configuration: keyed("secret"))
        let other = try DatabaseQueue(path: path, configuration: keyed("secret"))
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER)")
            try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur', 100)")
        }
        try dbQueue.inDatabase { db throws in
            #expect(try ShapeShifterReset.fetch(db, key: 1).count == 3)
        }
        try other.write { db in try db.execute(sql: "ALTER TABLE player ADD COLUMN rank INTEGER DEFAULT 7") }
        try dbQueue.inDatabase { db throws in
            #expect(try ShapeShifterReset.fetch(db, key: 1)["rank"] == 7)
        }
    }
}

/// Lookups of `player` rows through a record with the default shape.
private enum ShapeShifterReset {
    static func fetch(_ db: Database, key: Int64) throws -> Row {
        ShapeShifter.state.withLock { $0 = ("player", [AllColumns()]) }
        return try #require(try ShapeShifter.fetchOne(db, key: key)).row
    }
}
