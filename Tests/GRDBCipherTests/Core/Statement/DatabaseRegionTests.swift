import Foundation
import Testing
@testable import GRDBCipher

@Suite struct DatabaseRegionTests {
    // MARK: - Values

    @Test func emptyAndFullRegions() {
        #expect(DatabaseRegion().isEmpty)
        #expect(!DatabaseRegion().isFullDatabase)
        #expect(DatabaseRegion.fullDatabase.isFullDatabase)
        #expect(!DatabaseRegion.fullDatabase.isEmpty)
        #expect(DatabaseRegion().description == "empty")
        #expect(DatabaseRegion.fullDatabase.description == "full database")
        #expect(DatabaseRegion() != DatabaseRegion.fullDatabase)
    }

    @Test func unionMergesTablesColumnsAndRows() {
        let names = DatabaseRegion(table: "player", columns: ["name"])
        let scores = DatabaseRegion(table: "Player", columns: ["score", "Name"])
        #expect(names.union(scores).description == "player(name,score)")
        #expect(names.union(DatabaseRegion(table: "team")).description == "player(name),team(*)")
        #expect(names.union(DatabaseRegion(table: "player")).description == "player(*)")
        #expect(names.union(.fullDatabase).isFullDatabase)
        #expect(DatabaseRegion().union(names) == names)

        let rows = DatabaseRegion(table: "player", rowIDs: [2, 1])
        #expect(rows.description == "player(*)[1,2]")
        #expect(rows.union(DatabaseRegion(table: "player", rowIDs: [3])).description == "player(*)[1,2,3]")
        #expect(rows.union(DatabaseRegion(table: "player")).description == "player(*)")

        var region = DatabaseRegion()
        region.formUnion(names)
        region.formUnion(DatabaseRegion(table: "team"))
        #expect(region == names.union(DatabaseRegion(table: "TEAM")), "names compare case-insensitively")
        #expect(region != names)
    }

    @Test func isModifiedByEventKinds() {
        let region = DatabaseRegion(table: "player", columns: ["name", "score"])
        #expect(region.isModified(byEventsOfKind: .insert(tableName: "player")))
        #expect(region.isModified(byEventsOfKind: .delete(tableName: "PLAYER")))
        #expect(region.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["score", "other"])))
        #expect(!region.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["other"])))
        #expect(!region.isModified(byEventsOfKind: .insert(tableName: "team")))
        #expect(DatabaseRegion.fullDatabase.isModified(byEventsOfKind: .insert(tableName: "anything")))
        #expect(!DatabaseRegion().isModified(byEventsOfKind: .insert(tableName: "anything")))
        #expect(DatabaseRegion(table: "player", rowIDs: [1]).isModified(byEventsOfKind: .delete(tableName: "player")))
    }

