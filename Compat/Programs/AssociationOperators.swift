#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

// Operators and functions on association aggregates, aggregates and
// `annotated(withRequired:)` on associations, the closure forms of the
// aggregates, and `through` associations of a `Table`: the SQL each form
// generates (and the names of the selected aggregates), and what it fetches.

struct AggOpTeam: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "team"
    static let players = hasMany(AggOpPlayer.self)
    static let coaches = hasMany(AggOpCoach.self)
    var id: Int64
    var name: String
}

struct AggOpPlayer: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    static let team = belongsTo(AggOpTeam.self)
    static let awards = hasMany(AggOpAward.self)
    enum Columns {
        static let name = Column("name")
        static let score = Column("score")
    }
    var id: Int64
    var teamId: Int64?
    var name: String
    var score: Int
}

struct AggOpCoach: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "coach"
    var id: Int64
    var teamId: Int64
    var name: String
    var score: Int
}

struct AggOpAward: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "award"
    static let player = belongsTo(AggOpPlayer.self)
    var id: Int64
    var playerId: Int64
    var name: String
}

extension DerivableRequest<AggOpTeam> {
    func withPlayerCount() -> Self { annotated(with: AggOpTeam.players.count) }
    func withoutPlayer() -> Self { having(AggOpTeam.players.isEmpty) }
}

extension DerivableRequest<AggOpPlayer> {
    func withAwardCount() -> Self { annotated(with: AggOpPlayer.awards.count) }
    func withAward() -> Self { having(!AggOpPlayer.awards.isEmpty) }
    func withTeamName() -> Self { annotated(withOptional: AggOpPlayer.team.select(Column("name").forKey("teamName"))) }
}

