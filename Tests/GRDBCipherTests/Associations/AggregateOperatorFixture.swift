import Foundation
@testable import GRDBCipher

// The records and schema of the tests of association aggregate operators,
// the same as the Compat program AssociationOperators.swift, whose GRDB
// 7.10 transcript gives the expected SQL.

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

/// Runs `body` on an encrypted database: Reds have Arthur 100 (awards MVP
/// and Rookie) and Barbara 1000 (award Star), and coach Zoe 300; Blues
/// have Craig 50, and coaches Yann 50 and Xavier 500; Greens have nobody.
func withAggregateOperatorDatabase(_ body: (Database) throws -> Void) throws {
    try inEncryptedDatabase { db throws in
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
        try body(db)
    }
}

/// The SQL of a team request, ordered by id, with the team names it
/// fetches.
func aggOpTeamNames(_ db: Database, _ request: QueryInterfaceRequest<AggOpTeam>) throws -> (sql: String, names: [String]) {
    let ordered = request.order(Column("id"))
    return (try generated(db, ordered).0, try ordered.fetchAll(db).map(\.name))
}

/// The text of the SQL `FROM` and `GROUP BY` clauses of a team request
/// joined with its players (the part every aggregate of players shares).
let aggOpFromPlayers = #"FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id" GROUP BY "team"."id""#
