import Foundation
import Testing
@testable import GRDBCipher

/// GRDB's chaining rules: which calls replace, which extend, and the SQL
/// they generate on an encrypted database.
@Suite struct RequestChainingTests {
    @Test func selectReplacesAndAnnotatedExtends() throws {
        try withTeamsAndPlayers { db throws in
            let request = GenPlayer
                .select(Column("id"))
                .select(Column("name"))
                .annotated(with: Column("score").forKey("points"))
                .annotated(with: SQL("1").sqlExpression.forKey("one"))
                .filter(key: 2)
            let (sql, _) = try generated(db, request)
            #expect(sql == #"SELECT "name", "score" AS "points", 1 AS "one" FROM "player" WHERE "id" = ?"#)
            #expect(try Row.fetchOne(db, request) == ["name": "Barbara", "points": 1000, "one": 1])
            let annotated = GenPlayer.annotated(with: SQL("score * 2").sqlExpression.forKey("double")).filter(key: 1)
            #expect(try generated(db, annotated).0 == #"SELECT *, score * 2 AS "double" FROM "player" WHERE "id" = ?"#)
        }
    }

    @Test func selectAsAnotherType() throws {
        try withTeamsAndPlayers { db throws in
            let names = GenPlayer.order(Column("name")).select([Column("name")], as: String.self)
            #expect(try names.fetchAll(db) == ["Arthur", "Barbara", "Craig", "Diane"])
            let total = GenPlayer.select(sql: "SUM(score) + ?", arguments: [1], as: Int.self)
            #expect(try generated(db, total).0 == #"SELECT SUM(score) + ? FROM "player""#)
            #expect(try total.fetchOne(db) == 1601)
            let bonus = 10
            let literal = GenPlayer.all().select(literal: "MAX(score) + \(bonus)", as: Int.self)
            #expect(try literal.fetchOne(db) == 1010)
        }
    }

