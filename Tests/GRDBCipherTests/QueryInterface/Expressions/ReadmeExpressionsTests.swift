import Foundation
import Testing
@testable import GRDBCipher

private typealias Player = Readme.Player
private typealias Team = Readme.Team
private typealias Planet = Readme.Planet
private typealias Rectangle = Readme.Rectangle
private typealias Game = Readme.Game
private typealias PlayerSelection = Readme.PlayerSelection

/// The README's `date` function, built from an expression literal.
private func date(_ value: some SQLSpecificExpressible) -> SQLExpression {
    SQL("DATE(\(value))").sqlExpression
}

/// Every example of the README's "Expressions" chapter (SQL operators and
/// SQL functions) and of "Embedding SQL in Query Interface Requests".
@Suite struct ReadmeExpressionsTests {
    @Test func comparisonOperators() throws {
        try withReadmeDatabase { db throws in
            var (sql, arguments) = try generated(db, Player.filter { $0.name == "Arthur" })
            #expect(sql == #"SELECT * FROM "player" WHERE "name" = ?"#)
            #expect(arguments == ["Arthur"])

            (sql, arguments) = try generated(db, Player.filter { $0.name == nil })
            #expect(sql == #"SELECT * FROM "player" WHERE "name" IS NULL"#)
            #expect(arguments.isEmpty)
            #expect(try readmePlayerIds(db, Player.filter { $0.name == nil }) == [4])

            (sql, arguments) = try generated(db, Player.filter { $0.score === 1000 })
            #expect(sql == #"SELECT * FROM "player" WHERE "score" IS ?"#)
            #expect(arguments == [1000])
            #expect(try readmePlayerIds(db, Player.filter { $0.score === 1000 }) == [2])

            let rectangles = Rectangle.filter { $0.width < $0.height }
            #expect(try generated(db, rectangles).0 == #"SELECT * FROM "rectangle" WHERE "width" < "height""#)
            #expect(try rectangles.fetchAll(db).map(\.width) == [1])
        }
    }

