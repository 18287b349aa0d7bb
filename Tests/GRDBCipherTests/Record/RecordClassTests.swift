import Foundation
import Testing
@testable import GRDBCipher

// MARK: - Record subclasses

private class Player: Record {
    var id: Int64?
    var name: String
    var score: Int

    override class var databaseTableName: String { "player" }

    init(id: Int64? = nil, name: String, score: Int) {
        self.id = id
        self.name = name
        self.score = score
        super.init()
    }

    required init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        score = row["score"]
        try super.init(row: row)
    }

    override func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["name"] = name
        container["score"] = score
    }

    override func didInsert(_ inserted: InsertionSuccess) {
        super.didInsert(inserted)
        id = inserted.rowID
    }
}

/// A subclass of a subclass, with its own table and one more column.
private final class RankedPlayer: Player {
    var rank: Int

    override class var databaseTableName: String { "rankedPlayer" }

    init(name: String, score: Int, rank: Int) {
        self.rank = rank
        super.init(name: name, score: score)
    }

    required init(row: Row) throws {
        rank = row["rank"]
        try super.init(row: row)
    }

    override func encode(to container: inout PersistenceContainer) throws {
        try super.encode(to: &container)
        container["rank"] = rank
    }
}

/// GRDB's PartialPlayer example: a selection of some columns.
private final class PartialPlayer: Record {
    var id: Int64
    var name: String

    override class var databaseTableName: String { "player" }
    override class var databaseSelection: [any SQLSelectable] { [Column("id"), Column("name")] }

    required init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        try super.init(row: row)
    }

    override func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["name"] = name
    }
}

/// Replaces conflicting rows on insert.
private final class ReplacingPlayer: Player {
    override class var persistenceConflictPolicy: PersistenceConflictPolicy {
        PersistenceConflictPolicy(insert: .replace, update: .abort)
    }
}

/// No table name override: the name is derived from the class name.
private final class HTTPRequest: Record { }

private struct EncodingFailure: Error { }

private final class Unencodable: Player {
    override func encode(to container: inout PersistenceContainer) throws { throw EncodingFailure() }
}

private struct ValidationError: Error { }

/// Records every callback in a shared log.
private final class Log: @unchecked Sendable {   // safe: only used inside one database access
    var events: [String] = []
}

/// Overrides every callback, and calls `super` from each.
private final class LoggedPlayer: Player {
    let log = Log()
    var failWillSave = false

    init(name: String, score: Int) {
        super.init(name: name, score: score)
    }

    required init(row: Row) throws {
        try super.init(row: row)
    }

    override func willSave(_ db: Database) throws {
        try super.willSave(db)
        log.events.append("willSave")
        if failWillSave { throw ValidationError() }
    }
    override func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        log.events.append("aroundSave(before)")
        try super.aroundSave(db, save: save)
        log.events.append("aroundSave(after)")
    }
    override func didSave(_ saved: PersistenceSuccess) {
        super.didSave(saved)
        log.events.append("didSave")
    }
    override func willInsert(_ db: Database) throws {
        try super.willInsert(db)
        log.events.append("willInsert")
    }
    override func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        log.events.append("aroundInsert(before)")
        try super.aroundInsert(db, insert: insert)
        log.events.append("aroundInsert(after)")
    }
    override func didInsert(_ inserted: InsertionSuccess) {
        super.didInsert(inserted)
        log.events.append("didInsert(\(inserted.rowID))")
    }
    override func willUpdate(_ db: Database, columns: Set<String>) throws {
        try super.willUpdate(db, columns: columns)
        log.events.append("willUpdate(\(columns.sorted().joined(separator: ",")))")
    }
    override func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        log.events.append("aroundUpdate(before)")
        try super.aroundUpdate(db, columns: columns, update: update)
        log.events.append("aroundUpdate(after)")
    }
    override func didUpdate(_ updated: PersistenceSuccess) {
        super.didUpdate(updated)
        log.events.append("didUpdate")
    }
    override func willDelete(_ db: Database) throws {
        try super.willDelete(db)
        log.events.append("willDelete")
    }
    override func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        log.events.append("aroundDelete(before)")
        try super.aroundDelete(db, delete: delete)
        log.events.append("aroundDelete(after)")
    }
    override func didDelete(deleted: Bool) {
        super.didDelete(deleted: deleted)
        log.events.append("didDelete(\(deleted))")
    }
}

