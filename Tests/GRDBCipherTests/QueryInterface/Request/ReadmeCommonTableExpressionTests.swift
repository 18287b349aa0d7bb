import Foundation
import Testing
@testable import GRDBCipher

private typealias Player = Readme.Player

/// GRDB's Common Table Expressions guide
/// (Documentation/CommonTableExpressions.md), on an encrypted database.
@Suite struct ReadmeCommonTableExpressionTests {
    @Test func definitionsFromRequestsAndSQL() throws {
        try withReadmeDatabase { db throws in
            let name = "O'Brien"
            let fromRequest = CommonTableExpression(named: "playerName", request: Player.select(\.name))
            let fromSQL = CommonTableExpression(named: "playerName", sql: "SELECT ?", arguments: [name])
            let fromLiteral = CommonTableExpression(named: "playerName", literal: "SELECT \(name)")
            let fromSQLRequest = CommonTableExpression(named: "playerName", request: SQLRequest<Row>("SELECT \(name)"))

            #expect(try generated(db, fromRequest.all().with(fromRequest)).0 == #"""
                WITH "playerName" AS (SELECT "name" FROM "player") SELECT * FROM "playerName"
                """#)
            #expect(try String?.fetchAll(db, fromRequest.all().with(fromRequest)) == ["Arthur", "Barbara", "Craig", nil])
            for cte in [fromSQL, fromLiteral, fromSQLRequest] {
                let request = cte.all().with(cte)
                #expect(try generated(db, request) == (
                    #"WITH "playerName" AS (SELECT ?) SELECT * FROM "playerName""#, ["O'Brien"]))
                #expect(try String.fetchAll(db, request) == ["O'Brien"])
            }
        }
    }

    @Test func explicitColumnsAndRecursion() throws {
        try withReadmeDatabase { db throws in
            let pairCTE = CommonTableExpression(named: "pair", columns: ["a", "b"], sql: "SELECT 1, 2")
            let pair = pairCTE.all().with(pairCTE)
            #expect(try generated(db, pair).0 == #"WITH "pair"("a", "b") AS (SELECT 1, 2) SELECT * FROM "pair""#)
            let row = try #require(try pair.fetchOne(db))
            #expect(row["a"] == 1)
            #expect(row["b"] == 2)

            let counterCTE = CommonTableExpression(
                recursive: true,
                named: "counter",
                columns: ["x"],
                sql: """
                    VALUES(1)
                    UNION ALL
                    SELECT x+1 FROM counter WHERE x<1000
                    """)
            let counter = counterCTE.all().with(counterCTE)
            #expect(try generated(db, counter).0.hasPrefix(#"WITH RECURSIVE "counter"("x") AS (VALUES(1)"#))
            let values = try Int.fetchAll(db, counter)
            #expect(values == Array(1...1000))
        }
    }

    @Test func embeddedInRequests() throws {
        try withReadmeDatabase { db throws in
            try db.execute(sql: "UPDATE player SET name = 'O''Brien' WHERE id = 3")
            let name = "O'Brien"
            let playerNameCTE = CommonTableExpression(named: "playerName", literal: "SELECT \(name)")
            let request = Player
                .with(playerNameCTE)
                .filter { $0.name == playerNameCTE.all() }
            #expect(try generated(db, request) == (#"""
                WITH "playerName" AS (SELECT ?) SELECT * FROM "player" \#
                WHERE "name" = (SELECT * FROM "playerName")
                """#, ["O'Brien"]))
            #expect(try readmePlayerIds(db, request) == [3])

            // with(_:) may be called at any time, and replaces a CTE of the same name.
            let late = Player.filter { $0.name == playerNameCTE.all() }.with(playerNameCTE).with(playerNameCTE)
            #expect(try generated(db, late).0 == generated(db, request).0)

            let sqlRequest: SQLRequest<Player> = """
                WITH \(definitionFor: playerNameCTE)
                SELECT * FROM player
                WHERE name = (SELECT * FROM \(playerNameCTE))
                """
            #expect(try generated(db, sqlRequest) == ("""
                WITH "playerName" AS (SELECT ?)
                SELECT * FROM player
                WHERE name = (SELECT * FROM "playerName")
                """, ["O'Brien"]))
            #expect(try sqlRequest.fetchAll(db).map(\.id) == [3])

            let sqlRequest2: SQLRequest<Player> = """
                WITH \(definitionFor: playerNameCTE)
                SELECT * FROM player
                WHERE name = (\(playerNameCTE.all()))
                """
            #expect(try generated(db, sqlRequest2).0 == """
                WITH "playerName" AS (SELECT ?)
                SELECT * FROM player
                WHERE name = (SELECT * FROM "playerName")
                """)
            #expect(try sqlRequest2.fetchAll(db).map(\.id) == [3])

            let sql = try queryInterfaceTrace(db) { () throws in
                #expect(try Player.with(playerNameCTE).filter { $0.name == playerNameCTE.all() }.deleteAll(db) == 1)
            }
            #expect(sql == [#"""
                WITH "playerName" AS (SELECT ?) DELETE FROM "player" WHERE "name" = (SELECT * FROM "playerName")
                """#])
            #expect(try Player.fetchCount(db) == 3)
        }
    }

    @Test func fetchingValuesFromCommonTableExpressions() throws {
        try withReadmeDatabase { db throws in
            let cte = CommonTableExpression(named: "good", request: Player.filter { $0.score > 500 })
            let rows = try cte.all().with(cte).fetchAll(db)
            #expect(rows.map { $0["id"] as Int64 } == [2, 4])

            let players = try cte.all().with(cte).asRequest(of: Player.self).fetchAll(db)
            #expect(players.map(\.id) == [2, 4])

            let typedCTE = CommonTableExpression<Player>(named: "good", request: Player.filter { $0.score > 500 })
            #expect(try typedCTE.all().with(typedCTE).fetchAll(db).map(\.id) == [2, 4])
            #expect(try typedCTE.all().with(typedCTE).order(Column("score").desc).fetchAll(db).map(\.id) == [4, 2])
        }
    }
}
