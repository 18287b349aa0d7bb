import Foundation
import Testing
@testable import GRDBCipher

/// A player of the `RETURNING` tests, with an id.
private struct ReturnedPlayer: TableRecord, FetchableRecord, Decodable, Hashable, Identifiable {
    static let databaseTableName = "player"
    var id: Int64
    var teamId: Int64?
    var name: String
    var score: Int?

    enum Columns {
        static let id = Column("id")
        static let teamId = Column("teamId")
        static let name = Column("name")
        static let score = Column("score")
    }
}

/// `deleteAndFetch...` and `updateAndFetch...`: `DELETE`/`UPDATE ...
/// RETURNING`, on an encrypted database.
@Suite struct BatchReturningTests {
    private func names(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id")
    }

    @Test func deleteAndFetchAllReturnsTheDeletedRecords() throws {
        try withTeamsAndPlayers { db throws in
            var deleted: [ReturnedPlayer] = []
            let sql = try queryInterfaceTrace(db) { () throws in
                deleted = try ReturnedPlayer.filter { $0.score < 600 }.deleteAndFetchAll(db)
            }
            #expect(sql == [#"DELETE FROM "player" WHERE "score" < ? RETURNING *"#])
            #expect(deleted.map(\.name).sorted() == ["Arthur", "Diane"])
            #expect(try names(db) == ["Barbara", "Craig"])
        }
    }

    @Test func deleteAndFetchCursorSetAndIds() throws {
        try withTeamsAndPlayers { db throws in
            let cursor = try ReturnedPlayer.filter(key: 1).deleteAndFetchCursor(db)
            var fromCursor: [String] = []
            while let player = try cursor.next() { fromCursor.append(player.name) }
            #expect(fromCursor == ["Arthur"])

            let set = try ReturnedPlayer.filter(key: 2).deleteAndFetchSet(db)
            #expect(set.map(\.name) == ["Barbara"])

            var ids: Set<Int64> = []
            let sql = try queryInterfaceTrace(db) { () throws in
                ids = try ReturnedPlayer.all().deleteAndFetchIds(db)
            }
            #expect(sql == [#"DELETE FROM "player" RETURNING "id""#])
            #expect(ids == [3, 4])
            #expect(try names(db).isEmpty)
        }
    }

    @Test func deleteAndFetchStatementReturnsTheSelection() throws {
        try withTeamsAndPlayers { db throws in
            let statement = try GenPlayer.filter(Column("teamId") == 1).deleteAndFetchStatement(db, selection: [Column("name")])
            #expect(statement.sql == #"DELETE FROM "player" WHERE "teamId" = ? RETURNING "name""#)
            #expect(try String.fetchSet(statement) == ["Arthur", "Barbara"])

            let byClosure = try ReturnedPlayer.filter(key: 3).deleteAndFetchStatement(db) { [$0.name, $0.score] }
            #expect(byClosure.sql == #"DELETE FROM "player" WHERE "id" = ? RETURNING "name", "score""#)
            #expect(try Row.fetchAll(byClosure) == [["name": "Craig", "score": nil]])

            // `*` with excluded columns is resolved against the table.
            let excluding = try GenPlayer.all().deleteAndFetchStatement(db, selection: [.allColumns(excluding: ["teamId", "score"])])
            #expect(excluding.sql == #"DELETE FROM "player" RETURNING "id", "name""#)
            #expect(try Row.fetchAll(excluding) == [["id": 4, "name": "Diane"]])
        }
    }

    @Test func updateAndFetchAllReturnsTheUpdatedRecords() throws {
        try withTeamsAndPlayers { db throws in
            var updated: [ReturnedPlayer] = []
            let sql = try queryInterfaceTrace(db) { () throws in
                updated = try ReturnedPlayer.filter { $0.teamId == 1 }.updateAndFetchAll(db, [Column("score") += 1])
                _ = try ReturnedPlayer.filter(key: 3).updateAndFetchAll(db, onConflict: .ignore) { [$0.name.set(to: "Cyd")] }
            }
            #expect(sql == [
                #"UPDATE "player" SET "score" = "score" + ? WHERE "teamId" = ? RETURNING *"#,
                #"UPDATE OR IGNORE "player" SET "name" = ? WHERE "id" = ? RETURNING *"#,
            ])
            #expect(Set(updated.map(\.score)) == [101, 1001])
            #expect(try names(db) == ["Arthur", "Barbara", "Cyd", "Diane"])
        }
    }

    @Test func updateAndFetchCursorSetAndStatement() throws {
        try withTeamsAndPlayers { db throws in
            let cursor = try ReturnedPlayer.filter(key: 1).updateAndFetchCursor(db, [Column("score").set(to: 1)])
            #expect(try cursor.next()?.score == 1)
            #expect(try cursor.next() == nil)

            let byClosure = try ReturnedPlayer.filter(key: 2).updateAndFetchCursor(db) { [$0.score.set(to: 2)] }
            #expect(try byClosure.next()?.score == 2)

            let set = try ReturnedPlayer.filter(keys: [3, 4]).updateAndFetchSet(db, [Column("score").set(to: 3)])
            #expect(Set(set.map(\.id)) == [3, 4])
            let setByClosure = try ReturnedPlayer.filter(key: 4).updateAndFetchSet(db) { [$0.score += 1] }
            #expect(setByClosure.map(\.score) == [4])

            let statement = try GenPlayer.all().updateAndFetchStatement(
                db, onConflict: .fail, [Column("score") *= 10], selection: [Column("score")])
            #expect(statement.sql == #"UPDATE OR FAIL "player" SET "score" = "score" * ? RETURNING "score""#)
            #expect(try Int.fetchAll(statement).sorted() == [10, 20, 30, 40])

            let byClosures = try ReturnedPlayer.filter(key: 1).updateAndFetchStatement(db) {
                [$0.score.set(to: nil)]
            } select: {
                [$0.id, $0.score]
            }
            #expect(byClosures.sql == #"UPDATE "player" SET "score" = NULL WHERE "id" = ? RETURNING "id", "score""#)
            #expect(try Row.fetchAll(byClosures) == [["id": 1, "score": nil]])
        }
    }

    @Test func returningNothingOrAssigningNothingThrows() throws {
        try withTeamsAndPlayers { db throws in
            let noSelection = #expect(throws: DatabaseError.self) {
                try GenPlayer.all().deleteAndFetchStatement(db, selection: [])
            }
            #expect(noSelection?.resultCode == .SQLITE_MISUSE)
            let noAssignment = #expect(throws: DatabaseError.self) {
                try ReturnedPlayer.all().updateAndFetchAll(db, [Column("score").noOverwrite])
            }
            #expect(noAssignment?.resultCode == .SQLITE_MISUSE)
            #expect(try names(db) == ["Arthur", "Barbara", "Craig", "Diane"])
        }
    }

    @Test func anUnknownReturnedColumnThrowsWithTheSQL() throws {
        try withTeamsAndPlayers { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try GenPlayer.all().deleteAndFetchStatement(db, selection: [Column("nope")])
            }
            // SQLite quotes the name in a RETURNING clause: `no such column: "nope"`.
            #expect(error?.message?.contains("no such column") == true)
            #expect(error?.message?.contains("nope") == true)
            #expect(error?.sql == #"DELETE FROM "player" RETURNING "nope""#)
            #expect(try names(db).count == 4)
        }
    }
}
