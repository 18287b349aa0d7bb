#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

// Optional expressions, TableAlias.exists and its dynamic members, SQLSubquery as an expression,
// AllColumnsExcluding, and interpolated sequences of expressions, on the tables of
// makeQueryDatabase() and a few more.

private struct GapTeam: TableRecord {
    static let databaseTableName = "team"
    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let everything = AllColumns()
        static let byNameDesc = Column("name").desc
    }
}

private struct GapRedTeam: TableRecord {
    static let databaseTableName = "redTeam"
}

private struct GapMembership: TableRecord {
    static let databaseTableName = "membership"
}

private struct GapNote: TableRecord {
    static let databaseTableName = "note"
}

private struct GapPlayer: TableRecord {
    static let databaseTableName = "player"
    static let team = belongsTo(GapTeam.self)
    static let redTeam = belongsTo(GapRedTeam.self, using: ForeignKey(["teamId"], to: ["id"]))
    static let memberships = hasMany(GapMembership.self)
    static let notes = hasMany(GapNote.self)
    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let score = Column("score")
    }
}

/// An expression that is neither a value nor a column.
private struct GapBonus: SQLExpressible {
    var points: Int
    var sqlExpression: SQLExpression { Column("score") + points }
}

/// A literal listing expressions of one generic type.
private func gapList<T: SQLExpressible>(_ values: [T]) -> SQL {
    "SELECT name FROM player WHERE score IN \(values) ORDER BY id"
}

