import Foundation
import Testing
@testable import GRDBCipher

/// A table whose rows exercise the operators: NULLs, mixed case, a
/// non-ASCII name, flags for bitwise tests.
struct ExpressionPlayer: TableRecord {
    static let databaseTableName = "player"
}

/// Runs `body` on an encrypted database holding the `player` table:
///
/// | id | name    | score | bonus | flags | isActive | email                  | createdAt           |
/// |----|---------|-------|-------|-------|----------|------------------------|---------------------|
/// | 1  | Arthur  | 100   | 10    | 5     | 1        | arthur@example.com     | 2024-01-31 10:00:00 |
/// | 2  | Barbara | 1000  | NULL  | 2     | 0        | barbara@example.org    | 2024-02-29 23:30:00 |
/// | 3  | craig   | NULL  | 5     | 0     | NULL     | craig@EXAMPLE.com      | NULL                |
/// | 4  | Élise   | 50    | 0     | 7     | 1        | elise%10@example.com   | 2023-12-31 00:00:00 |
func withExpressionPlayers(_ body: (Database) throws -> Void) throws {
    try inEncryptedDatabase { db throws in
        try db.execute(sql: """
            CREATE TABLE player (
                id INTEGER PRIMARY KEY, name TEXT, score INTEGER, bonus INTEGER,
                flags INTEGER, isActive BOOLEAN, email TEXT, createdAt TEXT);
            INSERT INTO player VALUES
                (1, 'Arthur', 100, 10, 5, 1, 'arthur@example.com', '2024-01-31 10:00:00'),
                (2, 'Barbara', 1000, NULL, 2, 0, 'barbara@example.org', '2024-02-29 23:30:00'),
                (3, 'craig', NULL, 5, 0, NULL, 'craig@EXAMPLE.com', NULL),
                (4, 'Élise', 50, 0, 7, 1, 'elise%10@example.com', '2023-12-31 00:00:00');
            """)
        try body(db)
    }
}

/// The SQL and arguments of a request, as it is prepared.
func preparedSQL<T>(_ db: Database, _ request: QueryInterfaceRequest<T>) throws -> (String, StatementArguments) {
    let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
    return (statement.sql, statement.arguments)
}

/// The ids of the players that match `predicate`, in id order.
func matchingIDs(_ db: Database, _ predicate: some SQLSpecificExpressible) throws -> [Int64] {
    try ExpressionPlayer.filter(predicate).select(Column("id"), as: Int64.self).order(Column("id")).fetchAll(db)
}

/// The value of `expression` for each player, in id order.
func selectedValues(_ db: Database, _ expression: some SQLSelectable) throws -> [DatabaseValue] {
    try ExpressionPlayer.select(expression, as: DatabaseValue.self).order(Column("id")).fetchAll(db)
}

/// The operators of GRDB's query interface: the SQL they generate (compared
/// with GRDB's) and what they select on an encrypted database.
@Suite struct SQLExpressionOperatorsTests {
    let id = Column("id"), name = Column("name"), score = Column("score"), bonus = Column("bonus")
    let flags = Column("flags"), isActive = Column("isActive"), email = Column("email")

    @Test func arithmeticOperatorsInBothOrders() throws {
        try withExpressionPlayers { db throws in
            let (sql, arguments) = try preparedSQL(db, ExpressionPlayer.select(score * 2 + bonus))
            #expect(sql == #"SELECT ("score" * ?) + "bonus" FROM "player""#)
            #expect(arguments == [2])
            #expect(try selectedValues(db, score * 2 + bonus) == [210.databaseValue, .null, .null, 100.databaseValue])

            #expect(try preparedSQL(db, ExpressionPlayer.select(2 * score)).0 == #"SELECT ? * "score" FROM "player""#)
            #expect(try preparedSQL(db, ExpressionPlayer.select(1000 - score)).0 == #"SELECT ? - "score" FROM "player""#)
            #expect(try preparedSQL(db, ExpressionPlayer.select((score - bonus) / 2)).0
                == #"SELECT ("score" - "bonus") / ? FROM "player""#)
            #expect(try selectedValues(db, 1000 - score) == [900.databaseValue, 0.databaseValue, .null, 950.databaseValue])
            #expect(try selectedValues(db, (score - bonus) / 2) == [45.databaseValue, .null, .null, 25.databaseValue])
        }
    }