/// The struct of GRDB's "Record Comparison" examples.
private struct ComparedPlayer: Codable, Identifiable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    var id: Int64
    var name: String
    var score: Int
}

// MARK: - Helpers

private func createTables(_ db: Database) throws {
    try db.execute(sql: """
        CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, score INTEGER NOT NULL);
        CREATE TABLE rankedPlayer (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, rank INTEGER NOT NULL);
        """)
}

private func insertArthurAndBarbara(_ db: Database) throws {
    try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 100), (2, 'Barbara', 1000)")
}

/// Runs `body`, and returns the expanded SQL of every statement it ran.
private func allSQL(_ db: Database, _ body: () throws -> Void) throws -> [String] {
    var statements: [String] = []
    db.trace { event in
        if case .statement(let statement) = event { statements.append(statement.expandedSQL) }
    }
    defer { db.trace(nil) }
    try body()
    return statements
}

/// Runs `body`, and returns the expanded SQL of the statements it ran,
/// without schema introspection.
private func recordingSQL(_ db: Database, _ body: () throws -> Void) throws -> [String] {
    try allSQL(db, body).filter { !$0.hasPrefix("PRAGMA") && !$0.contains("sqlite_") }
}

private func insertGenerically<T: PersistableRecord>(_ record: T, _ db: Database) throws {
    try record.insert(db)
}

private func tableContent(_ db: Database) throws -> [Row] {
    try Row.fetchAll(db, sql: "SELECT id, name, score FROM player ORDER BY id")
}

// MARK: - Tests

@Suite("Record class")
struct RecordClassTests {
    // MARK: Subclass definition