let queryInterfaceGapsPrograms: [Program] = [
    Program("query-optional-expressions") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            let player = Table("player")
            let name: Column? = Column("name")
            let score: Column? = Column("score")
            let missing: Column? = nil
            step("order desc asc") { try player.select(Column("name"), as: String.self).order(score.desc, name.asc).fetchAll(db) }
            step("nulls") {
                try player.select(Column("name"), as: String.self)
                    .order(Column("teamId").ascNullsLast, name.descNullsFirst).fetchAll(db)
            }
            step("order by optional") { try player.select(Column("name"), as: String.self).order(name).fetchAll(db) }
            step("order by nil") { try player.select(Column("name"), as: String.self).order(missing, Column("id").desc).fetchAll(db) }
            step("like") { try player.select(Column("name"), as: String.self).filter(name.like("%a%")).order(Column("id")).fetchAll(db) }
            step("collating") {
                try player.select(Column("name"), as: String.self).order(name.collating(.nocase).desc).fetchAll(db)
            }
            step("uppercased") { try player.select(name.uppercased, as: String.self).order(Column("id")).limit(2).fetchAll(db) }
            step("select optional") {
                try player.select(name, missing).order(Column("id")).limit(2).asRequest(of: Row.self).fetchAll(db).map(\.description)
            }
            step("forKey") {
                try player.select(score.forKey("points")).order(Column("id")).limit(1).asRequest(of: Row.self).fetchOne(db)!.description
            }
            step("negated") { try player.filter(!(score > 200)).select(Column("name"), as: String.self).order(Column("id")).fetchAll(db) }
            step("ifnull") { try player.select(Column("teamId") ?? 0, as: Int.self).order(Column("id")).fetchAll(db) }
            step("optional ifnull") {
                let expression: SQLExpression = score ?? Column("id")
                return try player.select(expression, as: Int.self).order(Column("id")).fetchAll(db)
            }
            step("optional expression ifnull") {
                let optional: SQLExpression? = Column("teamId").sqlExpression
                let expression: SQLExpression = optional ?? Column("id").sqlExpression
                return try player.select(expression, as: Int.self).order(Column("id")).fetchAll(db)
            }
            step("nil ordering term") {
                let ordering: SQLOrdering? = nil
                return try player.select(Column("name"), as: String.self).order(ordering, Column("id").desc).fetchAll(db)
            }
            step("optional in literal") {
                try SQLRequest<Row>(literal: "SELECT \(name as Column?), \(missing as Column?) FROM player ORDER BY \(score.desc) LIMIT 2").fetchAll(db).map(\.description)
            }
        }
    },
    Program("query-table-alias-exists") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.write { db in
            try quietly {
                try db.execute(sql: """
                    CREATE VIEW redTeam AS SELECT id, name FROM team WHERE id = 1;
                    CREATE TABLE membership (
                      playerId INTEGER NOT NULL REFERENCES player(id),
                      club TEXT NOT NULL,
                      PRIMARY KEY (playerId, club)) WITHOUT ROWID;
                    INSERT INTO membership VALUES (1, 'chess'), (3, 'golf');
                    CREATE TABLE note (playerId INTEGER REFERENCES player(id), text TEXT);
                    INSERT INTO note VALUES (2, 'fast');
                    """)
            }
            let name = GapPlayer.Columns.name
            step("without team") {
                let team = TableAlias<GapTeam>()
                return try GapPlayer.joining(optional: GapPlayer.team.aliased(team)).filter(!team.exists)
                    .select(name, as: String.self).fetchAll(db)
            }
            step("with team") {
                let team = TableAlias<GapTeam>()
                return try GapPlayer.joining(optional: GapPlayer.team.aliased(team)).filter(team.exists)
                    .select(name, as: String.self).order(name).fetchAll(db)
            }
            step("exists selected") {
                let team = TableAlias()
                return try GapPlayer.joining(optional: GapPlayer.team.aliased(team))
                    .select(name, team.exists.forKey("hasTeam")).order(name).asRequest(of: Row.self).fetchAll(db).map(\.description)
            }
            step("named alias") {
                let t = TableAlias<GapTeam>(name: "t")
                return try GapPlayer.joining(optional: GapPlayer.team.aliased(t)).filter(!t.exists || t.name == "Reds")
                    .select(name, as: String.self).order(name).fetchAll(db)
            }
            step("exists == true, == false") {
                let team = TableAlias<GapTeam>()
                let request = GapPlayer.joining(optional: GapPlayer.team.aliased(team)).select(name, as: String.self).order(name)
                return try [request.filter(team.exists == true).fetchAll(db), request.filter(team.exists == false).fetchAll(db)]
            }
            step("view") {
                let red = TableAlias<GapRedTeam>()
                return try GapPlayer.joining(optional: GapPlayer.redTeam.aliased(red)).filter(!red.exists)
                    .select(name, as: String.self).order(name).fetchAll(db)
            }
            step("view exists") {
                let red = TableAlias<GapRedTeam>()
                return try GapPlayer.joining(optional: GapPlayer.redTeam.aliased(red)).filter(red.exists)
                    .select(name, as: String.self).order(name).fetchAll(db)
            }
            step("without rowid") {
                let membership = TableAlias<GapMembership>()
                return try GapPlayer.joining(optional: GapPlayer.memberships.aliased(membership)).filter(membership.exists)
                    .select(name, as: String.self).order(name).fetchAll(db)
            }
            step("without rowid negated") {
                let membership = TableAlias<GapMembership>()
                return try GapPlayer.joining(optional: GapPlayer.memberships.aliased(membership)).filter(!membership.exists)
                    .select(name, as: String.self).order(name).fetchAll(db)
            }
            step("rowid") {
                let note = TableAlias<GapNote>()
                return try GapPlayer.joining(optional: GapPlayer.notes.aliased(note)).filter(note.exists)
                    .select(name, as: String.self).fetchAll(db)
            }
            step("single table") {
                let team = TableAlias<GapTeam>()
                return try GapTeam.aliased(team).filter(team.exists).select(GapTeam.Columns.name, as: String.self).fetchAll(db)
            }
        }
    },
    Program("query-table-alias-members") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            let name = GapPlayer.Columns.name
            step("selection member") {
                let team = TableAlias<GapTeam>()
                return try GapPlayer.joining(required: GapPlayer.team.aliased(team))
                    .select(team.everything, name).order(team.id, name).asRequest(of: Row.self).fetchAll(db).map(\.description)
            }
            step("ordering member") {
                let team = TableAlias<GapTeam>(name: "t")
                return try GapPlayer.joining(required: GapPlayer.team.aliased(team))
                    .select(name, as: String.self).order(team.byNameDesc, name).fetchAll(db)
            }
            step("expression member") {
                let team = TableAlias<GapTeam>()
                return try GapPlayer.joining(required: GapPlayer.team.aliased(team).filter(team.name == "Blues"))
                    .select(name, as: String.self).order(name).fetchAll(db)
            }
            step("components typealiases") {
                let aliasComponents: TableAlias<GapTeam>.DatabaseComponents = GapTeam.databaseComponents
                let tableComponents: Table<GapTeam>.DatabaseComponents = GapTeam.databaseComponents
                return "\(aliasComponents == tableComponents)"
            }
        }
    },
    Program("query-sqlsubquery-expressions") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            let player = Table("player")
            let name = Column("name"), teamId = Column("teamId")
            let reds: SQLSubquery = Table("team").filter(Column("name") == "Reds").select(Column("id")).sqlSubquery
            let best: SQLSubquery = player.select(max(Column("score"))).sqlSubquery
            step("contains") { try player.filter(reds.contains(teamId)).select(name, as: String.self).order(name).fetchAll(db) }
            step("not contains") { try player.filter(!reds.contains(teamId)).select(name, as: String.self).order(name).fetchAll(db) }
            step("equal") { try player.filter(Column("score") == best).select(name, as: String.self).fetchAll(db) }
            step("exists") { try player.filter(reds.exists()).fetchCount(db) }
            step("not exists") { try player.filter(!reds.exists()).fetchCount(db) }
            step("selected") {
                try player.select(name, best.forKey("best")).order(Column("id")).limit(1).asRequest(of: Row.self).fetchOne(db)!.description
            }
            step("ordered") { try player.select(name, as: String.self).order(best.desc, name).limit(2).fetchAll(db) }
            step("literal subquery") {
                let literal = SQLRequest<Int>(sql: "SELECT id FROM team WHERE name = ?", arguments: ["Blues"]).sqlSubquery
                return try player.filter(literal.contains(teamId)).select(name, as: String.self).order(name).fetchAll(db)
            }
            step("interpolated") {
                try SQLRequest<String>(literal: "SELECT name FROM player WHERE score = (\(best))").fetchAll(db)
            }
        }
    },
    Program("query-all-columns-excluding") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            step("strings") {
                let selection: AllColumnsExcluding = .allColumns(excluding: ["createdAt", "SCORE"])
                return try GapPlayer.select(selection).order(Column("id")).limit(1).asRequest(of: Row.self).fetchOne(db)!.description
            }
            step("columns") {
                try GapPlayer.select(.allColumns(excluding: [Column("createdAt"), Column("teamId")])).order(Column("id")).limit(1)
                    .asRequest(of: Row.self).fetchOne(db)!.description
            }
            step("initializer") {
                try Table("team").select(AllColumnsExcluding(["id"])).asRequest(of: Row.self).fetchAll(db).map(\.description)
            }
            step("aliased") {
                let team = TableAlias<GapTeam>()
                return try GapPlayer.joining(required: GapPlayer.team.aliased(team))
                    .select(team[AllColumnsExcluding(["id"])], GapPlayer.Columns.name).order(GapPlayer.Columns.id).limit(2)
                    .asRequest(of: Row.self).fetchAll(db).map(\.description)
            }
        }
    },
    Program("query-interpolated-expression-lists") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            step("custom expressions") {
                try SQLRequest<String>(literal: "SELECT name FROM player WHERE score IN \([GapBonus(points: 0), GapBonus(points: 1)]) ORDER BY id").fetchAll(db)
            }
            step("generic values") { try SQLRequest<String>(literal: gapList([100, 500])).fetchAll(db) }
            step("generic columns") { try SQLRequest<String>(literal: gapList([Column("score")])).fetchAll(db) }
            step("generic empty") { try SQLRequest<String>(literal: gapList([Int]())).fetchAll(db) }
            step("optional columns") {
                let columns: [Column?] = [Column("score"), nil]
                return try SQLRequest<String>(literal: "SELECT name FROM player WHERE score IN \(columns) ORDER BY id").fetchAll(db)
            }
            step("optional values") {
                let values: [Int?] = [20, nil]
                return try SQLRequest<String>(literal: "SELECT name FROM player WHERE score IN \(values) ORDER BY id").fetchAll(db)
            }
            step("data") {
                let data = Data("abc".utf8)
                return try SQLRequest<Row>(literal: "SELECT \(data) AS blob").fetchOne(db)!.description
            }
        }
    },
]
