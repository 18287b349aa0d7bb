import Foundation
import Testing
@testable import GRDBCipher

/// Operators and functions on association aggregates, with the SQL GRDB
/// 7.10 generates (Compat programs `association-aggregate-*`): an
/// aggregate built by an operator has no name, except with `??` and `cast`.
@Suite struct AssociationAggregateOperatorTests {
    private let players = AggOpTeam.players
    private let coaches = AggOpTeam.coaches
    private let joinBoth = #"FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id" LEFT JOIN "coach" ON "coach"."teamId" = "team"."id" GROUP BY "team"."id""#

    // MARK: - Arithmetic

    @Test func aggregatesAddUpInHaving() throws {
        try withAggregateOperatorDatabase { db throws in
            let (sql, names) = try aggOpTeamNames(db, AggOpTeam.having(players.count + coaches.count > 2))
            #expect(sql == #"SELECT "team".* "# + joinBoth + #" HAVING (COUNT(DISTINCT "player"."id") + COUNT(DISTINCT "coach"."id")) > ? ORDER BY "team"."id""#)
            #expect(names == ["Reds", "Blues"])
        }
    }

    @Test func anAggregateBuiltWithAnOperatorHasNoName() throws {
        try withAggregateOperatorDatabase { db throws in
            let request = AggOpTeam.annotated(with: players.count + coaches.count).order(Column("id"))
            #expect(try generated(db, request).0 == #"SELECT "team".*, COUNT(DISTINCT "player"."id") + COUNT(DISTINCT "coach"."id") "# + joinBoth + #" ORDER BY "team"."id""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0[#"COUNT(DISTINCT "player"."id") + COUNT(DISTINCT "coach"."id")"#] as Int } == [3, 3, 0])

            let named = AggOpTeam.annotated(with: (players.count - coaches.count).forKey("diff")).order(Column("id"))
            #expect(try generated(db, named).0 == #"SELECT "team".*, COUNT(DISTINCT "player"."id") - COUNT(DISTINCT "coach"."id") AS "diff" "# + joinBoth + #" ORDER BY "team"."id""#)
            #expect(try Row.fetchAll(db, named).map { $0["diff"] as Int } == [1, -1, 0])
        }
    }

    @Test func arithmeticWithValuesOnEitherSide() throws {
        try withAggregateOperatorDatabase { db throws in
            let request = AggOpTeam
                .annotated(with: players.count * 2, 2 * players.count, players.count + 1, 10 - players.count)
                .order(Column("id"))
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT "team".*, COUNT(DISTINCT "player"."id") * ?, ? * COUNT(DISTINCT "player"."id"), COUNT(DISTINCT "player"."id") + ?, ? - COUNT(DISTINCT "player"."id") "# + aggOpFromPlayers + #" ORDER BY "team"."id""#)
            #expect(arguments == [2, 2, 1, 10])
            let reds = try #require(try Row.fetchOne(db, request))
            #expect((2...5).map { reds[$0] as Int } == [4, 4, 3, 8])
        }
    }

    @Test func divisionsProductsAndNegation() throws {
        try withAggregateOperatorDatabase { db throws in
            let maxScore = players.max(Column("score"))
            let divisions = AggOpTeam
                .annotated(with: players.sum(Column("score")) / players.count, maxScore / 2, 1000 / maxScore)
                .order(Column("id"))
            #expect(try generated(db, divisions).0 == #"SELECT "team".*, SUM("player"."score") / COUNT(DISTINCT "player"."id"), MAX("player"."score") / ?, ? / MAX("player"."score") "# + aggOpFromPlayers + #" ORDER BY "team"."id""#)
            let quotients = try Row.fetchAll(db, divisions).map { row in (2...4).map { row[$0] as Int? } }
            #expect(quotients == [[550, 500, 1], [50, 25, 20], [nil, nil, nil]])

            let products = AggOpTeam.annotated(with: players.count * coaches.count)
            #expect(try generated(db, products).0 == #"SELECT "team".*, COUNT(DISTINCT "player"."id") * COUNT(DISTINCT "coach"."id") "# + joinBoth)

            let negated = AggOpTeam.annotated(with: -maxScore)
            #expect(try generated(db, negated).0 == #"SELECT "team".*, -MAX("player"."score") "# + aggOpFromPlayers)

            let (sql, names) = try aggOpTeamNames(db, AggOpTeam.having(-maxScore < -500))
            #expect(sql == #"SELECT "team".* "# + aggOpFromPlayers + #" HAVING (-MAX("player"."score")) < ? ORDER BY "team"."id""#)
            #expect(names == ["Reds"])
        }
    }