    @Test func additionIsNotFlattenedButJoinedAddIs() throws {
        try withExpressionPlayers { db throws in
            // `+` is not associative on REAL values: GRDB keeps the tree.
            #expect(try preparedSQL(db, ExpressionPlayer.select(score + bonus + id)).0
                == #"SELECT ("score" + "bonus") + "id" FROM "player""#)
            #expect(try preparedSQL(db, ExpressionPlayer.select([score, bonus, id].joined(operator: .add))).0
                == #"SELECT "score" + "bonus" + "id" FROM "player""#)
            let mixed: [any SQLSpecificExpressible] = [score, 1000.databaseValue]
            #expect(try selectedValues(db, mixed.joined(operator: .add))
                == [1100.databaseValue, 2000.databaseValue, .null, 1050.databaseValue])
        }
    }

    @Test func unaryMinusParenthesizesCompoundOperands() throws {
        try withExpressionPlayers { db throws in
            #expect(try preparedSQL(db, ExpressionPlayer.select(-score)).0 == #"SELECT -"score" FROM "player""#)
            #expect(try preparedSQL(db, ExpressionPlayer.select(-(score + bonus))).0
                == #"SELECT -("score" + "bonus") FROM "player""#)
            #expect(try selectedValues(db, -(score + bonus)) == [(-110).databaseValue, .null, .null, (-50).databaseValue])
        }
    }

    @Test func bitwiseOperators() throws {
        try withExpressionPlayers { db throws in
            let (sql, arguments) = try preparedSQL(db, ExpressionPlayer.filter(flags & 4 != 0))
            #expect(sql == #"SELECT * FROM "player" WHERE ("flags" & ?) <> ?"#)
            #expect(arguments == [4, 0])
            #expect(try matchingIDs(db, flags & 4 != 0) == [1, 4])
            #expect(try preparedSQL(db, ExpressionPlayer.select(flags | 8, 1 << flags, flags >> 1, ~flags)).0
                == #"SELECT "flags" | ?, ? << "flags", "flags" >> ?, ~"flags" FROM "player""#)
            #expect(try selectedValues(db, flags | 8) == [13, 10, 8, 15].map(\.databaseValue))
            #expect(try selectedValues(db, 1 << flags) == [32, 4, 1, 128].map(\.databaseValue))
            #expect(try selectedValues(db, ~flags) == [-6, -3, -1, -8].map(\.databaseValue))
            // `&` and `|` are flattened, as in GRDB.
            #expect(try preparedSQL(db, ExpressionPlayer.select(flags & 4 & 1)).0
                == #"SELECT "flags" & ? & ? FROM "player""#)
        }
    }

    @Test func nilCoalescingIsIfNull() throws {
        try withExpressionPlayers { db throws in
            let (sql, arguments) = try preparedSQL(db, ExpressionPlayer.select(score ?? 0, score ?? bonus))
            #expect(sql == #"SELECT IFNULL("score", ?), IFNULL("score", "bonus") FROM "player""#)
            #expect(arguments == [0])
            #expect(try selectedValues(db, score ?? bonus) == [100, 1000, 5, 50].map(\.databaseValue))
        }
    }

    @Test func comparisonWithBooleansAndNegation() throws {
        try withExpressionPlayers { db throws in
            var (sql, arguments) = try preparedSQL(db, ExpressionPlayer.filter(isActive == true))
            #expect(sql == #"SELECT * FROM "player" WHERE "isActive" = ?"#)
            #expect(arguments == [true])
            #expect(try matchingIDs(db, isActive == true) == [1, 4])
            #expect(try matchingIDs(db, isActive == false) == [2])
            #expect(try matchingIDs(db, false == isActive) == [2])

            (sql, arguments) = try preparedSQL(db, ExpressionPlayer.filter(isActive != true))
            #expect(sql == #"SELECT * FROM "player" WHERE "isActive" <> ?"#)
            #expect(arguments == [true])
            #expect(try matchingIDs(db, isActive != true) == [2])

            #expect(try preparedSQL(db, ExpressionPlayer.filter(!isActive)).0 == #"SELECT * FROM "player" WHERE NOT "isActive""#)
            #expect(try matchingIDs(db, !isActive) == [2])
            #expect(try preparedSQL(db, ExpressionPlayer.filter(!(!isActive))).0
                == #"SELECT * FROM "player" WHERE NOT (NOT "isActive")"#)
            #expect(try preparedSQL(db, ExpressionPlayer.filter(!(id > 1 && id < 4))).0
                == #"SELECT * FROM "player" WHERE NOT (("id" > ?) AND ("id" < ?))"#)
            #expect(try matchingIDs(db, !(id > 1 && id < 4)) == [1, 4])
            // `!` negates the operator of a comparison.
            #expect(try preparedSQL(db, ExpressionPlayer.filter(!(score == 100))).0
                == #"SELECT * FROM "player" WHERE "score" <> ?"#)
            // (Written with a variable: for `!(score == nil)` as one
            // expression, Swift picks its own `Optional == nil` and Bool `!`.)
            let scoreIsNull = score == nil
            #expect(try preparedSQL(db, ExpressionPlayer.filter(!scoreIsNull)).0
                == #"SELECT * FROM "player" WHERE "score" IS NOT NULL"#)
        }
    }

    @Test func identityOperatorsAreIsAndIsNot() throws {
        try withExpressionPlayers { db throws in
            #expect(try preparedSQL(db, ExpressionPlayer.filter(score === nil)).0 == #"SELECT * FROM "player" WHERE "score" IS NULL"#)
            #expect(try preparedSQL(db, ExpressionPlayer.filter(nil === score)).0 == #"SELECT * FROM "player" WHERE "score" IS NULL"#)
            let (sql, arguments) = try preparedSQL(db, ExpressionPlayer.filter(score !== 100))
            #expect(sql == #"SELECT * FROM "player" WHERE "score" IS NOT ?"#)
            #expect(arguments == [100])
            // Unlike `<>`, `IS NOT` matches NULL.
            #expect(try matchingIDs(db, score !== 100) == [2, 3, 4])
            #expect(try matchingIDs(db, score != 100) == [2, 4])
            #expect(try preparedSQL(db, ExpressionPlayer.filter(100 === score)).0 == #"SELECT * FROM "player" WHERE ? IS "score""#)
            #expect(try preparedSQL(db, ExpressionPlayer.filter(score === bonus)).0
                == #"SELECT * FROM "player" WHERE "score" IS "bonus""#)
            #expect(try preparedSQL(db, ExpressionPlayer.filter(score !== nil)).0
                == #"SELECT * FROM "player" WHERE "score" IS NOT NULL"#)
        }
    }

    @Test func likeWithEscapeAndNegation() throws {
        try withExpressionPlayers { db throws in
            var (sql, arguments) = try preparedSQL(db, ExpressionPlayer.filter(email.like("%@example.com")))
            #expect(sql == #"SELECT * FROM "player" WHERE "email" LIKE ?"#)
            #expect(arguments == ["%@example.com"])
            // SQLite's LIKE ignores the case of ASCII letters.
            #expect(try matchingIDs(db, email.like("%@example.com")) == [1, 3, 4])
            #expect(try preparedSQL(db, ExpressionPlayer.filter(!email.like("%@example.com"))).0
                == #"SELECT * FROM "player" WHERE "email" NOT LIKE ?"#)
            #expect(try matchingIDs(db, !email.like("%@example.com")) == [2])

            (sql, arguments) = try preparedSQL(db, ExpressionPlayer.filter(email.like("%\\%10%", escape: "\\")))
            #expect(sql == #"SELECT * FROM "player" WHERE "email" LIKE ? ESCAPE ?"#)
            #expect(arguments == ["%\\%10%", "\\"])
            #expect(try matchingIDs(db, email.like("%\\%10%", escape: "\\")) == [4])
        }
    }

    @Test func collationsGoAfterComparisonsAndOnTheLeftOfIn() throws {
        try withExpressionPlayers { db throws in
            let equal = email.collating(.nocase) == "CRAIG@example.com"
            #expect(try preparedSQL(db, ExpressionPlayer.filter(equal)).0
                == #"SELECT * FROM "player" WHERE "email" = ? COLLATE NOCASE"#)
            #expect(try matchingIDs(db, equal) == [3])
            #expect(try matchingIDs(db, email == "CRAIG@example.com") == [])

            let list = ["ARTHUR", "CRAIG"].contains(name.collating(.nocase))
            #expect(try preparedSQL(db, ExpressionPlayer.filter(list)).0
                == #"SELECT * FROM "player" WHERE ("name" COLLATE NOCASE) IN (?, ?)"#)
            #expect(try matchingIDs(db, list) == [1, 3])
            // A collation applied to the whole `IN` moves to its left operand.
            #expect(try preparedSQL(db, ExpressionPlayer.filter(["ARTHUR", "CRAIG"].contains(name).collating(.nocase))).0
                == #"SELECT * FROM "player" WHERE ("name" COLLATE NOCASE) IN (?, ?)"#)

            // GRDB writes the collation after BETWEEN, where SQLite applies
            // it to the upper bound only: 'craig' <= 'CRAIG' matches.
            let between = ("A"..."CRAIG").contains(name.collating(.nocase))
            #expect(try preparedSQL(db, ExpressionPlayer.filter(between)).0
                == #"SELECT * FROM "player" WHERE "name" BETWEEN ? AND ? COLLATE NOCASE"#)
            #expect(try matchingIDs(db, between) == [1, 2, 3])
            #expect(try matchingIDs(db, ("A"..."CRAIG").contains(name)) == [1, 2])

            let ordered = ExpressionPlayer.select(name, as: String.self).order(name.collating(.nocase).desc)
            #expect(try preparedSQL(db, ordered).0 == #"SELECT "name" FROM "player" ORDER BY "name" COLLATE NOCASE DESC"#)
            #expect(try ordered.fetchAll(db) == ["Élise", "craig", "Barbara", "Arthur"])

            let custom = ExpressionPlayer.select(name, as: String.self).order(name.collating(.caseInsensitiveCompare))
            #expect(try preparedSQL(db, custom).0
                == #"SELECT "name" FROM "player" ORDER BY "name" COLLATE swiftCaseInsensitiveCompare"#)
            #expect(try custom.fetchAll(db) == ["Arthur", "Barbara", "craig", "Élise"])
        }
    }

    @Test func joinedOperatorsAndTheirNeutralValues() throws {
        try withExpressionPlayers { db throws in
            let concat = [name, " <".databaseValue, email, ">".databaseValue].joined(operator: .concat)
            let (sql, arguments) = try preparedSQL(db, ExpressionPlayer.select(concat))
            #expect(sql == #"SELECT "name" || ? || "email" || ? FROM "player""#)
            #expect(arguments == [" <", ">"])
            #expect(try selectedValues(db, concat).first == "Arthur <arthur@example.com>".databaseValue)

            // No operand: the operator's neutral value, bound.
            #expect(try preparedSQL(db, ExpressionPlayer.filter([SQLExpression]().joined(operator: .and))).1 == [true])
            #expect(try preparedSQL(db, ExpressionPlayer.select([Column]().joined(operator: .add))).1 == [0])
            #expect(try matchingIDs(db, [SQLExpression]().joined(operator: .or)) == [])
            // One operand: itself.
            #expect(try preparedSQL(db, ExpressionPlayer.filter([id > 1].joined(operator: .or))).0
                == #"SELECT * FROM "player" WHERE "id" > ?"#)
            // Nested AND are flattened.
            #expect(try preparedSQL(db, ExpressionPlayer.filter(id > 1 && id < 4 && score != nil)).0
                == #"SELECT * FROM "player" WHERE ("id" > ?) AND ("id" < ?) AND ("score" IS NOT NULL)"#)
        }
    }

    @Test func sqlLiteralsAreExpressionsSelectionsAndOrderings() throws {
        try withExpressionPlayers { db throws in
            let createdAt = Column("createdAt")
            let date = SQL("DATE(\(createdAt))").sqlExpression
            let (sql, arguments) = try preparedSQL(db, ExpressionPlayer.filter(date == "2024-01-31"))
            #expect(sql == #"SELECT * FROM "player" WHERE (DATE("createdAt")) = ?"#)
            #expect(arguments == ["2024-01-31"])
            #expect(try matchingIDs(db, date == "2024-01-31") == [1])

            let request = ExpressionPlayer.select(SQL("name, score"), as: Row.self).order(SQL("score DESC"))
            #expect(try preparedSQL(db, request).0 == #"SELECT name, score FROM "player" ORDER BY score DESC"#)
            let first = try request.fetchAll(db).first
            #expect(first?["name"] as String? == "Barbara")
        }
    }
}
