#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

// The SQL of request forms that are easy to get subtly different: counts of
// distinct requests, common table expressions in joins and associations,
// orderings of joined requests, refinements of parallel associations,
// aggregate keys, prefetches, and optional column types.

struct TeamRecordForKeys: Decodable, FetchableRecord {
    var team: AssocTeamRecord
    var best: AssocPlayerRecord?
}

let requestSQLParityPrograms: [Program] = [
    Program("query-prepared-request-default") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            // `forSingleResult` defaults to false, as in GRDB.
            step("query interface") { try Player.filter(Column("score") > 100).makePreparedRequest(db).statement.sql }
            step("sql request") { try SQLRequest<Row>(sql: "SELECT * FROM player").makePreparedRequest(db).statement.sql }
            step("any fetch request") {
                try AnyFetchRequest(Player.order(Column("name"))).makePreparedRequest(db).statement.sql
            }
            step("adapted") {
                try Player.all().adapted { _ in SuffixRowAdapter(fromIndex: 1) }.makePreparedRequest(db).statement.sql
            }
        }
    },
    Program("query-count-distinct") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            step("distinct all") { try Player.all().distinct().fetchCount(db) }
            step("distinct table") { try Table("player").all().distinct().fetchCount(db) }
            step("distinct all columns") { try Player.select(AllColumns()).distinct().fetchCount(db) }
            step("distinct one column") { try Player.select(Column("teamId")).distinct().fetchCount(db) }
            step("distinct two columns") { try Player.select(Column("teamId"), Column("score")).distinct().fetchCount(db) }
            step("distinct filtered") { try Player.filter(Column("score") > 100).distinct().fetchCount(db) }
            step("distinct limited") { try Player.all().distinct().limit(2).fetchCount(db) }
            step("distinct aliased") { try Player.aliased(TableAlias(name: "p")).distinct().fetchCount(db) }
            step("distinct joined") {
                try AssocPlayerRecord.joining(required: AssocPlayerRecord.team).distinct().fetchCount(db)
            }
        }
    },
    Program("query-cte-joins") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            let best = CommonTableExpression(
                named: "best",
                request: Table("player").select(Column("teamId"), max(Column("score")).forKey("top")).group(Column("teamId")))
            step("cte association to a table") {
                let association = AssocTeamRecord.association(to: best, on: { team, best in best[Column("teamId")] == team[Column("id")] })
                return try AssocTeamRecord.with(best).including(optional: association).order(Column("id"))
                    .asRequest(of: Row.self).fetchAll(db).map(\.debugDescription)
            }
            step("cte association, joining required") {
                let association = AssocTeamRecord.association(to: best, on: { team, best in best[Column("teamId")] == team[Column("id")] })
                return try AssocTeamRecord.with(best).joining(required: association.filter(Column("top") > 500))
                    .fetchAll(db).map(\.name)
            }
            step("cte to a table") {
                let association = best.association(to: AssocTeamRecord.self, on: { best, team in best[Column("teamId")] == team[Column("id")] })
                return try best.all().with(best).including(required: association).order(Column("teamId"))
                    .fetchAll(db).map(\.debugDescription)
            }
            step("cte to a cte") {
                let names = CommonTableExpression(named: "names", sql: "SELECT id, name FROM team")
                let association = best.association(to: names, on: { best, names in best[Column("teamId")] == names[Column("id")] })
                return try best.all().with(best).with(names).including(required: association.select(Column("name")))
                    .order(Column("teamId")).fetchAll(db).map(\.debugDescription)
            }
            step("cte with key") {
                let association = AssocTeamRecord.association(to: best, on: { team, best in best[Column("teamId")] == team[Column("id")] })
                    .forKey("champion")
                return try AssocTeamRecord.with(best).including(optional: association).order(Column("id"))
                    .asRequest(of: Row.self).fetchAll(db).map(\.debugDescription)
            }
        }
    },
    Program("query-joined-orderings") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            let team = AssocPlayerRecord.team
            func names(_ request: QueryInterfaceRequest<AssocPlayerRecord>) throws -> [String] {
                try request.fetchAll(db).map(\.name)
            }
            step("association ordering") { try names(AssocPlayerRecord.including(required: team.order(Column("name")))) }
            step("association ordering, then request ordering") {
                try names(AssocPlayerRecord.including(required: team.order(Column("name"))).order(Column("score")))
            }
            step("reversed") { try names(AssocPlayerRecord.including(required: team.order(Column("name"))).reversed()) }
            step("unordered") { try names(AssocPlayerRecord.including(required: team.order(Column("name"))).unordered()) }
            step("reversed association") {
                try names(AssocPlayerRecord.including(required: team.order(Column("name")).reversed()))
            }
            step("association stable order") {
                try names(AssocPlayerRecord.joining(required: team.withStableOrder()).order(Column("name")))
            }
            step("ordering through filter") {
                try names(AssocPlayerRecord.including(required: team.order(Column("name")).filter(Column("id") > 0))
                    .filter(Column("score") > 0).order(Column("id")))
            }
            step("nested association orderings") {
                try names(AssocPlayerRecord.including(required: team
                    .order(Column("name").desc)
                    .including(optional: AssocTeamRecord.bestPlayer.order(Column("score")))))
            }
            step("joining ordering") { try names(AssocPlayerRecord.joining(optional: team.order(Column("id").desc))) }
            step("limit with association ordering") {
                try names(AssocPlayerRecord.including(required: team.order(Column("name"))).limit(2))
            }
            step("derived, grouped") {
                try AssocTeamRecord.joining(required: AssocTeamRecord.players.order(Column("score")))
                    .group(Column("id")).fetchAll(db).map(\.name)
            }
            step("annotated ordering") {
                try AssocTeamRecord.annotated(with: AssocTeamRecord.players.count)
                    .including(optional: AssocTeamRecord.bestPlayer.order(Column("score").desc))
                    .asRequest(of: Row.self).fetchAll(db).map(\.debugDescription)
            }
        }
    },
    Program("query-parallel-association-refinements") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            let team = AssocPlayerRecord.team
            step("select then select") {
                try AssocPlayerRecord
                    .including(required: team.select(Column("name")))
                    .including(required: team.select(Column("id")))
                    .order(Column("id")).asRequest(of: Row.self).fetchAll(db).map(\.debugDescription)
            }
            step("select then plain") {
                try AssocPlayerRecord
                    .including(required: team.select(Column("name")))
                    .including(optional: team)
                    .order(Column("id")).asRequest(of: Row.self).fetchAll(db).map(\.debugDescription)
            }
            step("plain then select") {
                try AssocPlayerRecord
                    .including(optional: team)
                    .including(required: team.select(Column("name")))
                    .order(Column("id")).asRequest(of: Row.self).fetchAll(db).map(\.debugDescription)
            }
            step("joining then including selected") {
                try AssocPlayerRecord
                    .joining(required: team.filter(Column("id") == 1))
                    .including(optional: team.select(Column("name")))
                    .order(Column("id")).asRequest(of: Row.self).fetchAll(db).map(\.debugDescription)
            }
            step("annotated then select") {
                try AssocPlayerRecord
                    .including(required: team.annotated(with: Column("name").forKey("teamName")))
                    .including(required: team.select(Column("id")))
                    .order(Column("id")).asRequest(of: Row.self).fetchAll(db).map(\.debugDescription)
            }
            step("select then annotated") {
                try AssocPlayerRecord
                    .including(required: team.select(Column("id")))
                    .including(required: team.annotated(with: Column("name").forKey("teamName")))
                    .order(Column("id")).asRequest(of: Row.self).fetchAll(db).map(\.debugDescription)
            }
        }
    },
    Program("query-aggregate-keys") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            let players = AssocTeamRecord.players
            func rows(_ request: QueryInterfaceRequest<AssocTeamRecord>) throws -> [String] {
                try request.order(Column("id")).asRequest(of: Row.self).fetchAll(db).map(\.debugDescription)
            }
            step("count forKey") { try rows(AssocTeamRecord.annotated(with: players.count.forKey("n"))) }
            step("max forKey") { try rows(AssocTeamRecord.annotated(with: players.max(Column("score")).forKey("top"))) }
            step("coding key") {
                enum Keys: String, CodingKey { case total }
                return try rows(AssocTeamRecord.annotated(with: players.sum(Column("score")).forKey(Keys.total)))
            }
            step("arithmetic forKey") {
                try rows(AssocTeamRecord.annotated(with: (players.count * 2).forKey("double")))
            }
            step("aliased association count") {
                try rows(AssocTeamRecord.annotated(with: players.forKey("members").count))
            }
            step("filtered forKey") {
                try rows(AssocTeamRecord.annotated(with: players.filter(Column("score") > 100).count.forKey("good")))
            }
            step("two aggregates") {
                try rows(AssocTeamRecord.annotated(with: players.count.forKey("a"), players.min(Column("score")).forKey("b")))
            }
            step("ifNull forKey") {
                try rows(AssocTeamRecord.annotated(with: (players.max(Column("score")) ?? 0).forKey("top")))
            }
        }
    },
    Program("query-prefetch-through") {
        let dbQueue = try makeLibraryDatabase()
        try dbQueue.read { db in
            step("has many through") {
                try LibCountry.including(all: LibCountry.books).order(Column("code"))
                    .asRequest(of: CountryBooks.self).fetchAll(db).map { "\($0.country.code) \($0.books.map(\.title))" }
            }
            step("has many through, filtered and ordered") {
                try LibCountry.including(all: LibCountry.books.filter(Column("year") > 1840).order(Column("title")))
                    .order(Column("code"))
                    .asRequest(of: CountryBooks.self).fetchAll(db).map { "\($0.country.code) \($0.books.map(\.title))" }
            }
            step("has many through, rows") {
                try LibCountry.including(all: LibCountry.books.order(Column("id"))).filter(Column("code") == "FR")
                    .asRequest(of: Row.self).fetchAll(db).map(\.debugDescription)
            }
            step("has many through, keyed") {
                try LibCountry.including(all: LibCountry.books.forKey("works").order(Column("id"))).filter(Column("code") == "FR")
                    .asRequest(of: Row.self).fetchAll(db).map(\.debugDescription)
            }
            step("has many through a belongs to") {
                let countryPeople = LibBook.hasMany(LibPerson.self, through: LibBook.country, using: LibCountry.people)
                return try LibBook.including(all: countryPeople.order(Column("id"))).order(Column("id"))
                    .asRequest(of: Row.self).fetchAll(db).map(\.debugDescription)
            }
        }
    },
    Program("query-table-optional-types") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            let player = Table("player")
            step("fetchAll optional") { try Int64?.fetchAll(db, player.select(Column("teamId")).order(Column("id"))) }
            step("select as optional") { try player.select(Column("teamId"), as: Int64?.self).order(Column("id")).fetchAll(db) }
            step("select as optional, set") { try player.select(Column("teamId"), as: Int64?.self).fetchSet(db).count }
            step("select as optional, cursor") {
                try Array(player.select(Column("teamId"), as: Int64?.self).order(Column("id")).fetchCursor(db))
            }
            step("typed table optional") {
                try Table<Player>("player").select(Column("teamId"), as: Int64?.self).order(Column("id")).fetchAll(db)
            }
            step("optional string") { try String?.fetchAll(db, player.select(Column("name")).filter(Column("id") < 3)) }
        }
    },
]
