import Foundation
import Testing
@testable import GRDBCipher

private struct Player: TableRecord, FetchableRecord, Decodable, Equatable {
    var id: Int64
    var name: String?
    var teamId: Int64?
}

private struct Team: TableRecord, FetchableRecord, Decodable, Equatable {
    var id: Int64
    var name: String
}

/// GRDB's PlayerInfo example of `splittingRowAdapters(columnCounts:)`.
private struct PlayerInfo: FetchableRecord {
    var player: Player
    var team: Team?

    init(row: Row) throws {
        player = try row["player"]
        team = try row["team"]
    }

    static func filter(playerId: Int64) -> some FetchRequest<PlayerInfo> {
        let request: SQLRequest<PlayerInfo> = """
            SELECT
                \(columnsOf: Player.self),
                \(columnsOf: Team.self)
            FROM player
            LEFT JOIN team ON team.id = player.teamId
            WHERE player.id = \(playerId)
            """
        return request.adapted { db in
            let adapters = try splittingRowAdapters(columnCounts: [
                Player.numberOfSelectedColumns(db),
                Team.numberOfSelectedColumns(db),
            ])
            return ScopeAdapter([
                "player": adapters[0],
                "team": adapters[1],
            ])
        }
    }
}

/// The examples of GRDB's `RowAdapter` documentation, with the `adapter:`
/// parameter of fetch methods and `adapted(_:)` requests.
@Suite struct ReadmeRowAdaptersTests {
    @Test func columnMappingKeepsTheUnadaptedRow() throws {
        try withReadmeDatabase { db throws in
            let adapter = ColumnMapping(["consumed": "produced"])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'Hello' AS produced", adapter: adapter))
            #expect(row.description == #"[consumed:"Hello"]"#)
            #expect(row["consumed"] == "Hello")
            #expect(row.unadapted.description == #"[produced:"Hello"]"#)
            #expect(row.debugDescription == """
                ▿ [consumed:"Hello"]
                  unadapted: [produced:"Hello"]
                """)

            let renamed = try #require(try Row.fetchOne(
                db, sql: "SELECT 0 AS a, 1 AS b, 2 AS c", adapter: ColumnMapping(["newA": "a", "newB": "b"])))
            #expect(renamed == ["newA": 0, "newB": 1])
        }
    }

    @Test func emptySuffixRangeAndRenameAdapters() throws {
        try withReadmeDatabase { db throws in
            let sql = "SELECT 0 AS a, 1 AS b, 2 AS c, 3 AS d"
            #expect(try Row.fetchOne(db, sql: sql, adapter: EmptyRowAdapter())?.isEmpty == true)
            #expect(try Row.fetchOne(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 2)) == ["c": 2, "d": 3])
            #expect(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(1..<3)) == ["b": 1, "c": 2])
            #expect(try Row.fetchOne(db, sql: sql, adapter: RenameColumnAdapter { $0 + "x" })
                == ["ax": 0, "bx": 1, "cx": 2, "dx": 3])
        }
    }

    @Test func scopesNestAndExtendAdapters() throws {
        try withReadmeDatabase { db throws in
            let sql = "SELECT 0 AS a, 1 AS b, 2 AS c, 3 AS d"
            let adapter = ScopeAdapter([
                "left": RangeRowAdapter(0..<2),
                "right": RangeRowAdapter(2..<4)])
            let row = try #require(try Row.fetchOne(db, sql: sql, adapter: adapter))
            // As in GRDB, rows compare their scopes too.
            #expect(row.unscoped == ["a": 0, "b": 1, "c": 2, "d": 3])
            #expect(row != ["a": 0, "b": 1, "c": 2, "d": 3])
            #expect(row.scopes["left"] == ["a": 0, "b": 1])
            #expect(row.scopes["right"] == ["c": 2, "d": 3])
            #expect(row.scopes["missing"] == nil)

            let nested = ScopeAdapter([
                "left": ScopeAdapter([
                    "left": RangeRowAdapter(0..<1),
                    "right": RangeRowAdapter(1..<2)]),
                "right": ScopeAdapter([
                    "left": RangeRowAdapter(2..<3),
                    "right": RangeRowAdapter(3..<4)]),
            ])
            let nestedRow = try #require(try Row.fetchOne(db, sql: sql, adapter: nested))
            let leftRow = try #require(nestedRow.scopes["left"])
            #expect(leftRow.scopes["left"] == ["a": 0])
            #expect(leftRow.scopes["right"] == ["b": 1])
            let rightRow = try #require(nestedRow.scopes["right"])
            #expect(rightRow.scopes["left"] == ["c": 2])
            #expect(rightRow.scopes["right"] == ["d": 3])

            let extended = RangeRowAdapter(0..<2).addingScopes(["remainder": SuffixRowAdapter(fromIndex: 2)])
            let extendedRow = try #require(try Row.fetchOne(db, sql: sql, adapter: extended))
            #expect(extendedRow.unscoped == ["a": 0, "b": 1])
            #expect(extendedRow.scopes["remainder"] == ["c": 2, "d": 3])
        }
    }

    @Test func splittingRowAdaptersDecodeJoinedRecords() throws {
        try withReadmeDatabase { db throws in
            let sql = """
                SELECT player.id, player.name, player.teamId, team.*
                FROM player
                LEFT JOIN team ON team.id = player.teamId
                WHERE player.id = ?
                """
            let adapters = splittingRowAdapters(columnCounts: [3, try db.columns(in: "team").count])
            #expect(adapters.count == 3)
            let adapter = ScopeAdapter(["player": adapters[0], "team": adapters[1]])
            let row = try #require(try Row.fetchOne(db, sql: sql, arguments: [1], adapter: adapter))
            #expect(row.scopes["player"] == ["id": 1, "name": "Arthur", "teamId": 1])
            #expect(row.scopes["team"] == ["id": 1, "name": "Reds"])
            let player: Player = try row["player"]
            #expect(player == Player(id: 1, name: "Arthur", teamId: 1))
            let team: Team? = try row["team"]
            #expect(team == Team(id: 1, name: "Reds"))
        }
    }

    @Test func adaptedRequestWithNumberOfSelectedColumns() throws {
        try withReadmeDatabase { db throws in
            #expect(try Team.numberOfSelectedColumns(db) == 2)
            // The README's player table has 16 columns.
            #expect(try Player.numberOfSelectedColumns(db) == 16)

            let info = try #require(try PlayerInfo.filter(playerId: 1).fetchOne(db))
            #expect(info.player.name == "Arthur")
            #expect(info.team == Team(id: 1, name: "Reds"))
            try db.execute(sql: "UPDATE player SET teamId = NULL WHERE id = 2")
            let lonely = try #require(try PlayerInfo.filter(playerId: 2).fetchOne(db))
            #expect(lonely.player.name == "Barbara")
            #expect(lonely.team == nil)
        }
    }

    @Test func numberOfSelectedColumnsFollowsTheSelection() throws {
        struct Restricted: TableRecord {
            static let databaseTableName = "player"
            static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("name").forKey("n")] }
        }
        struct AllButTwo: TableRecord {
            static let databaseTableName = "player"
            static var databaseSelection: [any SQLSelectable] { [.allColumns(excluding: ["EMAIL", "score"]), .rowID] }
        }
        try withReadmeDatabase { db throws in
            #expect(try Restricted.numberOfSelectedColumns(db) == 2)
            #expect(try AllButTwo.numberOfSelectedColumns(db) == 15)
        }
    }
}