    @Test func isModifiedByEvents() {
        let rows = DatabaseRegion(table: "player", rowIDs: [1, 2])
        #expect(rows.isModified(by: DatabaseEvent(kind: .update, rowID: 1, databaseName: "main", tableName: "player")))
        #expect(!rows.isModified(by: DatabaseEvent(kind: .update, rowID: 3, databaseName: "main", tableName: "player")))
        #expect(rows.isModified(by: DatabaseEvent(kind: .insert, rowID: 9, databaseName: "main", tableName: "player_fts_content")),
                "an event the region does not name counts (FTS shadow tables)")
        #expect(DatabaseRegion(table: "player").isModified(
            by: DatabaseEvent(kind: .delete, rowID: 3, databaseName: "main", tableName: "player")))
    }

    // MARK: - Statements and requests

    @Test func statementRegionIsWhatItReads() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        try dbQueue.read { (db: Database) throws in
            #expect(try db.makeStatement(sql: "SELECT name FROM player").databaseRegion.description == "player(name)")
            #expect(try db.makeStatement(sql: "SELECT * FROM player").databaseRegion.description
                == "player(id,name,score,teamId)")
            #expect(try db.makeStatement(sql: "SELECT COUNT(*) FROM player").databaseRegion.description == "player(*)")
            #expect(try db.makeStatement(sql: """
                SELECT player.name, team.name FROM player JOIN team ON team.id = player.teamId
                """).databaseRegion.description == "player(name,teamId),team(id,name)")
            #expect(try db.makeStatement(sql: "SELECT 1").databaseRegion.isEmpty)
            #expect(try db.makeStatement(sql: "PRAGMA cipher_page_size").databaseRegion.isEmpty)
        }
    }

    @Test func statementRegionWhileObserversCompileIsTheSame() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.read { (db: Database) throws in
            let statement = try db.makeStatement(sql: "SELECT name FROM player WHERE score > 0")
            #expect(statement.recordedAccesses != nil, "compiled with its accesses recorded")
            #expect(statement.databaseRegion.description == "player(name,score)")
        }
    }

    @Test func requestRegions() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        try dbQueue.read { (db: Database) throws in
            #expect(try Table("player").databaseRegion(db).description == "player(*)")
            #expect(try Table("player").select(Column("name")).databaseRegion(db).description == "player(name)")
            #expect(try SQLRequest<Row>(sql: "SELECT score FROM player").databaseRegion(db).description
                == "player(score)")
            #expect(try AnyFetchRequest(Table("team").all()).databaseRegion(db).description == "team(id,name)")
            #expect(try DatabaseRegion.fullDatabase.databaseRegion(db).isFullDatabase)
            let erased = AnyDatabaseRegionConvertible(Table("team"))
            #expect(try erased.databaseRegion(db).description == "team(*)")
        }
    }

    @Test func primaryKeyFiltersNarrowTheRegionToRows() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        try dbQueue.read { (db: Database) throws in
            let player = Table("player")
            #expect(try player.filter(Column("id") == 1).databaseRegion(db).description
                == "player(id,name,score,teamId)[1]")
            #expect(try player.filter(keys: [1, 2]).select(Column("name")).databaseRegion(db).description
                == "player(id,name)[1,2]", "the condition reads the id")
            #expect(try player.filter(key: 3).databaseRegion(db).description == "player(id,name,score,teamId)[3]")
            #expect(try player.filter(Column("rowid") == 1 || Column("id") == 4).select(Column("name"))
                .databaseRegion(db).description.hasSuffix(")[1,4]"))
            #expect(try player.filter(Column("id") == 1).filter(Column("id") == 2).databaseRegion(db).isEmpty)
            #expect(try player.none().databaseRegion(db).isEmpty)
            #expect(try player.filter(Column("score") == 1).databaseRegion(db).description
                == "player(id,name,score,teamId)", "a column that is not the rowid does not narrow")
            #expect(try player.filter(Column("id") > 1).databaseRegion(db).description
                == "player(id,name,score,teamId)")
            #expect(try player.filter(Column("id") == 1 || Column("score") == 2).select(Column("name"))
                .databaseRegion(db).description == "player(id,name,score)")
        }
    }

    @Test func rowRegionObservationIgnoresOtherRows() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, score) VALUES (1, 0), (2, 0)") }
        let count = LockedValue(0)
        let cancellable = DatabaseRegionObservation(tracking: Table("player").filter(key: 1))
            .start(in: dbQueue, onError: { _ in }, onChange: { _ in count.withLock { $0 += 1 } })
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 1 WHERE id = 2") }
        #expect(count.withLock { $0 } == 0)
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 1 WHERE id = 1") }
        #expect(count.withLock { $0 } == 1)
        withExtendedLifetime(cancellable) {}
    }

    @Test func recordingSelectedRegionUnitesWhatTheFetchesRead() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try makeObservedQueue(dir)
        try dbQueue.read { (db: Database) throws in
            // Compiled (and cached) before the recording.
            _ = try db.cachedStatement(sql: "SELECT name FROM team")
            let (count, region) = try db.recordingSelectedRegion {
                let names = try String.fetchAll(db, sql: "SELECT name FROM team")
                let (inner, innerRegion) = try db.recordingSelectedRegion {
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
                }
                #expect(innerRegion.description == "player(*)")
                return names.count + (inner ?? 0)
            }
            #expect(count == 0)
            #expect(region.description == "player(*),team(name)")
            #expect(!db.observesStatements, "the recording ended")
        }
    }
}