    @Test func insertRunsGRDBsSQLAndStoresTheAutoIncrementedId() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            let player = Player(name: "Arthur", score: 100)
            let sql = try recordingSQL(db) { try player.insert(db) }
            #expect(sql == [#"INSERT INTO "player" ("id", "name", "score") VALUES (NULL,'Arthur',100)"#])
            #expect(player.id == 1)
            #expect(try tableContent(db) == [["id": 1, "name": "Arthur", "score": 100]])
        }
    }

    @Test func fetchesDecodeSubclassesThroughInitRow() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            try insertArthurAndBarbara(db)
            let players = try Player.fetchAll(db)
            #expect(players.map(\.name) == ["Arthur", "Barbara"])
            let barbara = try Player.find(db, key: 2)
            #expect(barbara.score == 1000)
            #expect(try Player.fetchOne(db, key: 3) == nil)
            #expect(try Player.fetchCount(db) == 2)
        }
    }

    @Test func databaseSelectionOverrideSelectsItsColumns() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            try insertArthurAndBarbara(db)
            var players: [PartialPlayer] = []
            let sql = try recordingSQL(db) { players = try PartialPlayer.fetchAll(db) }
            #expect(sql == [#"SELECT "id", "name" FROM "player""#])
            #expect(players.map(\.name) == ["Arthur", "Barbara"])
        }
    }

    @Test func persistenceConflictPolicyOverrideIsUsed() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            try insertArthurAndBarbara(db)
            let player = ReplacingPlayer(id: 1, name: "Craig", score: 5)
            let sql = try recordingSQL(db) { try player.insert(db) }
            #expect(sql == [#"INSERT OR REPLACE INTO "player" ("id", "name", "score") VALUES (1,'Craig',5)"#])
            #expect(try tableContent(db) == [
                ["id": 1, "name": "Craig", "score": 5], ["id": 2, "name": "Barbara", "score": 1000]])
        }
    }

    @Test func tableNameWithoutOverrideIsDerivedFromTheClassName() {
        #expect(HTTPRequest.databaseTableName == "httpRequest")
        #expect(Player.databaseTableName == "player")
        #expect(RankedPlayer.databaseTableName == "rankedPlayer")
    }

    // MARK: Change tracking

    @Test func newRecordHasAllColumnsAsChanges() throws {
        let player = Player(name: "Arthur", score: 100)
        #expect(player.hasDatabaseChanges)
        #expect(try player.databaseChanges == ["id": nil, "name": nil, "score": nil])
    }

    @Test func fetchedRecordHasNoChangesUntilAValueChanges() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            try insertArthurAndBarbara(db)
            let player = try Player.find(db, key: 1)
            #expect(!player.hasDatabaseChanges)
            #expect(try player.databaseChanges.isEmpty)

            player.score = 200
            #expect(player.hasDatabaseChanges)
            #expect(try player.databaseChanges == ["score": 100.databaseValue])

            // Values are compared, not assignments.
            player.score = 100
            #expect(!player.hasDatabaseChanges)
        }
    }

    @Test func recordsFetchedFromACursorKeepTheirOwnReference() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            try insertArthurAndBarbara(db)
            // The cursor row moves on: each record must have kept its values.
            let players = try Array(Player.fetchCursor(db))
            #expect(players.map(\.name) == ["Arthur", "Barbara"])
            #expect(players.allSatisfy { !$0.hasDatabaseChanges })
            let copies = try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY id").map(Player.init(row:))
            #expect(copies.allSatisfy { !$0.hasDatabaseChanges })
        }
    }

    @Test func rowBuiltFromValuesIsNoReference() throws {
        let player = try Player(row: ["id": 1, "name": "Arthur", "score": 100])
        #expect(player.hasDatabaseChanges)
        #expect(try player.databaseChanges == ["id": nil, "name": nil, "score": nil])
    }

    @Test func insertedUpdatedAndSavedRecordsHaveNoChanges() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            let player = Player(name: "Arthur", score: 100)
            try player.insert(db)
            #expect(!player.hasDatabaseChanges, "after insert")

            player.score = 200
            try player.update(db)
            #expect(!player.hasDatabaseChanges, "after update")

            player.score = 300
            try player.save(db)
            #expect(!player.hasDatabaseChanges, "after a save that updates")

            let other = Player(name: "Barbara", score: 1000)
            try other.save(db)
            #expect(other.id == 2)
            #expect(!other.hasDatabaseChanges, "after a save that inserts")

            let upserted = Player(id: 1, name: "Arthur", score: 400)
            try upserted.upsert(db)
            #expect(!upserted.hasDatabaseChanges, "after upsert")

            #expect(try tableContent(db) == [
                ["id": 1, "name": "Arthur", "score": 400], ["id": 2, "name": "Barbara", "score": 1000]])
        }
    }

    @Test func updateOfSomeColumnsForgetsTheChangesOfTheOthersAsGRDBDoes() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            try insertArthurAndBarbara(db)
            let player = try Player.find(db, key: 1)
            player.name = "Arthur II"
            player.score = 200
            try player.update(db, columns: ["score"])
            #expect(!player.hasDatabaseChanges)
            #expect(try tableContent(db)[0] == ["id": 1, "name": "Arthur", "score": 200])
        }
    }

    @Test func deletedRecordHasAllColumnsAsChangesAndCanBeSavedAgain() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            try insertArthurAndBarbara(db)
            let player = try Player.find(db, key: 1)
            #expect(try player.delete(db))
            #expect(player.hasDatabaseChanges)
            #expect(try player.databaseChanges == ["id": nil, "name": nil, "score": nil])

            try player.save(db)
            #expect(!player.hasDatabaseChanges)
            #expect(try tableContent(db).count == 2)
        }
    }

    @Test func insertAndFetchGivesARecordWithoutChanges() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            let player = Player(name: "Arthur", score: 100)
            let fetched = try player.insertAndFetch(db)
            #expect(fetched.id == 1)
            #expect(fetched !== player)
            #expect(!fetched.hasDatabaseChanges)
            #expect(!player.hasDatabaseChanges)
        }
    }

    @Test func unencodableRecordHasChangesAndDatabaseChangesThrows() {
        let player = Unencodable(name: "Arthur", score: 100)
        #expect(player.hasDatabaseChanges)
        #expect(throws: EncodingFailure.self) { try player.databaseChanges }
    }

    @Test func subclassOfSubclassTracksItsOwnColumns() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            let ranked = RankedPlayer(name: "Arthur", score: 100, rank: 3)
            #expect(try ranked.databaseChanges.keys.sorted() == ["id", "name", "rank", "score"])
            try ranked.insert(db)
            let fetched = try RankedPlayer.find(db, key: ranked.id!)
            #expect(!fetched.hasDatabaseChanges)
            fetched.rank = 1
            #expect(try fetched.databaseChanges == ["rank": 3.databaseValue])
            let sql = try recordingSQL(db) { try fetched.updateChanges(db) }
            #expect(sql == [#"UPDATE "rankedPlayer" SET "rank"=1 WHERE "id"=1"#])
        }
    }

    // MARK: updateChanges

    @Test func updateChangesWritesOnlyTheChangedColumns() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            try insertArthurAndBarbara(db)
            let player = try Player.find(db, key: 1)
            player.score = 200
            var updated = false
            let sql = try recordingSQL(db) { updated = try player.updateChanges(db) }
            #expect(updated)
            #expect(sql == [#"UPDATE "player" SET "score"=200 WHERE "id"=1"#])
            #expect(!player.hasDatabaseChanges)
            #expect(try tableContent(db)[0] == ["id": 1, "name": "Arthur", "score": 200])
        }
    }

    @Test func updateChangesWithoutChangeRunsNoSQL() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            try insertArthurAndBarbara(db)
            let player = try Player.find(db, key: 1)
            var updated = true
            let sql = try allSQL(db) { updated = try player.updateChanges(db) }
            #expect(!updated)
            #expect(sql.isEmpty, "no statement at all, not even schema introspection: \(sql)")
        }
    }

    @Test func updateChangesOfAMissingRowThrowsRecordNotFound() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            let player = Player(id: 42, name: "Nobody", score: 0)
            #expect {
                try player.updateChanges(db)
            } throws: { error in
                guard case let RecordError.recordNotFound(databaseTableName: table, key: key) = error else { return false }
                return table == "player" && key == ["id": 42.databaseValue]
            }
            #expect(player.hasDatabaseChanges)
            #expect(try tableContent(db).isEmpty)
        }
    }

    // MARK: Callbacks

    @Test func overriddenCallbacksRunInGRDBsOrderForInsert() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            let player = LoggedPlayer(name: "Arthur", score: 100)
            try player.insert(db)
            #expect(player.log.events == [
                "willSave", "aroundSave(before)", "willInsert", "aroundInsert(before)", "aroundInsert(after)",
                "didInsert(1)", "aroundSave(after)", "didSave",
            ])
            #expect(player.id == 1)
            #expect(!player.hasDatabaseChanges)
        }
    }

    @Test func overriddenCallbacksRunInGRDBsOrderForUpdateChangesSaveAndDelete() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            let player = LoggedPlayer(name: "Arthur", score: 100)
            try player.insert(db)

            player.log.events = []
            player.score = 200
            try player.updateChanges(db)
            #expect(player.log.events == [
                "willSave", "aroundSave(before)", "willUpdate(score)", "aroundUpdate(before)", "aroundUpdate(after)",
                "didUpdate", "aroundSave(after)", "didSave",
            ])

            player.log.events = []
            try player.save(db)
            #expect(player.log.events == [
                "willSave", "aroundSave(before)", "willUpdate(id,name,score)", "aroundUpdate(before)",
                "aroundUpdate(after)", "didUpdate", "aroundSave(after)", "didSave",
            ])

            player.log.events = []
            try player.delete(db)
            #expect(player.log.events == ["willDelete", "aroundDelete(before)", "aroundDelete(after)", "didDelete(true)"])
            #expect(player.hasDatabaseChanges)
        }
    }

    @Test func callbacksDispatchDynamicallyThroughGenericsAndBaseClassVariables() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            let logged = LoggedPlayer(name: "Arthur", score: 100)
            try insertGenerically(logged, db)
            #expect(logged.log.events.contains("didInsert(1)"))
            #expect(logged.id == 1)

            // Seen as its base class, a record keeps its table and columns.
            let ranked = RankedPlayer(name: "Barbara", score: 1000, rank: 2)
            let asRecord: Record = ranked
            let sql = try recordingSQL(db) { try asRecord.insert(db) }
            #expect(sql == [#"INSERT INTO "rankedPlayer" ("id", "name", "score", "rank") VALUES (NULL,'Barbara',1000,2)"#])
            #expect(ranked.id == 1)
            #expect(!asRecord.hasDatabaseChanges)

            let asPlayer: Player = ranked
            ranked.rank = 1
            try asPlayer.update(db)
            #expect(try Int.fetchOne(db, sql: "SELECT rank FROM rankedPlayer") == 1)
            #expect(try asPlayer.exists(db))
            #expect(try asRecord.delete(db))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM rankedPlayer") == 0)
        }
    }

    @Test func validationErrorInWillSaveWritesNothingAndKeepsTheChanges() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            let player = LoggedPlayer(name: "Arthur", score: 100)
            player.failWillSave = true
            #expect(throws: ValidationError.self) { try player.insert(db) }
            #expect(player.log.events == ["willSave"])
            #expect(player.id == nil)
            #expect(player.hasDatabaseChanges)
            #expect(try tableContent(db).isEmpty)
        }
    }

    // MARK: Record Comparison (GRDB README)

    @Test func readmeUpdateChangesFrom() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            try insertArthurAndBarbara(db)
            let oldPlayer = try #require(try ComparedPlayer.fetchOne(db, id: 1))
            var newPlayer = oldPlayer
            newPlayer.score = 100   // the stored score: no change
            var modified = true
            let noSQL = try allSQL(db) { modified = try newPlayer.updateChanges(db, from: oldPlayer) }
            #expect(!modified)
            #expect(noSQL.isEmpty, "player was not modified, and database was not hit")

            newPlayer.score = 150
            let sql = try recordingSQL(db) { modified = try newPlayer.updateChanges(db, from: oldPlayer) }
            #expect(modified)
            #expect(sql == [#"UPDATE "player" SET "score"=150 WHERE "id"=1"#])
        }
    }

    @Test func readmeUpdateChangesModify() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            try insertArthurAndBarbara(db)
            var player = try #require(try ComparedPlayer.fetchOne(db, id: 2))
            let modified = try player.updateChanges(db) { $0.score = 100 }
            #expect(modified)
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player WHERE id = 2") == 100)
            var modifiedAgain = true
            let again = try allSQL(db) { modifiedAgain = try player.updateChanges(db) { $0.score = 100 } }
            #expect(!modifiedAgain)
            #expect(again.isEmpty)
        }
    }

    @Test func readmeDatabaseEquals() throws {
        try inEncryptedDatabase { db in
            try createTables(db)
            let oldPlayer = ComparedPlayer(id: 1, name: "Arthur", score: 100)
            try oldPlayer.insert(db)
            var newPlayer = oldPlayer
            #expect(newPlayer.databaseEquals(oldPlayer))
            newPlayer.score = 1000
            if newPlayer.databaseEquals(oldPlayer) == false {
                try newPlayer.save(db)
            }
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player") == 1000)

            // The same comparison between Record instances.
            let arthur = Player(id: 1, name: "Arthur", score: 100)
            #expect(arthur.databaseEquals(Player(id: 1, name: "Arthur", score: 100)))
            #expect(!arthur.databaseEquals(Player(id: 1, name: "Arthur", score: 1000)))
        }
    }

    @Test func readmeDatabaseChangesFrom() throws {
        let oldPlayer = ComparedPlayer(id: 1, name: "Arthur", score: 100)
        let newPlayer = ComparedPlayer(id: 1, name: "Arthur", score: 1000)
        var printed: [String] = []
        for (column, oldValue) in try newPlayer.databaseChanges(from: oldPlayer) {
            printed.append("\(column) was \(oldValue)")
        }
        #expect(printed == ["score was 100"])

        let oldRecord = Player(id: 1, name: "Arthur", score: 100)
        let newRecord = Player(id: 1, name: "Arthur", score: 1000)
        #expect(try newRecord.databaseChanges(from: oldRecord) == ["score": 100.databaseValue])
    }
}
