import Foundation
import Testing
@testable import GRDBCipher

private struct TablePlayer: TableRecord, FetchableRecord, Decodable, Identifiable {
    static let databaseTableName = "player"
    var id: Int64?
    var name: String
}

/// `AnyFetchRequest`, the key methods of `Table`, and counting limited
/// requests.
@Suite struct AnyFetchRequestAndTableTests {
    @Test func anyFetchRequestRunsTheWrappedRequest() throws {
        try withTeamsAndPlayers { db throws in
            let request = AnyFetchRequest(GenPlayer.filter(Column("score") > 200).order(Column("id")))
            #expect(try request.fetchAll(db).map(\.name) == ["Barbara", "Diane"])
            #expect(try request.fetchOne(db)?.name == "Barbara")
            #expect(try request.fetchCount(db) == 2)
            #expect(try generated(db, request).0 == #"SELECT * FROM "player" WHERE "score" > ? ORDER BY "id""#)
            #expect(try generated(db, request, single: true).0
                == #"SELECT * FROM "player" WHERE "score" > ? ORDER BY "id" LIMIT 1"#)

            let rows: AnyFetchRequest<Row> = request.asRequest(of: Row.self)
            #expect(try rows.fetchAll(db).map { $0["id"] as Int64 } == [2, 4])
            let names = AnyFetchRequest(SQLRequest<String>(sql: "SELECT name FROM player ORDER BY id"))
            #expect(try names.fetchAll(db) == ["Arthur", "Barbara", "Craig", "Diane"])
            #expect(try names.asRequest(of: Row.self).fetchOne(db) == ["name": "Arthur"])
        }
    }

    @Test func anyFetchRequestIsASubqueryAndKeepsAdapters() throws {
        try withTeamsAndPlayers { db throws in
            let teamIds = AnyFetchRequest(GenPlayer.select(Column("teamId"), as: Int64.self))
            let teams = GenTeam.filter(teamIds.contains(Column("id"))).order(Column("id"))
            #expect(try generated(db, teams).0
                == #"SELECT * FROM "team" WHERE "id" IN (SELECT "teamId" FROM "player") ORDER BY "id""#)
            #expect(try teams.fetchAll(db).map(\.name) == ["Reds", "Blues"])

            let adapted = AnyFetchRequest(SQLRequest<Row>(
                sql: "SELECT 1 AS a, 2 AS b", adapter: SuffixRowAdapter(fromIndex: 1)))
            #expect(try adapted.fetchOne(db) == ["b": 2])
        }
    }

    @Test func tableExistenceAndDeletionByKey() throws {
        try withTeamsAndPlayers { db throws in
            try db.execute(sql: "CREATE UNIQUE INDEX playerName ON player(name)")
            let players = Table("player")
            var results: [Bool] = []
            let sql = try queryInterfaceTrace(db) { () throws in
                results.append(try players.exists(db, key: 1))
                results.append(try players.exists(db, key: 42))
                results.append(try players.exists(db, key: ["name": "Barbara"]))
                results.append(try players.deleteOne(db, key: 1))
                results.append(try players.deleteOne(db, key: 1))
                results.append(try players.deleteOne(db, key: ["name": "Barbara"]))
            }
            #expect(results == [true, false, true, true, false, true])
            #expect(sql == [
                #"SELECT EXISTS (SELECT * FROM "player" WHERE "id" = ?)"#,
                #"SELECT EXISTS (SELECT * FROM "player" WHERE "id" = ?)"#,
                #"SELECT EXISTS (SELECT * FROM "player" WHERE "name" = ?)"#,
                #"DELETE FROM "player" WHERE "id" = ?"#,
                #"DELETE FROM "player" WHERE "id" = ?"#,
                #"DELETE FROM "player" WHERE "name" = ?"#,
            ])
            #expect(try players.deleteAll(db, keys: [3, 4, 5]) == 2)
            #expect(try players.fetchCount(db) == 0)
        }
    }

    @Test func tableDeletionsByIdAndUniqueKeys() throws {
        try withTeamsAndPlayers { db throws in
            try db.execute(sql: "CREATE UNIQUE INDEX playerName ON player(name)")
            let players = Table<TablePlayer>("player")
            var nullKeySQL: [String] = []
            nullKeySQL = try queryInterfaceTrace(db) { () throws in
                // A NULL key or no key at all: the database is not touched.
                #expect(try !players.exists(db, id: nil))
                #expect(try !players.deleteOne(db, id: nil))
                #expect(try !Table("player").deleteOne(db, key: Int64?.none))
                #expect(try players.deleteAll(db, ids: []) == 0)
                #expect(try players.deleteAll(db, keys: [[String: (any DatabaseValueConvertible)?]]()) == 0)
            }
            #expect(nullKeySQL.isEmpty)
            #expect(try players.exists(db, id: 2))
            #expect(try players.deleteOne(db, id: 2))
            #expect(try !players.exists(db, id: 2))
            #expect(try players.deleteAll(db, ids: [1, 2, 3]) == 2)
            #expect(try players.deleteAll(db, keys: [["name": "Diane"], ["name": "Nobody"]]) == 1)
            #expect(try players.fetchCount(db) == 0)
        }
    }

    @Test func tablesOfValuesFetchTheFirstColumn() throws {
        try inEncryptedDatabase { db throws in
            try db.execute(sql: "CREATE TABLE tag (name TEXT); INSERT INTO tag VALUES ('b'), ('a'), ('b')")
            let tags = Table<String>("tag")
            #expect(try tags.fetchAll(db) == ["b", "a", "b"])
            #expect(try tags.fetchSet(db) == ["a", "b"])
            #expect(try tags.fetchOne(db) == "b")
            #expect(try Array(tags.fetchCursor(db)) == ["b", "a", "b"])
            #expect(try Table<Int>("tag").select(length(Column("name"))).fetchAll(db) == [1, 1, 1])
        }
    }

    @Test func countingLimitedRequestsCountsTheirRows() throws {
        try withTeamsAndPlayers { db throws in
            var counts: [Int] = []
            let sql = try queryInterfaceTrace(db) { () throws in
                counts.append(try GenPlayer.limit(2, offset: 3).fetchCount(db))
                counts.append(try GenPlayer.order(Column("name")).limit(3).fetchCount(db))
                counts.append(try GenPlayer.limit(1).limit(10, offset: 1).fetchCount(db))
                counts.append(try GenPlayer.filter(Column("score") != nil).limit(10).fetchCount(db))
            }
            #expect(counts == [1, 3, 3, 3])
            #expect(sql == [
                #"SELECT COUNT(*) FROM (SELECT * FROM "player" LIMIT 2 OFFSET 3)"#,
                #"SELECT COUNT(*) FROM (SELECT * FROM "player" LIMIT 3)"#,
                #"SELECT COUNT(*) FROM (SELECT * FROM "player" LIMIT 10 OFFSET 1)"#,
                #"SELECT COUNT(*) FROM (SELECT * FROM "player" WHERE "score" IS NOT NULL LIMIT 10)"#,
            ])
            #expect(try generated(db, GenPlayer.order(Column("name")).unordered().limit(1)).0
                == #"SELECT * FROM "player" LIMIT 1"#)
        }
    }
}