    @Test func comparisonWithSubqueries() throws {
        try withReadmeDatabase { db throws in
            let maximumScore = Player.select { max($0.score) }
            let request = Player.filter { $0.score == maximumScore }
            #expect(try generated(db, request).0 == #"""
                SELECT * FROM "player" WHERE "score" = (SELECT MAX("score") FROM "player")
                """#)
            #expect(try readmePlayerIds(db, request) == [4])

            let sqlMaximumScore = SQLRequest<Row>("SELECT max(score) FROM player")
            let request2 = Player.filter { $0.score == sqlMaximumScore }
            #expect(try generated(db, request2).0 == #"""
                SELECT * FROM "player" WHERE "score" = (SELECT max(score) FROM player)
                """#)
            #expect(try readmePlayerIds(db, request2) == [4])
        }
    }

    @Test func arithmeticOperators() throws {
        try withReadmeDatabase { db throws in
            let fahrenheit = Planet.select { ($0.temperature * 1.8 + 32).forKey("fahrenheit") }
            let (sql, arguments) = try generated(db, fahrenheit)
            #expect(sql == #"SELECT ("temperature" * ?) + ? AS "fahrenheit" FROM "planet""#)
            #expect(arguments == [1.8, 32])
            #expect(try Double.fetchAll(db, fahrenheit) == [167.0 * 1.8 + 32, -110.0 * 1.8 + 32])

            let total = Player.select { [$0.score, $0.bonus, 1000.databaseValue].joined(operator: .add) }
            let (totalSQL, totalArguments) = try generated(db, total)
            #expect(totalSQL == #"SELECT "score" + "bonus" + ? FROM "player""#)
            #expect(totalArguments == [1000])
            #expect(try Int?.fetchAll(db, total) == [1110, 2000, nil, 3005])

            let emptySum = Player.select([any SQLSpecificExpressible]().joined(operator: .add), as: Int.self).limit(1)
            #expect(try emptySum.fetchOne(db) == 0)
            let emptyProduct = Player.select([any SQLSpecificExpressible]().joined(operator: .multiply), as: Int.self).limit(1)
            #expect(try emptyProduct.fetchOne(db) == 1)
        }
    }

    @Test func bitwiseOperators() throws {
        try withReadmeDatabase { db throws in
            let request = Planet.select { ($0.mask & 2).forKey("isRocky") }
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT "mask" & ? AS "isRocky" FROM "planet""#)
            #expect(arguments == [2])
            #expect(try Int.fetchAll(db, request) == [2, 0])
        }
    }

    @Test func concatenation() throws {
        try withReadmeDatabase { db throws in
            let request = Player.select {
                [$0.firstName, " ".databaseValue, $0.lastName].joined(operator: .concat)
            }
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT "firstName" || ? || "lastName" FROM "player""#)
            #expect(arguments == [" "])
            #expect(try String?.fetchAll(db, request) == ["Arthur Smith", "Barbara Jones", "Craig Brown", nil])
            let empty = Player.select([any SQLSpecificExpressible]().joined(operator: .concat), as: String.self).limit(1)
            #expect(try empty.fetchOne(db) == "")
        }
    }

    @Test func logicalOperators() throws {
        try withReadmeDatabase { db throws in
            let request = Player.filter { !$0.isVerified || $0.score < 1000 }
            var (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT * FROM "player" WHERE (NOT "isVerified") OR ("score" < ?)"#)
            #expect(arguments == [1000])
            #expect(try readmePlayerIds(db, request) == [1, 2, 3])

            let joined = Player.filter { [$0.isVerified, $0.score >= 1000, $0.name != nil].joined(operator: .and) }
            (sql, arguments) = try generated(db, joined)
            #expect(sql == #"""
                SELECT * FROM "player" WHERE "isVerified" AND ("score" >= ?) AND ("name" IS NOT NULL)
                """#)
            #expect(arguments == [1000])
            #expect(try readmePlayerIds(db, joined).isEmpty)

            #expect(try Player.filter([any SQLSpecificExpressible]().joined(operator: .and)).fetchCount(db) == 4)
            #expect(try Player.filter([any SQLSpecificExpressible]().joined(operator: .or)).fetchCount(db) == 0)
        }
    }

    @Test func inclusionInSequencesAndRanges() throws {
        try withReadmeDatabase { db throws in
            var (sql, arguments) = try generated(db, Player.filter { ![1, 2, 3].contains($0.id) })
            #expect(sql == #"SELECT * FROM "player" WHERE "id" NOT IN (?, ?, ?)"#)
            #expect(arguments == [1, 2, 3])
            #expect(try readmePlayerIds(db, Player.filter { ![1, 2, 3].contains($0.id) }) == [4])

            (sql, arguments) = try generated(db, Player.filter { (0...1000).contains($0.score) })
            #expect(sql == #"SELECT * FROM "player" WHERE "score" BETWEEN ? AND ?"#)
            #expect(arguments == [0, 1000])
            #expect(try readmePlayerIds(db, Player.filter { (0...1000).contains($0.score) }) == [1, 2])

            (sql, arguments) = try generated(db, Player.filter { (0..<1000).contains($0.score) })
            #expect(sql == #"SELECT * FROM "player" WHERE ("score" >= ?) AND ("score" < ?)"#)
            #expect(arguments == [0, 1000])
            #expect(try readmePlayerIds(db, Player.filter { (0..<1000).contains($0.score) }) == [1])

            (sql, arguments) = try generated(db, Player.filter { ("A"..."N").contains($0.initial) })
            #expect(sql == #"SELECT * FROM "player" WHERE "initial" BETWEEN ? AND ?"#)
            #expect(arguments == ["A", "N"])
            #expect(try readmePlayerIds(db, Player.filter { ("A"..."N").contains($0.initial) }) == [1, 2, 3, 4])

            (sql, arguments) = try generated(db, Player.filter { ("A"..<"N").contains($0.initial) })
            #expect(sql == #"SELECT * FROM "player" WHERE ("initial" >= ?) AND ("initial" < ?)"#)
            #expect(try readmePlayerIds(db, Player.filter { ("A"..<"N").contains($0.initial) }) == [1, 2, 3])

            // Empty sequences: IN () matches nothing, NOT IN () everything.
            let none = Player.filter { [Int]().contains($0.id) }
            #expect(try readmePlayerIds(db, none).isEmpty)
            let all = Player.filter { ![Int]().contains($0.id) }
            #expect(try readmePlayerIds(db, all) == [1, 2, 3, 4])
        }
    }

    @Test func inclusionInSubqueriesAndCommonTableExpressions() throws {
        try withReadmeDatabase { db throws in
            let selectedPlayerIds = PlayerSelection.select(\.playerId)
            let request = Player.filter { selectedPlayerIds.contains($0.id) }
            #expect(try generated(db, request).0 == #"""
                SELECT * FROM "player" WHERE "id" IN (SELECT "playerId" FROM "playerSelection")
                """#)
            #expect(try readmePlayerIds(db, request) == [2, 4])

            let sqlSelectedPlayerIds = SQLRequest<Row>("SELECT playerId FROM playerSelection")
            let request2 = Player.filter { sqlSelectedPlayerIds.contains($0.id) }
            #expect(try generated(db, request2).0 == #"""
                SELECT * FROM "player" WHERE "id" IN (SELECT playerId FROM playerSelection)
                """#)
            #expect(try readmePlayerIds(db, request2) == [2, 4])

            let cte = CommonTableExpression(named: "selectedName", sql: "SELECT 'Craig'")
            let request3 = Player.with(cte).filter { cte.contains($0.name) }
            #expect(try generated(db, request3).0 == #"""
                WITH "selectedName" AS (SELECT 'Craig') SELECT * FROM "player" WHERE "name" IN "selectedName"
                """#)
            #expect(try readmePlayerIds(db, request3) == [3])
        }
    }

    @Test func existsAndNotExists() throws {
        try withReadmeDatabase { db throws in
            let teamAlias = TableAlias<Team>()
            let player = Player.filter { $0.teamId == teamAlias.id }
            let teams = Team.aliased(teamAlias).filter(player.exists())
            #expect(try generated(db, teams).0 == #"""
                SELECT * FROM "team" WHERE EXISTS (SELECT * FROM "player" WHERE "teamId" = "team"."id")
                """#)
            #expect(try teams.fetchAll(db).map(\.name) == ["Reds", "Blues"])

            let lonelyTeams = Team.aliased(teamAlias).filter(!player.exists())
            #expect(try generated(db, lonelyTeams).0 == #"""
                SELECT * FROM "team" WHERE NOT EXISTS (SELECT * FROM "player" WHERE "teamId" = "team"."id")
                """#)
            #expect(try lonelyTeams.fetchAll(db).map(\.name) == ["Greens"])

            let coachAlias = TableAlias<Player>(name: "coach")
            let coachedPlayer = Player.filter { $0.coachId == coachAlias.id }
            let coaches = Player.aliased(coachAlias).filter(coachedPlayer.exists())
            #expect(try generated(db, coaches).0 == #"""
                SELECT "coach".* FROM "player" "coach" \#
                WHERE EXISTS (SELECT * FROM "player" WHERE "coachId" = "coach"."id")
                """#)
            #expect(try readmePlayerIds(db, coaches) == [1])

            let sqlCoachedPlayer = SQLRequest<Row>("SELECT * FROM player WHERE coachId = \(coachAlias.id)")
            let sqlCoaches = Player.aliased(coachAlias).filter(sqlCoachedPlayer.exists())
            #expect(try generated(db, sqlCoaches).0 == #"""
                SELECT "coach".* FROM "player" "coach" \#
                WHERE EXISTS (SELECT * FROM player WHERE coachId = "coach"."id")
                """#)
            #expect(try readmePlayerIds(db, sqlCoaches) == [1])
        }
    }

    @Test func like() throws {
        try withReadmeDatabase { db throws in
            var (sql, arguments) = try generated(db, Player.filter { $0.email.like("%@example.com") })
            #expect(sql == #"SELECT * FROM "player" WHERE "email" LIKE ?"#)
            #expect(arguments == ["%@example.com"])
            #expect(try readmePlayerIds(db, Player.filter { $0.email.like("%@example.com") }) == [1, 2, 4])

            (sql, arguments) = try generated(db, Player.filter { $0.email.like("%10\\%%", escape: "\\") })
            #expect(sql == #"SELECT * FROM "player" WHERE "email" LIKE ? ESCAPE ?"#)
            #expect(arguments == ["%10\\%%", "\\"])
            #expect(try readmePlayerIds(db, Player.filter { $0.email.like("%10\\%%", escape: "\\") }).isEmpty)
        }
    }

    @Test func aliasesAndDetachedColumns() throws {
        try withReadmeDatabase { db throws in
            let total = Player.select { ($0.score + $0.bonus).forKey("total") }
            #expect(try generated(db, total).0 == #"SELECT "score" + "bonus" AS "total" FROM "player""#)

            let ordered = Player
                .select { ($0.score + $0.bonus).forKey("total") }
                .order(Column("total").detached)
            #expect(try generated(db, ordered).0 == #"SELECT "score" + "bonus" AS "total" FROM "player" ORDER BY "total""#)
            #expect(try Int?.fetchAll(db, ordered) == [nil, 110, 1000, 2005])

            // A detached column is never qualified with a table name.
            let alias = TableAlias(name: "p")
            let aliased = Table("player").aliased(alias)
                .select((Column("score") + Column("bonus")).forKey("total"))
                .order(Column("total").detached.desc)
            #expect(try generated(db, aliased).0 == #"""
                SELECT "p"."score" + "p"."bonus" AS "total" FROM "player" "p" ORDER BY "total" DESC
                """#)
        }
    }

    @Test func aggregateAndDateFunctions() throws {
        try withReadmeDatabase { db throws in
            let minMax = Player.select { [min($0.score), max($0.score)] }
            #expect(try generated(db, minMax).0 == #"SELECT MIN("score"), MAX("score") FROM "player""#)
            let row = try #require(try Row.fetchOne(db, minMax))
            #expect(row[0] == 100)
            #expect(row[1] == 2000)

            let countNames = Player.select { count($0.name) }
            #expect(try generated(db, countNames).0 == #"SELECT COUNT("name") FROM "player""#)
            #expect(try Int.fetchOne(db, countNames) == 3)

            let countDistinct = Player.select { count(distinct: $0.team) }
            #expect(try generated(db, countDistinct).0 == #"SELECT COUNT(DISTINCT "team") FROM "player""#)
            #expect(try Int.fetchOne(db, countDistinct) == 2)

            let day = Game.select { julianDay($0.date, .startOfYear) }
            let (sql, arguments) = try generated(db, day)
            #expect(sql == #"SELECT JULIANDAY("date", ?) FROM "game""#)
            #expect(arguments == ["start of year"])
            #expect(try Double.fetchOne(db, day) == 2459215.5)
        }
    }

    @Test func castAndIfNull() throws {
        try withReadmeDatabase { db throws in
            let successRate = Player.select { (cast($0.wins, as: .real) / $0.games).forKey("successRate") }
            #expect(try generated(db, successRate).0 == #"""
                SELECT CAST("wins" AS REAL) / "games" AS "successRate" FROM "player"
                """#)
            #expect(try Double.fetchAll(db, successRate) == [0.75, 0.5, 0, 1])

            var (sql, arguments) = try generated(db, Player.select { $0.name ?? "Anonymous" })
            #expect(sql == #"SELECT IFNULL("name", ?) FROM "player""#)
            #expect(arguments == ["Anonymous"])
            #expect(try String.fetchAll(db, Player.select { $0.name ?? "Anonymous" }).last == "Anonymous")

            (sql, arguments) = try generated(db, Player.select { $0.name ?? $0.email })
            #expect(sql == #"SELECT IFNULL("name", "email") FROM "player""#)
            #expect(try String.fetchAll(db, Player.select { $0.name ?? $0.email }).last == "diane@example.com")
        }
    }

    @Test func unicodeAwareCaseFunctionsAndCollations() throws {
        try withReadmeDatabase { db throws in
            // The README writes `uppercased()`; GRDB declares a property.
            let upper = Player.select { $0.name.uppercased }.filter { $0.id == 1 }
            #expect(try String.fetchOne(db, upper) == "ARTHUR")

            let name = "arthur"
            let notRecommended = Player.filter { $0.name.uppercased == name.uppercased() }
            #expect(try readmePlayerIds(db, notRecommended) == [1])
            let better = Player.filter { $0.name.collating(.caseInsensitiveCompare) == name }
            #expect(try generated(db, better).0 == #"""
                SELECT * FROM "player" WHERE "name" = ? COLLATE swiftCaseInsensitiveCompare
                """#)
            #expect(try readmePlayerIds(db, better) == [1])
        }
    }

    @Test func customFunctions() throws {
        try withReadmeDatabase { db throws in
            let myFunction = DatabaseFunction("myFunction", argumentCount: 1, pure: true) { dbValues in
                String.fromDatabaseValue(dbValues[0]).map { "my" + $0 }
            }
            db.add(function: myFunction)
            let request = Player.select { myFunction($0.name) }
            #expect(try generated(db, request).0 == #"SELECT myFunction("name") FROM "player""#)
            #expect(try String?.fetchAll(db, request) == ["myArthur", "myBarbara", "myCraig", nil])
        }
    }

    @Test func embeddingSQLInTheSelection() throws {
        try withReadmeDatabase { db throws in
            let raw = Player.select(sql: "IFNULL(name, 'O''Brien'), score")
            #expect(try generated(db, raw).0 == #"SELECT IFNULL(name, 'O''Brien'), score FROM "player""#)

            let defaultName = "O'Brien"
            let withArguments = Player.select(sql: "IFNULL(name, ?), score", arguments: [defaultName])
            var (sql, arguments) = try generated(db, withArguments)
            #expect(sql == #"SELECT IFNULL(name, ?), score FROM "player""#)
            #expect(arguments == ["O'Brien"])
            #expect(try String.fetchAll(db, withArguments).last == "O'Brien")

            let literal = Player.select(literal: "IFNULL(name, \(defaultName)), score")
            (sql, arguments) = try generated(db, literal)
            #expect(sql == #"SELECT IFNULL(name, ?), score FROM "player""#)
            #expect(arguments == ["O'Brien"])

            let mixed = Player.select {
                let displayName: SQL = "IFNULL(\($0.name), \(defaultName)) AS displayName"
                return [displayName, $0.score]
            }
            (sql, arguments) = try generated(db, mixed)
            #expect(sql == #"SELECT IFNULL("name", ?) AS displayName, "score" FROM "player""#)
            #expect(arguments == ["O'Brien"])

            let expressionLiteral = Player.select {
                let displayName = SQL("IFNULL(\($0.name), \(defaultName))").sqlExpression
                return [displayName.forKey("displayName"), $0.score]
            }
            (sql, arguments) = try generated(db, expressionLiteral)
            #expect(sql == #"SELECT IFNULL("name", ?) AS "displayName", "score" FROM "player""#)
            #expect(arguments == ["O'Brien"])
            #expect(try Row.fetchAll(db, expressionLiteral).last?["displayName"] == "O'Brien")
        }
    }

    @Test func expressionLiteralsAsFunctions() throws {
        try withReadmeDatabase { db throws in
            let request = Player.filter { date($0.createdAt) == "2020-01-23" }
            let (sql, arguments) = try generated(db, request)
            // An expression literal is parenthesized when it is an operand (the
            // README's comment leaves the parentheses out; GRDB writes them).
            #expect(sql == #"SELECT * FROM "player" WHERE (DATE("createdAt")) = ?"#)
            #expect(arguments == ["2020-01-23"])
            #expect(try readmePlayerIds(db, request) == [1, 3])
        }
    }

    @Test func embeddingSQLInTheWhereClause() throws {
        try withReadmeDatabase { db throws in
            #expect(try generated(db, Player.filter(sql: "score >= 1000")).0 == #"SELECT * FROM "player" WHERE score >= 1000"#)

            let minScore = 1000
            var (sql, arguments) = try generated(db, Player.filter(sql: "score >= ?", arguments: [minScore]))
            #expect(sql == #"SELECT * FROM "player" WHERE score >= ?"#)
            #expect(arguments == [1000])

            (sql, arguments) = try generated(db, Player.filter(literal: "score >= \(minScore)"))
            #expect(sql == #"SELECT * FROM "player" WHERE score >= ?"#)
            #expect(arguments == [1000])
            #expect(try readmePlayerIds(db, Player.filter(literal: "score >= \(minScore)")) == [2, 4])

            let mixed = Player.filter {
                let scoreCondition: SQL = "\($0.score) >= \(minScore)"
                return scoreCondition && $0.team == "Reds"
            }
            (sql, arguments) = try generated(db, mixed)
            #expect(sql == #"SELECT * FROM "player" WHERE ("score" >= ?) AND ("team" = ?)"#)
            #expect(arguments == [1000, "Reds"])
            #expect(try readmePlayerIds(db, mixed) == [2])
        }
    }

    @Test func embeddingSQLInTheOrderClause() throws {
        try withReadmeDatabase { db throws in
            let request = Player
                .order {
                    let total = SQL("(\($0.score) + \($0.bonus))").sqlExpression
                    return [total.desc, $0.name]
                }
                .reversed()
            #expect(try generated(db, request).0 == #"""
                SELECT * FROM "player" ORDER BY ("score" + "bonus") ASC, "name" DESC
                """#)
            #expect(try readmePlayerIds(db, request) == [3, 1, 2, 4])
        }
    }
}
