#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

// Associations between the team and player tables of makeQueryDatabase():
// the SQL each form generates, and what records and rows decode.

struct AssocTeamRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "team"
    static let players = hasMany(AssocPlayerRecord.self, using: ForeignKey(["teamId"]))
    static let bestPlayer = hasOne(AssocPlayerRecord.self, key: "bestPlayer", using: ForeignKey(["teamId"]))
    var id: Int64
    var name: String
}

struct AssocPlayerRecord: Codable, FetchableRecord, TableRecord, Hashable {
    static let databaseTableName = "player"
    static let team = belongsTo(AssocTeamRecord.self, using: ForeignKey(["teamId"]))
    var id: Int64
    var teamId: Int64?
    var name: String
    var score: Int
}

struct PlayerWithTeam: Decodable, FetchableRecord {
    var player: AssocPlayerRecord
    var team: AssocTeamRecord?
}

struct TeamWithPlayers: Decodable, FetchableRecord {
    var team: AssocTeamRecord
    var players: [AssocPlayerRecord]
}

struct TeamWithCount: Decodable, FetchableRecord {
    var team: AssocTeamRecord
    var playerCount: Int
    var maxScore: Int?
}

struct PlayerWithTeamAndMates: Decodable, FetchableRecord {
    struct TeamInfo: Decodable {
        var name: String
        var players: [AssocPlayerRecord]
    }
    var player: AssocPlayerRecord
    var team: TeamInfo
}

struct PlayerFlattened: Decodable, FetchableRecord {
    var player: AssocPlayerRecord
    var team: AssocTeamRecord
    var players: [AssocPlayerRecord]
}

private func describe(_ row: Row) -> String { row.debugDescription }

let associationPrograms: [Program] = [
    Program("associations-to-one") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            let team = AssocPlayerRecord.team
            step("required") {
                try AssocPlayerRecord.including(required: team).order(Column("id"))
                    .asRequest(of: PlayerWithTeam.self).fetchAll(db).map { "\($0.player.name)/\($0.team?.name ?? "-")" }
            }
            step("optional") {
                try AssocPlayerRecord.including(optional: team).order(Column("id"))
                    .asRequest(of: PlayerWithTeam.self).fetchAll(db).map { "\($0.player.name)/\($0.team?.name ?? "-")" }
            }
            step("joining filtered") {
                try AssocPlayerRecord.joining(required: team.filter(Column("name") == "Reds"))
                    .order(Column("name")).fetchAll(db).map(\.name)
            }
            step("aliased") {
                let teamAlias = TableAlias()
                return try AssocPlayerRecord.joining(optional: team.aliased(teamAlias))
                    .filter(teamAlias[Column("name")] == nil || teamAlias[Column("name")] != "Reds")
                    .order(Column("id")).fetchAll(db).map(\.name)
            }
            step("annotated") {
                try AssocPlayerRecord.annotated(withOptional: team.select(Column("name").forKey("teamName")))
                    .order(Column("id")).asRequest(of: Row.self).fetchAll(db).map(describe)
            }
            step("has one") {
                try AssocTeamRecord.including(optional: AssocTeamRecord.bestPlayer.order(Column("score").desc))
                    .order(Column("id")).asRequest(of: Row.self).fetchAll(db).map(describe)
            }
        }
    },
    Program("associations-to-many") {
        let dbQueue = try makeQueryDatabase()
        try dbQueue.read { db in
            let players = AssocTeamRecord.players
            step("including all") {
                try AssocTeamRecord.including(all: players.order(Column("name"))).order(Column("id"))
                    .asRequest(of: TeamWithPlayers.self).fetchAll(db).map { "\($0.team.name): \($0.players.map(\.name))" }
            }
            step("including all filtered, rows") {
                try AssocTeamRecord.including(all: players.filter(Column("score") > 100)).order(Column("id"))
                    .asRequest(of: Row.self).fetchAll(db).map(describe)
            }
            step("aggregates") {
                try AssocTeamRecord.annotated(with: players.count, players.max(Column("score")))
                    .order(Column("id")).asRequest(of: TeamWithCount.self).fetchAll(db)
                    .map { "\($0.team.name) \($0.playerCount) \($0.maxScore.map(String.init) ?? "nil")" }
            }
            step("having") {
                try AssocTeamRecord.having(players.count > 1).fetchAll(db).map(\.name)
            }
            step("request for") {
                let reds = try AssocTeamRecord.fetchOne(db, key: 1)!
                return try reds.request(for: AssocTeamRecord.players).order(Column("name")).fetchAll(db).map(\.name)
            }
            step("nested prefetch in a to-one") {
                try AssocPlayerRecord
                    .including(required: AssocPlayerRecord.team.including(all: AssocTeamRecord.players.order(Column("id"))))
                    .order(Column("id"))
                    .asRequest(of: PlayerWithTeamAndMates.self).fetchAll(db)
                    .map { "\($0.player.name): \($0.team.name) \($0.team.players.map(\.name))" }
            }
            step("nested prefetch, flattened") {
                try AssocPlayerRecord
                    .including(required: AssocPlayerRecord.team.including(all: AssocTeamRecord.players.order(Column("id"))))
                    .order(Column("id"))
                    .asRequest(of: PlayerFlattened.self).fetchAll(db)
                    .map { "\($0.player.name): \($0.team.name) \($0.players.map(\.name))" }
            }
            step("nested prefetch, keys and rows") {
                let row = try Row.fetchOne(db, AssocPlayerRecord
                    .including(required: AssocPlayerRecord.team.including(all: AssocTeamRecord.players.order(Column("id"))))
                    .order(Column("id")))!
                return "\(row.prefetchedRows.keys) \(row.prefetchedRows.isEmpty) \(row.prefetchedRows["players"]?.count ?? -1) "
                    + "\(row.scopes["team"]!.prefetchedRows.keys) \(row == row.copy())"
            }
            step("nested prefetch rows") {
                try AssocPlayerRecord
                    .including(optional: AssocPlayerRecord.team.including(all: AssocTeamRecord.players.order(Column("id"))))
                    .filter(Column("score") >= 500)
                    .order(Column("id"))
                    .asRequest(of: Row.self).fetchAll(db).map(describe)
            }
        }
    },
]
