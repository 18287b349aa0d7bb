#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

// Less common query-interface forms on the player and team tables of
// makeQueryDatabase(): their SQL and results.

let queryMiscPrograms: [Program] = [
    Program("query-misc-forms") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            let player = Table("player")
            let name = Column("name"), score = Column("score"), teamId = Column("teamId")
            step("typed table count") { try player.filter(score > 100).fetchCount(db) }
            step("distinct") { try player.select(teamId, as: Int64?.self).distinct().order(teamId).fetchAll(db) }
            step("limit offset") { try player.select(name, as: String.self).order(name).limit(2, offset: 1).fetchAll(db) }
            step("reversed") { try player.select(name, as: String.self).order(score, name).reversed().fetchAll(db) }
            step("reversed without order") { try player.select(name, as: String.self).reversed().fetchAll(db) }
            step("unordered") { try player.select(name, as: String.self).order(name).unordered().fetchCount(db) }
            step("order by primary key") { try player.select(name, as: String.self).orderByPrimaryKey().fetchAll(db) }
            step("group having") {
                try player.select(teamId, count(Column.rowID)).group(teamId).having(count(Column.rowID) > 1)
                    .order(teamId).asRequest(of: Row.self).fetchAll(db).map(\.description)
            }
            step("exists") { try player.filter(name == "Arthur").isEmpty(db) }
            step("subquery in") {
                let reds = Table("team").filter(Column("name") == "Reds").select(Column("id"))
                return try player.filter(reds.contains(teamId)).select(name, as: String.self).order(name).fetchAll(db)
            }
            step("exists subquery") {
                let teams = Table("team").filter(Column("id") == teamId && Column("name") == "Blues")
                return try player.filter(teams.exists()).select(name, as: String.self).order(name).fetchAll(db)
            }
            step("empty in") { try player.filter([Int]().contains(score)).fetchCount(db) }
            step("not in") { try player.filter(![100, 500].contains(score)).select(name, as: String.self).order(name).fetchAll(db) }
            step("between") { try player.filter((100...500).contains(score)).fetchCount(db) }
            step("half open range") { try player.filter((100..<500).contains(score)).fetchCount(db) }
            step("like and collating") {
                try player.filter(name.like("a%")).select(name, as: String.self).fetchAll(db)
                    + player.filter(name.collating(.nocase) == "EVE").select(name, as: String.self).fetchAll(db)
            }
            step("is null, is not null") {
                "\(try player.filter(teamId == nil).fetchCount(db)) \(try player.filter(teamId != nil).fetchCount(db))"
            }
            step("=== and !==") {
                "\(try player.filter(teamId === nil).fetchCount(db)) \(try player.filter(teamId !== 1).fetchCount(db))"
            }
            step("functions") {
                try player.select(length(name), abs(score - 600), name.lowercased, name.uppercased, teamId ?? 0)
                    .order(Column("id")).limit(2).asRequest(of: Row.self).fetchAll(db).map(\.description)
            }
            step("aggregates") {
                try player.select(min(score), max(score), sum(score), total(score), average(score), count(distinct: teamId))
                    .asRequest(of: Row.self).fetchOne(db)!.description
            }
            step("cast") { try player.select(cast(score, as: .text), as: String.self).order(Column("id")).limit(1).fetchOne(db) }
            step("coalesce") { try player.select([coalesce([teamId, score])], as: Int.self).order(Column("id")).fetchAll(db) }
            step("arithmetic") { try player.select((score + 1) * 2 - score / 10, as: Int.self).order(Column("id")).limit(3).fetchAll(db) }
            step("string concat") { try player.select(name + "!", as: String.self).order(Column("id")).limit(2).fetchAll(db) }
            step("bool and or not") {
                try player.filter((score > 100 && teamId != nil) || !(name != "Diane")).select(name, as: String.self).order(name).fetchAll(db)
            }
            step("filter by ids") { try player.filter(keys: [1, 3, 99]).select(name, as: String.self).order(name).fetchAll(db) }
            step("fetchSet") { try player.select(teamId, as: Int64.self).filter(teamId != nil).fetchSet(db).sorted() }
            step("sql literal in select") {
                try player.select(literal: "name || \(":") || score").order(Column("id")).limit(2).asRequest(of: String.self).fetchAll(db)
            }
            step("annotated") {
                try player.annotated(with: (score * 2).forKey("double")).order(Column("id")).limit(1)
                    .asRequest(of: Row.self).fetchOne(db)!.description
            }
            step("select all columns excluding") {
                try Player.select(.allColumns(excluding: ["createdAt", "score"])).order(Column("id")).limit(1)
                    .asRequest(of: Row.self).fetchOne(db)!.description
            }
            step("common table expression") {
                let cte = CommonTableExpression(named: "best", request: player.filter(score >= 500))
                return try cte.all().with(cte).select(name, as: String.self).order(name).fetchAll(db)
            }
            step("recursive cte") {
                let counter = CommonTableExpression<Int>(
                    recursive: true, named: "counter", columns: ["n"],
                    sql: "SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < 5")
                return try counter.all().with(counter).fetchAll(db)
            }
        }
    },
]