// Reds: Arthur 100 (2 awards), Barbara 1000 (1 award), coach Zoe 300.
// Blues: Craig 50, coaches Yann 50 and Xavier 500. Greens: nobody.
private func makeAggregateOperatorsDatabase() throws -> DatabaseQueue {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
        try quietly {
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), name TEXT NOT NULL, score INTEGER NOT NULL);
                CREATE TABLE coach (id INTEGER PRIMARY KEY, teamId INTEGER NOT NULL REFERENCES team(id), name TEXT NOT NULL, score INTEGER NOT NULL);
                CREATE TABLE award (id INTEGER PRIMARY KEY, playerId INTEGER NOT NULL REFERENCES player(id), name TEXT NOT NULL);
                INSERT INTO team VALUES (1, 'Reds'), (2, 'Blues'), (3, 'Greens');
                INSERT INTO player VALUES (1, 1, 'Arthur', 100), (2, 1, 'Barbara', 1000), (3, 2, 'Craig', 50);
                INSERT INTO coach VALUES (1, 1, 'Zoe', 300), (2, 2, 'Yann', 50), (3, 2, 'Xavier', 500);
                INSERT INTO award VALUES (1, 1, 'MVP'), (2, 1, 'Rookie'), (3, 2, 'Star');
                """)
        }
    }
    return dbQueue
}

private func rows(_ db: Database, _ request: QueryInterfaceRequest<AggOpTeam>) throws -> [String] {
    try Row.fetchAll(db, request.order(Column("id"))).map(\.debugDescription)
}

private func names(_ db: Database, _ request: QueryInterfaceRequest<AggOpTeam>) throws -> [String] {
    try request.order(Column("id")).fetchAll(db).map(\.name)
}

let associationOperatorPrograms: [Program] = [
    Program("association-aggregate-arithmetic") {
        let dbQueue = try makeAggregateOperatorsDatabase()
        try dbQueue.read { db in
            let players = AggOpTeam.players
            let coaches = AggOpTeam.coaches
            let maxScore = players.max(Column("score"))
            step("having sum of counts") { try names(db, AggOpTeam.having(players.count + coaches.count > 2)) }
            step("unnamed sum") { try rows(db, AggOpTeam.annotated(with: players.count + coaches.count)) }
            step("named difference") { try rows(db, AggOpTeam.annotated(with: (players.count - coaches.count).forKey("diff"))) }
            step("with values") {
                try rows(db, AggOpTeam.annotated(with: players.count * 2, 2 * players.count, players.count + 1, 10 - players.count))
            }
            step("divisions") {
                try rows(db, AggOpTeam.annotated(with: players.sum(Column("score")) / players.count, maxScore / 2, 1000 / maxScore))
            }
            step("products") { try rows(db, AggOpTeam.annotated(with: players.count * coaches.count)) }
            step("negation") { try rows(db, AggOpTeam.annotated(with: -maxScore)) }
            step("having negation") { try names(db, AggOpTeam.having(-maxScore < -500)) }
        }
    },
    Program("association-aggregate-comparisons") {
        let dbQueue = try makeAggregateOperatorsDatabase()
        try dbQueue.read { db in
            let players = AggOpTeam.players
            let coaches = AggOpTeam.coaches
            let maxScore = players.max(Column("score"))
            let maxCoach = coaches.max(Column("score"))
            step("value left <") { try names(db, AggOpTeam.having(1 < players.count)) }
            step("value left <=") { try names(db, AggOpTeam.having(1 <= players.count)) }
            step("value left >") { try names(db, AggOpTeam.having(500 > maxScore)) }
            step("value left >=") { try names(db, AggOpTeam.having(1000 >= maxScore)) }
            step("value left ==") { try names(db, AggOpTeam.having(2 == players.count)) }
            step("value left !=") { try names(db, AggOpTeam.having(2 != players.count)) }
            step("nil left ==") { try names(db, AggOpTeam.having(nil == maxScore)) }
            step("nil left !=") { try names(db, AggOpTeam.having(nil != maxScore)) }
            step("is") { try names(db, AggOpTeam.having(maxScore === maxCoach)) }
            step("is value") { try names(db, AggOpTeam.having(maxScore === 50)) }
            step("is nil") { try names(db, AggOpTeam.having(maxScore === nil)) }
            step("value is") { try names(db, AggOpTeam.having(50 === maxScore)) }
            step("nil is") { try names(db, AggOpTeam.having(nil === maxScore)) }
            step("is not") { try names(db, AggOpTeam.having(maxScore !== maxCoach)) }
            step("is not value") { try names(db, AggOpTeam.having(maxScore !== 50)) }
            step("value is not") { try names(db, AggOpTeam.having(50 !== maxScore)) }
            step("nil is not") { try names(db, AggOpTeam.having(nil !== maxScore)) }
            step("annotated is") { try rows(db, AggOpTeam.annotated(with: maxScore === maxCoach)) }
        }
    },
    Program("association-aggregate-booleans") {
        let dbQueue = try makeAggregateOperatorsDatabase()
        try dbQueue.read { db in
            let players = AggOpTeam.players
            let coaches = AggOpTeam.coaches
            step("isEmpty == false") { try names(db, AggOpTeam.having(players.isEmpty == false)) }
            step("isEmpty == true") { try names(db, AggOpTeam.having(players.isEmpty == true)) }
            step("false == isEmpty") { try names(db, AggOpTeam.having(false == players.isEmpty)) }
            step("isEmpty != true") { try names(db, AggOpTeam.having(players.isEmpty != true)) }
            step("isEmpty != false") { try names(db, AggOpTeam.having(players.isEmpty != false)) }
            step("true != isEmpty") { try names(db, AggOpTeam.having(true != players.isEmpty)) }
            step("!isEmpty == true") { try names(db, AggOpTeam.having(!players.isEmpty == true)) }
            step("!isEmpty == false") { try names(db, AggOpTeam.having(!players.isEmpty == false)) }
            step("count == true") { try names(db, AggOpTeam.having(players.count == true)) }
            step("count != false") { try names(db, AggOpTeam.having(players.count != false)) }
            step("comparison == false") { try names(db, AggOpTeam.having((players.count > 1) == false)) }
            step("not count") { try names(db, AggOpTeam.having(!players.count)) }
            step("not not count") { try names(db, AggOpTeam.having(!(!players.count))) }
            step("not comparison") { try names(db, AggOpTeam.having(!(players.count > 1))) }
            step("annotated isEmpty == false") { try rows(db, AggOpTeam.annotated(with: players.isEmpty == false)) }
            step("and value") { try names(db, AggOpTeam.having(players.count > 0 && Column("name") != "Reds")) }
            step("value and") { try names(db, AggOpTeam.having(Column("id") > 1 && coaches.count > 1)) }
            step("or value") { try names(db, AggOpTeam.having(players.isEmpty || Column("name") == "Reds")) }
            step("value or") { try names(db, AggOpTeam.having(Column("name") == "Reds" || players.isEmpty)) }
            step("isEmpty and isEmpty") { try names(db, AggOpTeam.having(players.isEmpty && coaches.isEmpty)) }
        }
    },
    Program("association-aggregate-functions") {
        let dbQueue = try makeAggregateOperatorsDatabase()
        try dbQueue.read { db in
            let players = AggOpTeam.players
            step("?? keeps the key") { try rows(db, AggOpTeam.annotated(with: players.max(Column("score")) ?? 0)) }
            step("?? of a named aggregate") { try rows(db, AggOpTeam.annotated(with: players.count.forKey("n") ?? 0)) }
            step("cast keeps the key") { try rows(db, AggOpTeam.annotated(with: cast(players.average(Column("score")), as: .integer))) }
            step("abs") { try rows(db, AggOpTeam.annotated(with: abs(-players.max(Column("score"))))) }
            step("abs named") { try rows(db, AggOpTeam.annotated(with: abs(players.min(Column("score"))).forKey("absMin"))) }
            step("length") { try rows(db, AggOpTeam.annotated(with: length(players.max(Column("name"))))) }
            step("having ??") { try names(db, AggOpTeam.having(players.max(Column("score")) ?? 0 < 100)) }
        }
    },
    Program("association-aggregate-components") {
        let dbQueue = try makeAggregateOperatorsDatabase()
        try dbQueue.read { db in
            let players = AggOpTeam.players
            step("closures") {
                try rows(db, AggOpTeam.annotated(with:
                    players.average { $0.score },
                    players.max { $0.score },
                    players.min { $0.name },
                    players.sum { $0.score },
                    players.total { $0.score }))
            }
            step("closure expressions") {
                try rows(db, AggOpTeam.annotated(with: players.max { $0.score * 2 }, players.sum { -$0.score }))
            }
            step("key paths") { try rows(db, AggOpTeam.annotated(with: players.max(\.score))) }
            step("typealias") {
                let score: (HasManyAssociation<AggOpTeam, AggOpPlayer>.DatabaseComponents) -> Column = { $0.score }
                return try names(db, AggOpTeam.having(players.max(score) > 500))
            }
        }
    },
    Program("association-aggregates-on-associations") {
        let dbQueue = try makeAggregateOperatorsDatabase()
        try dbQueue.read { db in
            let players = AggOpTeam.players
            let awards = AggOpPlayer.awards
            let order = Column("id")
            step("annotated with count") {
                try Row.fetchAll(db, AggOpTeam.including(all: players.annotated(with: awards.count).order(order)).order(order))
                    .map { "\($0["name"] as String) \($0.prefetchedRows["players"]!.map(\.debugDescription))" }
            }
            step("annotated with an array") {
                try Row.fetchAll(db, AggOpTeam.including(all: players.annotated(with: [awards.count, awards.max(Column("name"))]).order(order)).order(order))
                    .map { "\($0["name"] as String) \($0.prefetchedRows["players"]!.map(\.debugDescription))" }
            }
            step("having") {
                try Row.fetchAll(db, AggOpTeam.including(all: players.having(awards.isEmpty == false).order(order)).order(order))
                    .map { "\($0["name"] as String) \($0.prefetchedRows["players"]!.map(\.debugDescription))" }
            }
            step("annotated with required") {
                try Row.fetchAll(db, AggOpPlayer.including(all: awards.annotated(withRequired: AggOpAward.player.select(Column("name").forKey("playerName")))).order(order))
                    .map { "\($0["name"] as String) \($0.prefetchedRows["awards"]!.map(\.debugDescription))" }
            }
            step("annotated with optional") {
                try Row.fetchAll(db, AggOpTeam.including(all: players.annotated(withOptional: AggOpPlayer.team.select(Column("name").forKey("teamName"))).order(order)).order(order))
                    .map { "\($0["name"] as String) \($0.prefetchedRows["players"]!.map(\.debugDescription))" }
            }
            step("generic request") { try rows(db, AggOpTeam.all().withPlayerCount()) }
            step("generic request having") { try names(db, AggOpTeam.all().withoutPlayer()) }
            step("generic association") {
                try Row.fetchAll(db, AggOpTeam.including(all: players.withAwardCount().withAward().withTeamName().order(order)).order(order))
                    .map { "\($0["name"] as String) \($0.prefetchedRows["players"]!.map(\.debugDescription))" }
            }
            step("generic player request") {
                try Row.fetchAll(db, AggOpPlayer.all().withAwardCount().withAward().withTeamName().order(order)).map(\.debugDescription)
            }
        }
    },
    Program("association-table-through") {
        let dbQueue = try makeAggregateOperatorsDatabase()
        try dbQueue.read { db in
            let teams = Table<AggOpTeam>("team")
            let awardsTable = Table<AggOpAward>("award")
            step("has many through") {
                let awards = teams.hasMany(AggOpAward.self, through: teams.hasMany(AggOpPlayer.self), using: AggOpPlayer.awards)
                return try Row.fetchAll(db, teams.including(all: awards.order(Column("id"))).order(Column("id")))
                    .map { "\($0["name"] as String) \($0.prefetchedRows["awards"]!.map { $0["name"] as String })" }
            }
            step("has many through, key") {
                let awards = teams.hasMany(AggOpAward.self, through: teams.hasMany(AggOpPlayer.self), using: AggOpPlayer.awards, key: "prizes")
                return try Row.fetchAll(db, teams.annotated(with: awards.count).order(Column("id"))).map(\.debugDescription)
            }
            step("has one through") {
                let team = awardsTable.hasOne(AggOpTeam.self, through: awardsTable.belongsTo(AggOpPlayer.self), using: AggOpPlayer.team)
                return try Row.fetchAll(db, awardsTable.including(required: team.select(Column("name"))).order(Column("id")))
                    .map(\.debugDescription)
            }
            step("has one through, key") {
                let team = awardsTable.hasOne(AggOpTeam.self, through: awardsTable.belongsTo(AggOpPlayer.self), using: AggOpPlayer.team, key: "club")
                return try Row.fetchAll(db, awardsTable.annotated(withRequired: team.select(Column("name").forKey("clubName"))).order(Column("id")))
                    .map(\.debugDescription)
            }
            step("has one through, key, scopes") {
                let club = awardsTable.hasOne(AggOpTeam.self, through: awardsTable.belongsTo(AggOpPlayer.self), using: AggOpPlayer.team, key: "club")
                return try Row.fetchAll(db, awardsTable.including(required: club.select(Column("name"))).order(Column("id")))
                    .map { "\($0.debugDescription) \($0.scopesTree["club"].map(\.debugDescription) ?? "nil")" }
            }
        }
    },
]
