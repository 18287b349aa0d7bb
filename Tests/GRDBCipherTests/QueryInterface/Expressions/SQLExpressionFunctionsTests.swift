import Foundation
import Testing
@testable import GRDBCipher

private struct IntegerSum: DatabaseAggregate {
    var sum: Int64 = 0
    mutating func step(_ dbValues: [DatabaseValue]) {
        sum += Int64.fromDatabaseValue(dbValues[0]) ?? 0
    }
    func finalize() -> (any DatabaseValueConvertible)? { sum }
}

/// SQL functions, `contains` over collections and ranges, and orderings of
/// GRDB's query interface: the SQL they generate (compared with GRDB's) and
/// their results on an encrypted database. The table is described at
/// ``withExpressionPlayers(_:)``.
@Suite struct SQLExpressionFunctionsTests {
    let id = Column("id"), name = Column("name"), score = Column("score"), bonus = Column("bonus")
    let createdAt = Column("createdAt")

    @Test func aggregateFunctions() throws {
        try withExpressionPlayers { db throws in
            let request = ExpressionPlayer.select(
                min(score), max(score), average(score), sum(score), total(score), count(score), count(distinct: bonus),
                as: Row.self)
            #expect(try preparedSQL(db, request).0 == """
                SELECT MIN("score"), MAX("score"), AVG("score"), SUM("score"), TOTAL("score"), \
                COUNT("score"), COUNT(DISTINCT "bonus") FROM "player"
                """)
            let row = try #require(try request.fetchOne(db))
            #expect(row[0] as Int == 50)
            #expect(row[1] as Int == 1000)
            #expect(abs((row[2] as Double) - 1150.0 / 3) < 1e-9)
            #expect(row[3] as Int == 1150)
            #expect((row[4] as DatabaseValue).storage == .double(1150))
            #expect(row[5] as Int == 3)
            #expect(row[6] as Int == 3)
        }
    }

    @Test func aggregatesWithFilterAndOrdering() throws {
        try withExpressionPlayers { db throws in
            let filtered = sum(score, filter: score > 60)
            var (sql, arguments) = try preparedSQL(db, ExpressionPlayer.select(filtered))
            #expect(sql == #"SELECT SUM("score") FILTER (WHERE "score" > ?) FROM "player""#)
            #expect(arguments == [60])
            #expect(try ExpressionPlayer.select(filtered, as: Int.self).fetchOne(db) == 1100)

            // An aggregate with a filter is parenthesized as an operand.
            (sql, arguments) = try preparedSQL(db, ExpressionPlayer.select(filtered + 1))
            #expect(sql == #"SELECT (SUM("score") FILTER (WHERE "score" > ?)) + ? FROM "player""#)
            #expect(arguments == [60, 1])

            #expect(try preparedSQL(db, ExpressionPlayer.select(total(score, orderBy: id.desc))).0
                == #"SELECT TOTAL("score" ORDER BY "id" DESC) FROM "player""#)
            #expect(try preparedSQL(db, ExpressionPlayer.select(average(score, filter: bonus != nil), max(score, filter: bonus == 0))).0
                == #"SELECT AVG("score") FILTER (WHERE "bonus" IS NOT NULL), MAX("score") FILTER (WHERE "bonus" = ?) FROM "player""#)
            #expect(try ExpressionPlayer.select(average(score, filter: bonus != nil), as: Double.self).fetchOne(db) == 75)
            #expect(try ExpressionPlayer.select(min(score, filter: score > 60), as: Int.self).fetchOne(db) == 100)
        }
    }

    @Test func scalarFunctions() throws {
        try withExpressionPlayers { db throws in
            #expect(try preparedSQL(db, ExpressionPlayer.select(abs(-score), length(name), max(score, 500), min(score, bonus, 20))).0
                == #"SELECT ABS(-"score"), LENGTH("name"), MAX("score", ?), MIN("score", "bonus", ?) FROM "player""#)
            #expect(try selectedValues(db, abs(bonus - score)) == [90.databaseValue, .null, .null, 50.databaseValue])
            #expect(try selectedValues(db, length(name)) == [6, 7, 5, 5].map(\.databaseValue))
            #expect(try selectedValues(db, max(score, 500)) == [500.databaseValue, 1000.databaseValue, .null, 500.databaseValue])
            #expect(try selectedValues(db, min(score, bonus, 20)) == [10.databaseValue, .null, .null, 0.databaseValue])
        }
    }

    @Test func castAndCoalesce() throws {
        try withExpressionPlayers { db throws in
            #expect(try preparedSQL(db, ExpressionPlayer.select(cast(score, as: .real), cast(score + 1, as: .text))).0
                == #"SELECT CAST("score" AS REAL), CAST("score" + ? AS TEXT) FROM "player""#)
            #expect(try selectedValues(db, cast(score, as: .real)).first?.storage == .double(100))
            #expect(try selectedValues(db, cast(score + 1, as: .text)).first == "101".databaseValue)
            // A cast is not parenthesized as an operand.
            #expect(try preparedSQL(db, ExpressionPlayer.select(cast(score, as: .real) / 3)).0
                == #"SELECT CAST("score" AS REAL) / ? FROM "player""#)

            #expect(try preparedSQL(db, ExpressionPlayer.select(coalesce([score, bonus]))).0
                == #"SELECT COALESCE("score", "bonus") FROM "player""#)
            #expect(try selectedValues(db, coalesce([score, bonus])) == [100, 1000, 5, 50].map(\.databaseValue))
            #expect(try preparedSQL(db, ExpressionPlayer.select(coalesce([score]))).0 == #"SELECT "score" FROM "player""#)
            #expect(try preparedSQL(db, ExpressionPlayer.select(coalesce([]))).0 == #"SELECT NULL FROM "player""#)
        }
    }

    @Test func stringFunctionsAreGRDBsSwiftFunctions() throws {
        try withExpressionPlayers { db throws in
            #expect(try preparedSQL(db, ExpressionPlayer.select(name.lowercased, name.uppercased, name.capitalized)).0
                == #"SELECT swiftLowercaseString("name"), swiftUppercaseString("name"), swiftCapitalizedString("name") FROM "player""#)
            // Unicode aware, unlike SQLite's LOWER and UPPER.
            #expect(try selectedValues(db, name.lowercased)[3] == "élise".databaseValue)
            #expect(try selectedValues(db, name.uppercased)[3] == "ÉLISE".databaseValue)
            #expect(try selectedValues(db, name.capitalized)[2] == "Craig".databaseValue)
            #expect(try preparedSQL(db, ExpressionPlayer.select(
                name.localizedLowercased, name.localizedUppercased, name.localizedCapitalized)).0 == """
                SELECT swiftLocalizedLowercaseString("name"), swiftLocalizedUppercaseString("name"), \
                swiftLocalizedCapitalizedString("name") FROM "player"
                """)
            #expect(try selectedValues(db, name.localizedUppercased)[0] == "ARTHUR".databaseValue)
        }
    }

    @Test func dateFunctionsBindTheirModifiers() throws {
        try withExpressionPlayers { db throws in
            let (sql, arguments) = try preparedSQL(db, ExpressionPlayer.select(dateTime(createdAt, .day(1), .startOfMonth)))
            #expect(sql == #"SELECT DATETIME("createdAt", ?, ?) FROM "player""#)
            #expect(arguments == ["1 days", "start of month"])
            #expect(try selectedValues(db, dateTime(createdAt, .day(1))).first == "2024-02-01 10:00:00".databaseValue)
            #expect(try selectedValues(db, dateTime(createdAt, .day(1), .startOfMonth))[1] == "2024-03-01 00:00:00".databaseValue)
            #expect(try selectedValues(db, dateTime(createdAt, .year(1), .hour(-1)))[3] == "2024-12-30 23:00:00".databaseValue)

            #expect(try preparedSQL(db, ExpressionPlayer.select(julianDay(createdAt))).0 == #"SELECT JULIANDAY("createdAt") FROM "player""#)
            let twoDays = julianDay(createdAt, .day(2)) - julianDay(createdAt)
            #expect(try selectedValues(db, twoDays).first == 2.0.databaseValue)

            let modifiers: [SQLDateModifier] = [
                .second(1.5), .minute(5), .hour(2), .day(-1), .month(1), .year(3),
                .startOfDay, .startOfMonth, .startOfYear, .weekday(0), .unixEpoch, .localTime, .utc,
            ]
            #expect(modifiers.map(\.modifierText) == [
                "1.5 seconds", "5 minutes", "2 hours", "-1 days", "1 months", "3 years",
                "start of day", "start of month", "start of year", "weekday 0", "unixepoch", "localtime", "utc",
            ])
        }
    }

    @Test func customFunctionsAreCalledByName() throws {
        try withExpressionPlayers { db throws in
            let square = DatabaseFunction("square", argumentCount: 1, pure: true) { values in
                Int.fromDatabaseValue(values[0]).map { $0 * $0 }
            }
            let integerSum = DatabaseFunction("integerSum", argumentCount: 1, aggregate: IntegerSum.self)
            db.add(function: square)
            db.add(function: integerSum)
            #expect(try preparedSQL(db, ExpressionPlayer.select(square(score), integerSum(bonus + 1))).0
                == #"SELECT square("score"), integerSum("bonus" + ?) FROM "player""#)
            #expect(try selectedValues(db, square(score)) == [10000.databaseValue, 1000000.databaseValue, .null, 2500.databaseValue])
            #expect(try ExpressionPlayer.select(integerSum(bonus), as: Int.self).fetchOne(db) == 15)
            #expect(try preparedSQL(db, ExpressionPlayer.select(square(2))).1 == [2])
        }
    }

    @Test func containsOverCollections() throws {
        try withExpressionPlayers { db throws in
            var (sql, arguments) = try preparedSQL(db, ExpressionPlayer.filter([1, 2, 4].contains(id)))
            #expect(sql == #"SELECT * FROM "player" WHERE "id" IN (?, ?, ?)"#)
            #expect(arguments == [1, 2, 4])
            #expect(try matchingIDs(db, [1, 2, 4].contains(id)) == [1, 2, 4])
            #expect(try preparedSQL(db, ExpressionPlayer.filter(![1, 2, 4].contains(id))).0
                == #"SELECT * FROM "player" WHERE "id" NOT IN (?, ?, ?)"#)
            #expect(try matchingIDs(db, ![1, 2, 4].contains(id)) == [3])

            // One value: `=`, negated `<>`.
            #expect(try preparedSQL(db, ExpressionPlayer.filter([2].contains(id))).0 == #"SELECT * FROM "player" WHERE "id" = ?"#)
            #expect(try preparedSQL(db, ExpressionPlayer.filter(![2].contains(id))).0 == #"SELECT * FROM "player" WHERE "id" <> ?"#)

            // No value: false, bound; negated: true.
            (sql, arguments) = try preparedSQL(db, ExpressionPlayer.filter([Int]().contains(id)))
            #expect(sql == #"SELECT * FROM "player" WHERE ?"#)
            #expect(arguments == [false])
            #expect(try matchingIDs(db, [Int]().contains(id)) == [])
            #expect(try preparedSQL(db, ExpressionPlayer.filter(![Int]().contains(id))).1 == [true])
            #expect(try matchingIDs(db, ![Int]().contains(id)) == [1, 2, 3, 4])

            // Values of mixed types, and a set.
            let mixed: [any SQLExpressible] = [1, "Barbara", Column("name")]
            #expect(try preparedSQL(db, ExpressionPlayer.filter(mixed.contains(name))).0
                == #"SELECT * FROM "player" WHERE "name" IN (?, ?, "name")"#)
            #expect(try matchingIDs(db, Set(["craig", "Élise"]).contains(name)) == [3, 4])
        }
    }

    @Test func containsOverRanges() throws {
        try withExpressionPlayers { db throws in
            var (sql, arguments) = try preparedSQL(db, ExpressionPlayer.filter((2...3).contains(id)))
            #expect(sql == #"SELECT * FROM "player" WHERE "id" BETWEEN ? AND ?"#)
            #expect(arguments == [2, 3])
            #expect(try matchingIDs(db, (2...3).contains(id)) == [2, 3])
            #expect(try preparedSQL(db, ExpressionPlayer.filter(!(2...3).contains(id))).0
                == #"SELECT * FROM "player" WHERE "id" NOT BETWEEN ? AND ?"#)
            #expect(try matchingIDs(db, !(2...3).contains(id)) == [1, 4])

            (sql, arguments) = try preparedSQL(db, ExpressionPlayer.filter((2..<4).contains(id)))
            #expect(sql == #"SELECT * FROM "player" WHERE ("id" >= ?) AND ("id" < ?)"#)
            #expect(arguments == [2, 4])
            #expect(try matchingIDs(db, (2..<4).contains(id)) == [2, 3])

            #expect(try preparedSQL(db, ExpressionPlayer.filter(("A"..."Bz").contains(name))).0
                == #"SELECT * FROM "player" WHERE "name" BETWEEN ? AND ?"#)
            #expect(try matchingIDs(db, ("A"..."Bz").contains(name)) == [1, 2])
            #expect(try preparedSQL(db, ExpressionPlayer.filter(("A"..<"B").contains(name))).0
                == #"SELECT * FROM "player" WHERE ("name" >= ?) AND ("name" < ?)"#)
            #expect(try matchingIDs(db, ("A"..<"B").contains(name)) == [1])
            #expect(try matchingIDs(db, (50.0...100.0).contains(score)) == [1, 4])
        }
    }

    @Test func orderingsAndTheirReversal() throws {
        try withExpressionPlayers { db throws in
            func names(_ ordering: SQLOrdering) throws -> [String] {
                try ExpressionPlayer.select(name, as: String.self).order(ordering).fetchAll(db)
            }
            #expect(try preparedSQL(db, ExpressionPlayer.order(score.asc, score.desc, score.ascNullsLast, score.descNullsFirst)).0
                == #"SELECT * FROM "player" ORDER BY "score" ASC, "score" DESC, "score" ASC NULLS LAST, "score" DESC NULLS FIRST"#)
            #expect(try names(score.asc) == ["craig", "Élise", "Arthur", "Barbara"])
            #expect(try names(score.ascNullsLast) == ["Élise", "Arthur", "Barbara", "craig"])
            #expect(try names(score.descNullsFirst) == ["craig", "Barbara", "Arthur", "Élise"])

            // Reversal, as GRDB's: ASC <-> DESC, ASC NULLS LAST <-> DESC NULLS FIRST.
            #expect(score.sqlOrdering.reversed?.sql.sql == #""score" DESC"#)
            #expect(score.asc.reversed?.sql.sql == #""score" DESC"#)
            #expect(score.desc.reversed?.sql.sql == #""score" ASC"#)
            #expect(score.ascNullsLast.reversed?.sql.sql == #""score" DESC NULLS FIRST"#)
            #expect(score.descNullsFirst.reversed?.sql.sql == #""score" ASC NULLS LAST"#)
            #expect(try names(try #require(score.ascNullsLast.reversed)) == ["craig", "Barbara", "Arthur", "Élise"])

            // Expressions order as they select.
            #expect(try preparedSQL(db, ExpressionPlayer.order((score ?? 0).desc, length(name))).0
                == #"SELECT * FROM "player" ORDER BY IFNULL("score", ?) DESC, LENGTH("name")"#)
            #expect(try names((score ?? 0).desc) == ["Barbara", "Arthur", "Élise", "craig"])
        }
    }

    @Test func rowIDColumn() throws {
        try withExpressionPlayers { db throws in
            #expect(try preparedSQL(db, ExpressionPlayer.select(.rowID).filter(Column.rowID > 2)).0
                == #"SELECT "rowid" FROM "player" WHERE "rowid" > ?"#)
            #expect(try ExpressionPlayer.select(.rowID, as: Int64.self).filter(Column.rowID > 2).fetchAll(db) == [3, 4])
        }
    }
}
