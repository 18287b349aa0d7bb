import Foundation
import Testing
@testable import GRDBCipher

/// Common table expressions: `with(_:)`, recursive ones, `contains`, and
/// CTEs used by subqueries, with the SQL GRDB generates.
@Suite struct CommonTableExpressionTests {
    private struct Answer: FetchableRecord, Decodable, Equatable {
        var value: Int
    }

    @Test func allRowsOfACommonTableExpression() throws {
        try withTeamsAndPlayers { db throws in
            let answer = CommonTableExpression<Answer>(named: "answer", sql: "SELECT ? AS value", arguments: [42])
            let request = answer.all().with(answer)
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"WITH "answer" AS (SELECT ? AS value) SELECT * FROM "answer""#)
            #expect(arguments == [42])
            #expect(try request.fetchOne(db) == Answer(value: 42))
            #expect(answer.tableName == "answer")
        }
    }

    @Test func commonTableExpressionFromARequestWithColumns() throws {
        try withTeamsAndPlayers { db throws in
            let rich = CommonTableExpression(
                named: "rich", columns: ["playerName"],
                request: GenPlayer.filter(Column("score") > 200).select(Column("name")))
            let request = rich.all().with(rich).order(Column("playerName"))
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"WITH "rich"("playerName") AS (SELECT "name" FROM "player" WHERE "score" > ?) SELECT * FROM "rich" ORDER BY "playerName""#)
            #expect(arguments == [200])
            #expect(try String.fetchAll(db, request) == ["Barbara", "Diane"])
            #expect(try request.fetchCount(db) == 2)
        }
    }

    @Test func recursiveCommonTableExpression() throws {
        try withTeamsAndPlayers { db throws in
            let counter = CommonTableExpression(
                recursive: true, named: "counter", columns: ["n"],
                literal: "SELECT \(1) UNION ALL SELECT n + 1 FROM counter WHERE n < \(5)")
            let request = counter.all().with(counter)
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"WITH RECURSIVE "counter"("n") AS (SELECT ? UNION ALL SELECT n + 1 FROM counter WHERE n < ?) SELECT * FROM "counter""#)
            #expect(arguments == [1, 5])
            #expect(try Int.fetchAll(db, request) == [1, 2, 3, 4, 5])
        }
    }

    @Test func containsAndRequestsOfOtherTables() throws {
        try withTeamsAndPlayers { db throws in
            let teamIds = CommonTableExpression(named: "teamIds", request: GenPlayer.select(Column("teamId")))
            let request = GenTeam.with(teamIds).filter(teamIds.contains(Column("id"))).order(Column("id"))
            let (sql, _) = try generated(db, request)
            #expect(sql == #"WITH "teamIds" AS (SELECT "teamId" FROM "player") SELECT * FROM "team" WHERE "id" IN "teamIds" ORDER BY "id""#)
            #expect(try request.fetchAll(db).map(\.name) == ["Reds", "Blues"])
        }
    }

    @Test func commonTableExpressionInASubquery() throws {
        try withTeamsAndPlayers { db throws in
            let best = CommonTableExpression(named: "best", sql: "SELECT MAX(score) AS score FROM player")
            let request = GenPlayer.with(best).filter(Column("score") == best.all())
            let (sql, _) = try generated(db, request)
            #expect(sql == #"WITH "best" AS (SELECT MAX(score) AS score FROM player) SELECT * FROM "player" WHERE "score" = (SELECT * FROM "best")"#)
            #expect(try request.fetchAll(db).map(\.name) == ["Barbara"])
        }
    }

    @Test func withReplacesACommonTableExpressionOfTheSameName() throws {
        try withTeamsAndPlayers { db throws in
            let first = CommonTableExpression(named: "t", sql: "SELECT 1 AS v")
            let second = CommonTableExpression(named: "T", sql: "SELECT 2 AS v")
            let request = first.all().with(first).with(second)
            #expect(try generated(db, request).0 == #"WITH "T" AS (SELECT 2 AS v) SELECT * FROM "t""#)
            #expect(try Int.fetchOne(db, request) == 2)
        }
    }

    @Test func interpolatedDefinition() throws {
        try withTeamsAndPlayers { db throws in
            let names = CommonTableExpression(named: "names", columns: ["name"], request: GenTeam.select(Column("name")))
            let request: SQLRequest<String> = "WITH \(definitionFor: names) SELECT name FROM \(names) ORDER BY name"
            let (sql, _) = try generated(db, request)
            #expect(sql == #"WITH "names"("name") AS (SELECT "name" FROM "team") SELECT name FROM "names" ORDER BY name"#)
            #expect(try request.fetchAll(db) == ["Blues", "Greens", "Reds"])
        }
    }

    @Test func undeclaredCommonTableExpressionIsADatabaseError() throws {
        try withTeamsAndPlayers { db throws in
            let missing = CommonTableExpression(named: "missing", sql: "SELECT 1")
            let error = #expect(throws: DatabaseError.self) { try missing.all().fetchAll(db) }
            #expect(error?.sql == #"SELECT * FROM "missing""#)
        }
    }
}
