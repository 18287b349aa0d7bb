import Foundation
import Testing
@testable import GRDBCipher

/// `fetchOne` of a request adds `LIMIT 1` unless the request yields one row
/// at most, as GRDB decides it: an aggregate selected without `GROUP BY`, or
/// conditions that pin a unique key.
@Suite struct SingleResultLimitTests {
    @Test func anAggregateWithoutGroupingNeedsNoLimit() throws {
        try withTeamsAndPlayers { db throws in
            let score = Column("score")
            #expect(try generated(db, GenPlayer.select(count(Column("id"))), single: true).0
                == #"SELECT COUNT("id") FROM "player""#)
            let operators = try generated(db, GenPlayer.select(max(score) + 1, min(score)), single: true).0
            #expect(operators.hasPrefix(#"SELECT MAX("score")"#) && !operators.contains("LIMIT"), "\(operators)")
            #expect(try generated(db, GenPlayer.select(count(distinct: score).forKey("n")), single: true).0
                == #"SELECT COUNT(DISTINCT "score") AS "n" FROM "player""#)
            #expect(try Int.fetchOne(db, GenPlayer.select(count(Column("id")))) == 4)
        }
    }

    @Test func otherSingleResultsKeepTheLimit() throws {
        try withTeamsAndPlayers { db throws in
            let score = Column("score")
            // Grouped: one row per group.
            #expect(try generated(db, GenPlayer.select(max(score)).group(Column("teamId")), single: true).0
                == #"SELECT MAX("score") FROM "player" GROUP BY "teamId" LIMIT 1"#)
            // No aggregate.
            #expect(try generated(db, GenPlayer.select(score), single: true).0
                == #"SELECT "score" FROM "player" LIMIT 1"#)
            // An aggregate in a subquery aggregates the subquery's rows only.
            let best = GenPlayer.select(max(score))
            #expect(try generated(db, GenPlayer.select(score).filter(score == best), single: true).0
                == #"SELECT "score" FROM "player" WHERE "score" = (SELECT MAX("score") FROM "player") LIMIT 1"#)
            // An explicit limit is kept as written.
            #expect(try generated(db, GenPlayer.select(count(Column("id"))).limit(5), single: true).0
                == #"SELECT COUNT("id") FROM "player" LIMIT 5"#)
        }
    }

    @Test func conditionsOnAUniqueKeyNeedNoLimit() throws {
        try withTeamsAndPlayers { db throws in
            let id = Column("id"), score = Column("score")
            #expect(try generated(db, GenPlayer.filter(id == 2), single: true).0
                == #"SELECT * FROM "player" WHERE "id" = ?"#)
            #expect(try generated(db, GenPlayer.filter(id == 2 && score > 0), single: true).0
                == #"SELECT * FROM "player" WHERE ("id" = ?) AND ("score" > ?)"#)
            #expect(try generated(db, GenPlayer.filter(id == 2).filter(score > 0), single: true).0
                == #"SELECT * FROM "player" WHERE ("id" = ?) AND ("score" > ?)"#)
            let alias = TableAlias(name: "p")
            let aliased = try generated(db, GenPlayer.aliased(alias).filter(alias[id] == 2), single: true).0
            #expect(aliased.hasSuffix(#"WHERE "p"."id" = ?"#), "\(aliased)")
            #expect(try GenPlayer.filter(id == 2).fetchOne(db)?.name == "Barbara")
        }
    }

    @Test func conditionsThatPinNoUniqueKeyKeepTheLimit() throws {
        try withTeamsAndPlayers { db throws in
            let id = Column("id"), score = Column("score")
            #expect(try generated(db, GenPlayer.filter(score == 2), single: true).0
                == #"SELECT * FROM "player" WHERE "score" = ? LIMIT 1"#)
            #expect(try generated(db, GenPlayer.filter(id == 2 || id == 3), single: true).0
                == #"SELECT * FROM "player" WHERE ("id" = ?) OR ("id" = ?) LIMIT 1"#)
            #expect(try generated(db, GenPlayer.filter(id != 2), single: true).0
                == #"SELECT * FROM "player" WHERE "id" <> ? LIMIT 1"#)
            #expect(try generated(db, GenPlayer.filter(id == score), single: true).0
                == #"SELECT * FROM "player" WHERE "id" = "score" LIMIT 1"#)
        }
    }
}