    // MARK: - Comparisons

    @Test func comparisonsWithTheValueOnTheLeft() throws {
        try withAggregateOperatorDatabase { db throws in
            let maxScore = players.max(Column("score"))
            let cases: [(AssociationAggregate<AggOpTeam>, String, [String])] = [
                (1 < players.count, #"? < COUNT(DISTINCT "player"."id")"#, ["Reds"]),
                (1 <= players.count, #"? <= COUNT(DISTINCT "player"."id")"#, ["Reds", "Blues"]),
                (500 > maxScore, #"? > MAX("player"."score")"#, ["Blues"]),
                (1000 >= maxScore, #"? >= MAX("player"."score")"#, ["Reds", "Blues"]),
                (2 == players.count, #"? = COUNT(DISTINCT "player"."id")"#, ["Reds"]),
                (2 != players.count, #"? <> COUNT(DISTINCT "player"."id")"#, ["Blues", "Greens"]),
                (nil == maxScore, #"MAX("player"."score") IS NULL"#, ["Greens"]),
                (nil != maxScore, #"MAX("player"."score") IS NOT NULL"#, ["Reds", "Blues"]),
            ]
            for (predicate, having, expectedNames) in cases {
                let (sql, names) = try aggOpTeamNames(db, AggOpTeam.having(predicate))
                #expect(sql == #"SELECT "team".* "# + aggOpFromPlayers + " HAVING \(having) " + #"ORDER BY "team"."id""#)
                #expect(names == expectedNames, "HAVING \(having)")
            }
        }
    }

    @Test func identityOperators() throws {
        try withAggregateOperatorDatabase { db throws in
            let maxScore = players.max(Column("score"))
            let maxCoach = coaches.max(Column("score"))
            let cases: [(AssociationAggregate<AggOpTeam>, String, [String])] = [
                (maxScore === 50, #"MAX("player"."score") IS ?"#, ["Blues"]),
                (maxScore === nil, #"MAX("player"."score") IS NULL"#, ["Greens"]),
                (50 === maxScore, #"? IS MAX("player"."score")"#, ["Blues"]),
                (nil === maxScore, #"MAX("player"."score") IS NULL"#, ["Greens"]),
                (maxScore !== 50, #"MAX("player"."score") IS NOT ?"#, ["Reds", "Greens"]),
                (50 !== maxScore, #"? IS NOT MAX("player"."score")"#, ["Reds", "Greens"]),
                (nil !== maxScore, #"MAX("player"."score") IS NOT NULL"#, ["Reds", "Blues"]),
            ]
            for (predicate, having, expectedNames) in cases {
                let (sql, names) = try aggOpTeamNames(db, AggOpTeam.having(predicate))
                #expect(sql == #"SELECT "team".* "# + aggOpFromPlayers + " HAVING \(having) " + #"ORDER BY "team"."id""#)
                #expect(names == expectedNames, "HAVING \(having)")
            }

            let (isSQL, isNames) = try aggOpTeamNames(db, AggOpTeam.having(maxScore === maxCoach))
            #expect(isSQL == #"SELECT "team".* "# + joinBoth + #" HAVING MAX("player"."score") IS MAX("coach"."score") ORDER BY "team"."id""#)
            #expect(isNames == ["Greens"])
            let (isNotSQL, isNotNames) = try aggOpTeamNames(db, AggOpTeam.having(maxScore !== maxCoach))
            #expect(isNotSQL == #"SELECT "team".* "# + joinBoth + #" HAVING MAX("player"."score") IS NOT MAX("coach"."score") ORDER BY "team"."id""#)
            #expect(isNotNames == ["Reds", "Blues"])
        }
    }

    // MARK: - Booleans

    @Test func isEmptyComparedWithBooleans() throws {
        try withAggregateOperatorDatabase { db throws in
            let empty = #"COUNT(DISTINCT "player"."id") = 0"#
            let notEmpty = #"COUNT(DISTINCT "player"."id") > 0"#
            let cases: [(AssociationAggregate<AggOpTeam>, String, [String])] = [
                (players.isEmpty == false, notEmpty, ["Reds", "Blues"]),
                (players.isEmpty == true, empty, ["Greens"]),
                (false == players.isEmpty, notEmpty, ["Reds", "Blues"]),
                (players.isEmpty != true, notEmpty, ["Reds", "Blues"]),
                (players.isEmpty != false, empty, ["Greens"]),
                (true != players.isEmpty, notEmpty, ["Reds", "Blues"]),
                (!players.isEmpty == true, notEmpty, ["Reds", "Blues"]),
                (!players.isEmpty == false, empty, ["Greens"]),
            ]
            for (predicate, having, expectedNames) in cases {
                let (sql, names) = try aggOpTeamNames(db, AggOpTeam.having(predicate))
                #expect(sql == #"SELECT "team".* "# + aggOpFromPlayers + " HAVING \(having) " + #"ORDER BY "team"."id""#)
                #expect(names == expectedNames, "HAVING \(having)")
            }
        }
    }

    @Test func otherAggregatesComparedWithBooleansAndNegated() throws {
        try withAggregateOperatorDatabase { db throws in
            let count = #"COUNT(DISTINCT "player"."id")"#
            let cases: [(AssociationAggregate<AggOpTeam>, String, [String])] = [
                (players.count == true, "\(count) = ?", ["Blues"]),
                (players.count != false, "\(count) <> ?", ["Reds", "Blues"]),
                ((players.count > 1) == false, "(\(count) > ?) = ?", ["Blues", "Greens"]),
                (!players.count, "NOT \(count)", ["Greens"]),
                (!(!players.count), "NOT (NOT \(count))", ["Reds", "Blues"]),
                (!(players.count > 1), "NOT (\(count) > ?)", ["Blues", "Greens"]),
            ]
            for (predicate, having, expectedNames) in cases {
                let (sql, names) = try aggOpTeamNames(db, AggOpTeam.having(predicate))
                #expect(sql == #"SELECT "team".* "# + aggOpFromPlayers + " HAVING \(having) " + #"ORDER BY "team"."id""#)
                #expect(names == expectedNames, "HAVING \(having)")
            }
        }
    }

    @Test func logicalOperatorsWithValuesOnEitherSide() throws {
        try withAggregateOperatorDatabase { db throws in
            let (andSQL, andNames) = try aggOpTeamNames(db, AggOpTeam.having(players.count > 0 && Column("name") != "Reds"))
            #expect(andSQL == #"SELECT "team".* "# + aggOpFromPlayers + #" HAVING (COUNT(DISTINCT "player"."id") > ?) AND ("team"."name" <> ?) ORDER BY "team"."id""#)
            #expect(andNames == ["Blues"])

            let (valueAndSQL, valueAndNames) = try aggOpTeamNames(db, AggOpTeam.having(Column("id") > 1 && coaches.count > 1))
            #expect(valueAndSQL == #"SELECT "team".* FROM "team" LEFT JOIN "coach" ON "coach"."teamId" = "team"."id" GROUP BY "team"."id" HAVING ("team"."id" > ?) AND (COUNT(DISTINCT "coach"."id") > ?) ORDER BY "team"."id""#)
            #expect(valueAndNames == ["Blues"])

            let (orSQL, orNames) = try aggOpTeamNames(db, AggOpTeam.having(players.isEmpty || Column("name") == "Reds"))
            #expect(orSQL == #"SELECT "team".* "# + aggOpFromPlayers + #" HAVING (COUNT(DISTINCT "player"."id") = 0) OR ("team"."name" = ?) ORDER BY "team"."id""#)
            #expect(orNames == ["Reds", "Greens"])

            let (valueOrSQL, valueOrNames) = try aggOpTeamNames(db, AggOpTeam.having(Column("name") == "Reds" || players.isEmpty))
            #expect(valueOrSQL == #"SELECT "team".* "# + aggOpFromPlayers + #" HAVING ("team"."name" = ?) OR (COUNT(DISTINCT "player"."id") = 0) ORDER BY "team"."id""#)
            #expect(valueOrNames == ["Reds", "Greens"])

            let (bothSQL, bothNames) = try aggOpTeamNames(db, AggOpTeam.having(players.isEmpty && coaches.isEmpty))
            #expect(bothSQL == #"SELECT "team".* "# + joinBoth + #" HAVING (COUNT(DISTINCT "player"."id") = 0) AND (COUNT(DISTINCT "coach"."id") = 0) ORDER BY "team"."id""#)
            #expect(bothNames == ["Greens"])
        }
    }

    // MARK: - Functions

    @Test func coalescingAndCastKeepTheName() throws {
        try withAggregateOperatorDatabase { db throws in
            let coalesced = AggOpTeam.annotated(with: players.max(Column("score")) ?? 0).order(Column("id"))
            #expect(try generated(db, coalesced).0 == #"SELECT "team".*, IFNULL(MAX("player"."score"), ?) AS "maxPlayerScore" "# + aggOpFromPlayers + #" ORDER BY "team"."id""#)
            #expect(try Row.fetchAll(db, coalesced).map { $0["maxPlayerScore"] as Int } == [1000, 50, 0])

            let renamed = AggOpTeam.annotated(with: players.count.forKey("n") ?? 0)
            #expect(try generated(db, renamed).0 == #"SELECT "team".*, IFNULL(COUNT(DISTINCT "player"."id"), ?) AS "n" "# + aggOpFromPlayers)

            let cast = AggOpTeam.annotated(with: cast(players.average(Column("score")), as: .integer)).order(Column("id"))
            #expect(try generated(db, cast).0 == #"SELECT "team".*, CAST(AVG("player"."score") AS INTEGER) AS "averagePlayerScore" "# + aggOpFromPlayers + #" ORDER BY "team"."id""#)
            #expect(try Row.fetchAll(db, cast).map { $0["averagePlayerScore"] as Int? } == [550, 50, nil])

            let (sql, names) = try aggOpTeamNames(db, AggOpTeam.having(players.max(Column("score")) ?? 0 < 100))
            #expect(sql == #"SELECT "team".* "# + aggOpFromPlayers + #" HAVING IFNULL(MAX("player"."score"), ?) < ? ORDER BY "team"."id""#)
            #expect(names == ["Blues", "Greens"])
        }
    }

    @Test func absAndLengthDropTheName() throws {
        try withAggregateOperatorDatabase { db throws in
            let absolute = AggOpTeam.annotated(with: abs(-players.max(Column("score")))).order(Column("id"))
            #expect(try generated(db, absolute).0 == #"SELECT "team".*, ABS(-MAX("player"."score")) "# + aggOpFromPlayers + #" ORDER BY "team"."id""#)
            #expect(try Row.fetchAll(db, absolute).map { $0[#"ABS(-MAX("player"."score"))"#] as Int? } == [1000, 50, nil])

            let named = AggOpTeam.annotated(with: abs(players.min(Column("score"))).forKey("absMin"))
            #expect(try generated(db, named).0 == #"SELECT "team".*, ABS(MIN("player"."score")) AS "absMin" "# + aggOpFromPlayers)

            let length = AggOpTeam.annotated(with: length(players.max(Column("name")))).order(Column("id"))
            #expect(try generated(db, length).0 == #"SELECT "team".*, LENGTH(MAX("player"."name")) "# + aggOpFromPlayers + #" ORDER BY "team"."id""#)
            #expect(try Row.fetchAll(db, length).map { $0[#"LENGTH(MAX("player"."name"))"#] as Int? } == [7, 5, nil])
        }
    }
}
