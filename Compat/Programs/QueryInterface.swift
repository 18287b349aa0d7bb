#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

/// Tables player and team with a few rows, created quietly.
func makeQueryDatabase() throws -> DatabaseQueue {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
        try quietly {
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE player (
                  id INTEGER PRIMARY KEY,
                  teamId INTEGER REFERENCES team(id),
                  name TEXT NOT NULL,
                  score INTEGER NOT NULL,
                  createdAt DATETIME NOT NULL);
                INSERT INTO team VALUES (1, 'Reds'), (2, 'Blues');
                INSERT INTO player VALUES
                  (1, 1, 'Arthur', 100, '2020-01-01 00:00:00.000'),
                  (2, 1, 'Barbara', 1000, '2020-01-02 00:00:00.000'),
                  (3, 2, 'Craig', 500, '2020-01-03 00:00:00.000'),
                  (4, NULL, 'Diane', 500, '2020-01-04 00:00:00.000'),
                  (5, 2, 'eve', 20, '2020-01-05 00:00:00.000');
                """)
        }
    }
    return dbQueue
}

struct Team: Codable, FetchableRecord, PersistableRecord, Identifiable {
    var id: Int64
    var name: String
    enum Columns { static let id = Column("id"); static let name = Column("name") }
}

let queryPrograms: [Program] = [
    Program("query-filter-order") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            let name = Player.Columns.name, score = Player.Columns.score
            step("all") { try Player.fetchAll(db).map(\.name) }
            step("filter") { try Player.filter(score > 400).fetchAll(db).map(\.name) }
            step("filter closure") { try Player.filter { $0.score > 400 && $0.name != "Craig" }.fetchAll(db).map(\.name) }
            step("filter sql") { try Player.filter(sql: "score > ?", arguments: [400]).fetchAll(db).map(\.name) }
            step("filter literal") { try Player.filter(literal: "score > \(400)").fetchCount(db) }
            step("chained filters") { try Player.filter(score > 10).filter(name.like("%a%")).fetchAll(db).map(\.name) }
            step("order") { try Player.order(score.desc, name).fetchAll(db).map(\.name) }
            step("order closure") { try Player.order { [$0.score.asc, $0.name.desc] }.fetchAll(db).map(\.name) }
            step("order replaces") { try Player.order(score).order(name.desc).fetchAll(db).map(\.name) }
            step("reversed") { try Player.order(score, name).reversed().fetchAll(db).map(\.name) }
            step("reversed no order") { try Player.all().reversed().fetchAll(db).map(\.name) }
            step("unordered") { try Player.order(score).unordered().fetchAll(db).map(\.name) }
            step("nulls") { try Player.order(Column("teamId").ascNullsLast, name).fetchAll(db).map(\.name) }
            step("nulls desc") { try Player.order(Column("teamId").descNullsFirst, name).fetchAll(db).map(\.name) }
            step("collating") { try Player.order(name.collating(.nocase)).fetchAll(db).map(\.name) }
            step("collating swift") { try Player.order(name.collating(.localizedCaseInsensitiveCompare)).fetchAll(db).map(\.name) }
            step("limit") { try Player.order(name).limit(2).fetchAll(db).map(\.name) }
            step("limit offset") { try Player.order(name).limit(2, offset: 3).fetchAll(db).map(\.name) }
            step("fetchOne") { try Player.order(score.desc).fetchOne(db)?.name }
            step("fetchOne filter primary key") { try Player.filter(Player.Columns.id == 2).fetchOne(db)?.name }
            step("fetchOne filter unique key and other") { try Player.filter(Player.Columns.id == 2 && score > 0).fetchOne(db)?.name }
            step("fetchOne filter not unique") { try Player.filter(score == 500).order(Player.Columns.id).fetchOne(db)?.name }
            step("fetchOne with limit") { try Player.order(score.desc).limit(3, offset: 1).fetchOne(db)?.name }
            step("orderByPrimaryKey") { try Player.all().orderByPrimaryKey().fetchAll(db).map(\.name) }
            step("withStableOrder") { try Player.order(score).withStableOrder().fetchAll(db).map(\.name) }
            step("none") { try Player.none().fetchAll(db).count }
            step("isEmpty") { (try Player.filter(score > 5000).isEmpty(db), try Player.all().isEmpty(db)) }
            step("fetchCount") { try Player.filter(score >= 500).fetchCount(db) }
            step("fetchCount limit") { try Player.limit(2).fetchCount(db) }
            step("fetchCount distinct") { try Player.select(score).distinct().fetchCount(db) }
            step("fetchCount group") { try Player.select(score).group(score).fetchCount(db) }
            step("exists") { try SQLRequest<Bool>(literal: "SELECT \(Player.filter(name == "Arthur").exists())").fetchOne(db) }
        }
    },
    Program("query-expressions") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            let name = Player.Columns.name, score = Player.Columns.score, teamId = Column("teamId")
            func names(_ label: String, _ predicate: some SQLSpecificExpressible) {
                step(label) { try Player.filter(predicate).order(Player.Columns.id).fetchAll(db).map(\.name) }
            }
            names("==", name == "Arthur")
            names("== nil", teamId == nil)
            names("!= nil", teamId != nil)
            names("===", name === "Arthur")
            names("!==", teamId !== 1)
            names("< >=", score < 500 || score >= 1000)
            names("&& ! ", !(score > 100) && name != "eve")
            names("arithmetic", score * 2 + 1 > 1000 - 1)
            names("division", score / 100 == 5)
            names("negation", -score < -600)
            names("like", name.like("b%"))
            names("like escape", name.like("b%", escape: "\\"))
            names("contains array", [1, 3, 5].contains(Player.Columns.id))
            names("contains empty", [Int]().contains(Player.Columns.id))
            names("contains range", (2...4).contains(Player.Columns.id))
            names("contains half-open", (2..<4).contains(Player.Columns.id))
            names("contains string range", ("B"..."D").contains(name))
            names("in subquery", Team.filter(Team.Columns.name == "Reds").select(Team.Columns.id).contains(teamId))
            names("exists subquery", Team.filter(sql: "team.id = player.teamId AND team.name = 'Blues'").exists())
            names("??", (teamId ?? 0) == 0)
            names("bitwise", (Player.Columns.id & 1) == 1)
            names("bitwise or shift", (Player.Columns.id | 8) << 1 == 18)
            names("nocase", name.collating(.nocase) == "EVE")
            names("length", length(name) > 5)
            names("lowercased", name.lowercased == "arthur")
            names("uppercased", name.uppercased == "EVE")
            names("abs", abs(score - 500) < 1)
            names("cast", cast(score, as: .text) == "500")
            names("coalesce", coalesce([teamId, Player.Columns.score]) == 500)
            names("date", dateTime(Player.Columns.createdAt) > "2020-01-03")
            names("julianDay", julianDay(Player.Columns.createdAt) > 2458851)
            names("true", true.sqlExpression)
            names("matches sql literal", SQL("score > \(600)").sqlExpression)
            names("is true", (score > 600) == true)
        }
    },
    Program("query-select-aggregate") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            let name = Player.Columns.name, score = Player.Columns.score, teamId = Column("teamId")
            step("select") { try Row.fetchAll(db, Player.select(name, score).order(name).limit(2)) }
            step("select as") { try String.fetchAll(db, Player.select(name, as: String.self).order(name)) }
            step("select sql") { try Row.fetchOne(db, Player.select(sql: "name, score * ? AS double", arguments: [2]).order(name)) }
            step("select literal") { try Row.fetchOne(db, Player.select(literal: "name, \(score) + \(1) AS plus").order(name)) }
            step("select closure") { try Row.fetchOne(db, Player.select { [$0.name, $0.score.forKey("points")] }.order(name)) }
            step("select aliased") { try Row.fetchOne(db, Player.select(name.forKey("n"), (score * 10).forKey("s")).order(name)) }
            step("select AllColumns") { try Row.fetchOne(db, Player.select(AllColumns(), (score + 1).forKey("next")).order(name)) }
            step("annotated") { try Row.fetchOne(db, Player.annotated(with: (score * 2).forKey("double")).order(name)) }
            step("distinct") { try Int.fetchAll(db, Player.select(score).distinct().order(score)) }
            step("count") { try Int.fetchOne(db, Player.select(count(Player.Columns.id))) }
            step("count distinct") { try Int.fetchOne(db, Player.select(count(distinct: score))) }
            step("count star") { try Int.fetchOne(db, Player.select(count(Player.Columns.id))) }
            step("aggregates") {
                try Row.fetchOne(db, Player.select(min(score), max(score), sum(score), total(score), average(score)))
            }
            step("group having") {
                try Row.fetchAll(db, Player.select(teamId, count(Player.Columns.id).forKey("n"), max(score).forKey("best"))
                    .group(teamId).having(count(Player.Columns.id) >= 2).order(teamId))
            }
            step("having sql") {
                try Row.fetchAll(db, Player.select(teamId, sum(score)).group(teamId).having(sql: "SUM(score) > ?", arguments: [200]).order(teamId))
            }
            step("group sql") { try Row.fetchAll(db, Player.select(sql: "teamId, COUNT(*)").group(sql: "teamId").order(teamId)) }
            step("table select") { try Row.fetchAll(db, Table("team").select(Column("name")).order(Column("id").desc)) }
            step("table filter count") { try Table("player").filter(score > 100).fetchCount(db) }
            step("table all rows") { try Table("team").fetchAll(db) }
            step("table as record") { try Table<Team>("team").fetchAll(db).map(\.name) }
            step("asRequest") { try Player.select(name).asRequest(of: String.self).fetchAll(db) }
            step("selectPrimaryKey") { try Player.all().selectPrimaryKey(as: Int64.self).fetchAll(db) }
            step("numberOfColumns") { try Player.select(name, score).fetchAll(db).count }
            step("SQLRequest") { try SQLRequest<String>(sql: "SELECT name FROM player WHERE id = ?", arguments: [1]).fetchOne(db) }
            step("SQLRequest literal") { try SQLRequest<Int>(literal: "SELECT \(score) FROM \(Player.self) WHERE \(name) = \("Craig")").fetchOne(db) }
            step("AnyFetchRequest") { try AnyFetchRequest<String>(Player.select(name).order(name)).fetchAll(db) }
            step("adapted") {
                try Row.fetchAll(db, Player.select(name, score).order(name).adapted { _ in SuffixRowAdapter(fromIndex: 1) }).first
            }
            step("fetchSet") { try Player.select(score, as: Int.self).fetchSet(db).sorted() }
            step("fetchCursor") {
                let cursor = try Player.order(Player.Columns.id).fetchCursor(db)
                return try cursor.map(\.name).filter { $0.count > 4 }.reduce(into: []) { $0.append($1) }
            }
        }
    },
    Program("query-aliases-cte-subqueries") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            let score = Player.Columns.score
            step("aliased") {
                let alias = TableAlias(name: "p")
                return try Player.aliased(alias).filter(alias[score] > 400).order(alias[Column("name")]).fetchAll(db).map(\.name)
            }
            step("subquery") {
                let best = Player.select(max(score))
                return try Player.filter(score == best).fetchAll(db).map(\.name)
            }
            step("subquery literal") {
                let average = Player.select(average(score))
                return try Player.filter(literal: "\(score) > (\(average))").order(Player.Columns.id).fetchAll(db).map(\.name)
            }
            step("request as value") {
                let subquery = Team.select(Team.Columns.id).filter(Team.Columns.name == "Blues")
                return try Player.filter(Column("teamId") == subquery).fetchCount(db)
            }
            step("cte") {
                let cte = CommonTableExpression(named: "good", request: Player.filter(score >= 500))
                return try Player.with(cte).filter(cte.contains(Player.Columns.id)).fetchAll(db).map(\.name)
            }
            step("cte sql") {
                let cte = CommonTableExpression<Row>(named: "numbers", columns: ["n"], sql: "SELECT 1 UNION ALL SELECT 2")
                return try cte.all().with(cte).fetchAll(db)
            }
            step("recursive cte") {
                let counter = CommonTableExpression<Int>(recursive: true, named: "counter", columns: ["n"],
                                                         literal: "SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < 5")
                return try counter.all().with(counter).fetchAll(db)
            }
            step("literal interpolation") {
                let request: SQLRequest<Row> = "SELECT \(columnsOf: Player.self) FROM \(Player.self) WHERE \(score) > \(600)"
                return try request.fetchAll(db)
            }
            step("literal interpolation alias") {
                let request: SQLRequest<String> = "SELECT \(Player.Columns.name) FROM \(Player.self) ORDER BY \(score.desc) LIMIT 1"
                return try request.fetchOne(db)
            }
            step("table alias with columnsOf") {
                let alias = TableAlias(name: "x")
                let request: SQLRequest<Row> = "SELECT \(columnsOf: Player.self, tableAlias: "x") FROM player x WHERE x.id = 1"
                _ = alias
                return try request.fetchOne(db)
            }
        }
    },
    Program("query-batch-writes") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.write { db in
            let score = Player.Columns.score, name = Player.Columns.name
            step("updateAll") { try Player.filter(score < 100).updateAll(db, score.set(to: 100)) }
            step("updateAll several") { try Player.filter(name == "Arthur").updateAll(db, score += 1, name.set(to: "Art")) }
            step("updateAll ops") { try Player.filter(Player.Columns.id == 2).updateAll(db, score -= 1, score *= 2) }
            step("updateAll divide") { try Player.filter(Player.Columns.id == 2).updateAll(db, score /= 3) }
            step("updateAll null") { try Player.filter(Player.Columns.id == 4).updateAll(db, Column("teamId").set(to: nil)) }
            step("updateAll static") { try Player.updateAll(db, [score += 0]) }
            step("updateAll ordered limit") { try Player.order(score.desc).limit(1).updateAll(db, score.set(to: 2000)) }
            step("updateAll conflict") { try Player.filter(Player.Columns.id == 3).updateAll(db, onConflict: .ignore, score.set(to: 1)) }
            step("updateAndFetchAll") { try Player.filter(Player.Columns.id <= 2).updateAndFetchAll(db, [score.set(to: 5)]).map(\.score) }
            step("updateAndFetchCursor") {
                try Player.filter(Player.Columns.id == 3).updateAndFetchCursor(db, [score.set(to: 6)]).map(\.name).reduce(into: []) { $0.append($1) }
            }
            step("updateAndFetchSet selection") {
                try Player.filter(Player.Columns.id == 3).updateAndFetchStatement(db, [score.set(to: 8)], selection: [name, score]).columnNames
            }
            step("deleteAll filter") { try Player.filter(name == "eve").deleteAll(db) }
            step("deleteAndFetchAll") { try Player.filter(Player.Columns.id == 4).deleteAndFetchAll(db).map(\.name) }
            step("deleteAndFetchIds") { try Player.filter(Player.Columns.id == 3).deleteAndFetchIds(db).compactMap { $0 }.sorted() }
            step("deleteAll ordered limit") { try Player.order(score).limit(1).deleteAll(db) }
            step("table deleteAll") { try Table("team").filter(Column("id") == 2).deleteAll(db) }
            step("table updateAll") { try Table("team").updateAll(db, Column("name").set(to: "All")) }
            step("rows") { try Row.fetchAll(db, sql: "SELECT id, name, score FROM player ORDER BY id") }
            step("Player.deleteAll") { try Player.deleteAll(db) }
        }
    },
]

extension DerivableRequest<Player> {
    func compatNamed(_ name: String) -> Self { filter(Player.Columns.name == name) }
    func compatBestFirst() -> Self { order { [$0.score.desc, $0.name] } }
    func compatByKey(_ id: Int64) -> Self { filter(key: id) }
    func compatTeams() -> Self { select(Column("teamId"), sum(Column("score"))).group(Column("teamId")).having(sum(Column("score")) > 100) }
}

func compatRefined<R: DerivableRequest<Player>>(_ request: R) -> R {
    request.filter(sql: "score > ?", arguments: [50]).order(Column("name")).reversed()
}

let requestProtocolPrograms: [Program] = [
    Program("query-derivable-request") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            step("named") { try Player.all().compatNamed("Arthur").fetchAll(db).map(\.name) }
            step("bestFirst") { try Player.all().compatBestFirst().fetchAll(db).map(\.name) }
            step("byKey fetchOne") { try Player.all().compatByKey(2).fetchOne(db)?.name }
            step("byKey none") { try Player.all().compatByKey(99).fetchOne(db)?.name }
            step("teams") { try Row.fetchAll(db, Player.all().compatTeams()).map { $0.description } }
            step("generic") { try compatRefined(Player.all()).fetchAll(db).map(\.name) }
            step("orderByPrimaryKey") { try Player.all().reversed().orderByPrimaryKey().fetchAll(db).map(\.name) }
            step("groupByPrimaryKey") { try Row.fetchAll(db, Player.select(Column("name")).groupByPrimaryKey()).map { $0.description } }
            step("filterWhenConnected") {
                try Player.all().filterWhenConnected { db in Column(try db.primaryKey("player").columns[0]) > 3 }.fetchAll(db).map(\.name)
            }
            step("orderWhenConnected") {
                try Player.all().orderWhenConnected { _ in [Column("name").desc] }.fetchAll(db).map(\.name)
            }
            step("selectWhenConnected") {
                try Row.fetchAll(db, Player.all().selectWhenConnected { _ in [Column("name")] }.filter(key: 1)).map { $0.description }
            }
            step("annotatedWhenConnected") {
                try Row.fetchAll(db, Player.select(Column("id")).annotatedWhenConnected { _ in [Column("name")] }.filter(key: 1)).map { $0.description }
            }
            step("groupWhenConnected") {
                try Row.fetchAll(db, Player.select(Column("teamId"), count(Column("id"))).groupWhenConnected { _ in [Column("teamId")] }.havingWhenConnected { _ in count(Column("id")) > 1 }).map { $0.description }
            }
            step("count of when-connected selection") {
                try Player.all().selectWhenConnected { _ in [Column("name")] }.fetchCount(db)
            }
        }
    },
]