    @Test func groupReplacesAndHavingExtends() throws {
        try withTeamsAndPlayers { db throws in
            let request = GenPlayer
                .select(Column("teamId"), SQL("COUNT(*)").sqlExpression.forKey("n"))
                .group(Column("name"))
                .group(Column("teamId"))
                // A literal operand is parenthesized, as GRDB does.
                .having(SQL("COUNT(*)").sqlExpression > 0)
                .having(sql: "MAX(score) > ?", arguments: [150])
                .order(Column("teamId"))
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT "teamId", COUNT(*) AS "n" FROM "player" GROUP BY "teamId" HAVING ((COUNT(*)) > ?) AND (MAX(score) > ?) ORDER BY "teamId""#)
            #expect(arguments == [0, 150])
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0["teamId"] as Int64? } == [nil, 1])
            #expect(rows.map { $0["n"] as Int } == [1, 2])
            let literal = GenPlayer.select(Column("teamId")).group(literal: "\(Column("teamId"))").having(literal: "COUNT(*) = \(2)")
            #expect(try generated(db, literal).0 == #"SELECT "teamId" FROM "player" GROUP BY "teamId" HAVING COUNT(*) = ?"#)
            #expect(try Int64.fetchAll(db, literal) == [1])
        }
    }

    @Test func closureFormsOverTheRecordColumns() throws {
        try withTeamsAndPlayers { db throws in
            let request = GenPlayer.all()
                .select({ $0.teamId }, as: Int64?.self)
                .asRequest(of: GenPlayer.self)
                .annotated(with: { _ in SQL("COUNT(*)").sqlExpression.forKey("n") })
                .group { $0.teamId }
                .having { _ in SQL("COUNT(*)").sqlExpression > 1 }
            #expect(try generated(db, request).0
                == #"SELECT "teamId", COUNT(*) AS "n" FROM "player" GROUP BY "teamId" HAVING (COUNT(*)) > ?"#)
            #expect(try Row.fetchAll(db, request) == [["teamId": 1, "n": 2]])
        }
    }

    @Test func countOfAGroupedRequestCountsGroups() throws {
        try withTeamsAndPlayers { db throws in
            var count = 0
            let statements = try queryInterfaceTrace(db) { () throws in
                count = try GenPlayer.select(Column("teamId")).group(Column("teamId")).order(Column("teamId")).fetchCount(db)
            }
            #expect(count == 3)
            #expect(statements == [#"SELECT COUNT(*) FROM (SELECT "teamId" FROM "player" GROUP BY "teamId")"#])
        }
    }

    @Test func countsFollowGRDB() throws {
        try withTeamsAndPlayers { db throws in
            var counts: [Int] = []
            let statements = try queryInterfaceTrace(db) { () throws in
                counts.append(try GenPlayer.order(Column("name")).fetchCount(db))
                counts.append(try GenPlayer.select(Column("teamId")).distinct().fetchCount(db))
                counts.append(try GenPlayer.all().distinct().fetchCount(db))
                counts.append(try GenPlayer.select(Column("id"), Column("name")).fetchCount(db))
                counts.append(try GenPlayer.select(Column("name").forKey("n"), Column("id")).filter(sql: "n <> 'Craig'").fetchCount(db))
                counts.append(try GenPlayer.limit(2).order(Column("id")).fetchCount(db))
            }
            #expect(counts == [4, 2, 4, 4, 3, 2])
            #expect(statements == [
                #"SELECT COUNT(*) FROM "player""#,
                #"SELECT COUNT(DISTINCT "teamId") FROM "player""#,
                #"SELECT COUNT(*) FROM (SELECT DISTINCT * FROM "player")"#,
                #"SELECT COUNT(*) FROM "player""#,
                #"SELECT COUNT(*) FROM (SELECT "name" AS "n", "id" FROM "player" WHERE n <> 'Craig')"#,
                #"SELECT COUNT(*) FROM (SELECT * FROM "player" LIMIT 2)"#,
            ])
        }
    }

    @Test func reversedReversesEachTermAndKeepsAnUnorderedRequestUnordered() throws {
        try withTeamsAndPlayers { db throws in
            let ordered = GenPlayer.order(Column("score").desc, Column("name"), Column("teamId").ascNullsLast)
            #expect(try generated(db, ordered.reversed()).0
                == #"SELECT * FROM "player" ORDER BY "score" ASC, "name" DESC, "teamId" DESC NULLS FIRST"#)
            #expect(try generated(db, ordered.reversed().reversed()).0 == (try generated(db, ordered).0))
            #expect(try generated(db, GenPlayer.all().reversed()).0 == #"SELECT * FROM "player""#)
            // A new order is not reversed by an earlier reversed().
            #expect(try generated(db, GenPlayer.all().reversed().order(Column("id"))).0
                == #"SELECT * FROM "player" ORDER BY "id""#)
            #expect(try ordered.reversed().fetchAll(db).map(\.name) == ["Craig", "Arthur", "Diane", "Barbara"])
        }
    }

    @Test func reversingAnOrderingLiteralThrows() throws {
        try withTeamsAndPlayers { db throws in
            let request = GenPlayer.order(sql: "name").reversed()
            #expect(throws: DatabaseError.self) { try request.fetchAll(db) }
        }
    }

    @Test func unorderedRemovesTheOrder() throws {
        try withTeamsAndPlayers { db throws in
            let request = GenPlayer.order(Column("name")).reversed().unordered().limit(2, offset: 1)
            #expect(try generated(db, request).0 == #"SELECT * FROM "player" LIMIT 2 OFFSET 1"#)
            #expect(try generated(db, request.limit(1)).0 == #"SELECT * FROM "player" LIMIT 1"#)
        }
    }

    @Test func untypedTableRequests() throws {
        try withTeamsAndPlayers { db throws in
            let players = Table("player")
            #expect(try players.fetchCount(db) == 4)
            let request = players.filter(Column("score") > 200).order(Column("name"))
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT * FROM "player" WHERE "score" > ? ORDER BY "name""#)
            #expect(arguments == [200])
            #expect(try request.fetchAll(db).map { $0["name"] as String } == ["Barbara", "Diane"])
            #expect(try players.select(Column("name"), as: String.self).order(Column("id")).fetchOne(db) == "Arthur")
            #expect(try players.filter(key: 2).fetchOne(db)?["name"] == "Barbara")
            #expect(try generated(db, players.filter(keys: [1, 3])).0 == #"SELECT * FROM "player" WHERE "id" IN (?, ?)"#)
            #expect(try players.filter(key: ["id": 4]).fetchCount(db) == 1)
            let typed = Table<GenTeam>("team")
            #expect(try typed.order(Column("name")).fetchAll(db).map(\.name) == ["Blues", "Greens", "Reds"])
            #expect(try typed.filter(Column("id") == 3).deleteAll(db) == 1)
            #expect(try typed.fetchCount(db) == 2)
        }
    }

    @Test func groupedRequestDeletesByPrimaryKey() throws {
        try withTeamsAndPlayers { db throws in
            // Grouped by the primary key: one row per group, deleted by key.
            let before = try GenPlayer.fetchCount(db)
            var deleted = 0
            let statements = try queryInterfaceTrace(db) { () throws in
                deleted = try GenPlayer.filter(Column("teamId") == 1).group(Column("id")).having(sql: "MAX(score) > 0").deleteAll(db)
            }
            #expect(statements == [#"DELETE FROM "player" WHERE "id" IN (SELECT "id" FROM "player" WHERE "teamId" = ? GROUP BY "id" HAVING MAX(score) > 0)"#])
            #expect(deleted > 0)
            #expect(try GenPlayer.fetchCount(db) == before - deleted)

            // Grouped by another column, a group does not say which row to
            // delete: the request throws, and nothing is deleted (GRDB stops
            // the program).
            let count = try GenPlayer.fetchCount(db)
            let error = #expect(throws: DatabaseError.self) {
                try GenPlayer.select(SQL("MIN(id)").sqlExpression).group(Column("teamId")).deleteAll(db)
            }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message == "Can't delete query with GROUP BY clause")
            #expect(try GenPlayer.fetchCount(db) == count)
            #expect(throws: DatabaseError.self) {
                try GenPlayer.all().group(Column("teamId")).updateAll(db, [Column("score").set(to: 0)])
            }

            // A bijection of the key (`-id`) and the rowid are unique keys too, as in GRDB.
            let bijections = try queryInterfaceTrace(db) { () throws in
                _ = try GenPlayer.filter(Column("id") == -1).group(-Column("id")).deleteAll(db)
                _ = try GenPlayer.filter(Column("id") == -1).group(Column.rowID).deleteAll(db)
            }
            #expect(bijections == [
                #"DELETE FROM "player" WHERE "id" IN (SELECT "id" FROM "player" WHERE "id" = ? GROUP BY -"id")"#,
                #"DELETE FROM "player" WHERE "id" IN (SELECT "id" FROM "player" WHERE "id" = ? GROUP BY "rowid")"#,
            ])
        }
    }
}
