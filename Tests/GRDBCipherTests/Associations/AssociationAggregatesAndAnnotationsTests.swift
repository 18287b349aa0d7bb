import Foundation
import Testing
@testable import GRDBCipher

private extension DerivableRequest<AggOpPlayer> {
    /// A method of the request protocols, for requests and associations.
    func withAwardCount() -> Self { annotated(with: AggOpPlayer.awards.count) }
    func withAward() -> Self { having(!AggOpPlayer.awards.isEmpty) }
    func withTeamName() -> Self { annotated(withOptional: AggOpPlayer.team.select(Column("name").forKey("teamName"))) }
}

/// Association aggregates and `annotated(withRequired:)` on associations
/// and in extensions of the request protocols, the closure forms of the
/// aggregates, and the `through` associations of a `Table`, with the SQL
/// GRDB 7.10 generates (Compat programs `association-aggregates-on-associations`,
/// `association-aggregate-components`, `association-table-through`).
@Suite struct AssociationAggregatesAndAnnotationsTests {
    private struct PlayerInfo: Decodable, FetchableRecord {
        var player: AggOpPlayer
        var awardCount: Int
    }

    private struct TeamInfo: Decodable, FetchableRecord {
        var team: AggOpTeam
        var players: [PlayerInfo]
    }

    private let order = Column("id")

    // MARK: - Aggregates on associations

    @Test func prefetchedRecordsAnnotatedWithAnAggregate() throws {
        try withAggregateOperatorDatabase { db throws in
            let request = AggOpTeam
                .including(all: AggOpTeam.players.annotated(with: AggOpPlayer.awards.count).order(order))
                .order(order)
                .asRequest(of: TeamInfo.self)
            var infos: [TeamInfo] = []
            let trace = try queryInterfaceTrace(db) { infos = try request.fetchAll(db) }
            #expect(trace == [
                #"SELECT * FROM "team" ORDER BY "id""#,
                #"SELECT "player".*, COUNT(DISTINCT "award"."id") AS "awardCount", "player"."teamId" AS "grdb_teamId" FROM "player" LEFT JOIN "award" ON "award"."playerId" = "player"."id" WHERE "player"."teamId" IN (?, ?, ?) GROUP BY "player"."id" ORDER BY "player"."id""#,
            ])
            #expect(infos.map { $0.players.map(\.player.name) } == [["Arthur", "Barbara"], ["Craig"], []])
            #expect(infos.map { $0.players.map(\.awardCount) } == [[2, 1], [0], []])
        }
    }

    @Test func prefetchedRecordsAnnotatedWithAnArrayOfAggregates() throws {
        try withAggregateOperatorDatabase { db throws in
            let awards = AggOpPlayer.awards
            let request = AggOpTeam
                .including(all: AggOpTeam.players.annotated(with: [awards.count, awards.max(Column("name"))]).order(order))
                .order(order)
            var rows: [Row] = []
            let trace = try queryInterfaceTrace(db) { rows = try Row.fetchAll(db, request) }
            #expect(trace.last == #"SELECT "player".*, COUNT(DISTINCT "award"."id") AS "awardCount", MAX("award"."name") AS "maxAwardName", "player"."teamId" AS "grdb_teamId" FROM "player" LEFT JOIN "award" ON "award"."playerId" = "player"."id" WHERE "player"."teamId" IN (?, ?, ?) GROUP BY "player"."id" ORDER BY "player"."id""#)
            let redPlayers = try #require(rows.first?.prefetchedRows["players"])
            #expect(redPlayers.map { $0["maxAwardName"] as String? } == ["Rookie", "Star"])
        }
    }

    @Test func prefetchedRecordsFilteredOnAnAggregate() throws {
        try withAggregateOperatorDatabase { db throws in
            let request = AggOpTeam
                .including(all: AggOpTeam.players.having(AggOpPlayer.awards.isEmpty == false).order(order))
                .order(order)
            var rows: [Row] = []
            let trace = try queryInterfaceTrace(db) { rows = try Row.fetchAll(db, request) }
            #expect(trace.last == #"SELECT "player".*, "player"."teamId" AS "grdb_teamId" FROM "player" LEFT JOIN "award" ON "award"."playerId" = "player"."id" WHERE "player"."teamId" IN (?, ?, ?) GROUP BY "player"."id" HAVING COUNT(DISTINCT "award"."id") > 0 ORDER BY "player"."id""#)
            #expect(rows.map { $0.prefetchedRows["players"]?.map { $0["name"] as String } } == [["Arthur", "Barbara"], [], []])
        }
    }

    @Test func requestProtocolExtensionsUseAggregatesOnRequestsAndAssociations() throws {
        try withAggregateOperatorDatabase { db throws in
            let request = AggOpPlayer.all().withAwardCount().withAward().order(order)
            #expect(try generated(db, request).0 == #"SELECT "player".*, COUNT(DISTINCT "award"."id") AS "awardCount" FROM "player" LEFT JOIN "award" ON "award"."playerId" = "player"."id" GROUP BY "player"."id" HAVING COUNT(DISTINCT "award"."id") > 0 ORDER BY "player"."id""#)
            #expect(try PlayerInfo.fetchAll(db, request).map(\.awardCount) == [2, 1])

            let teams = AggOpTeam.including(all: AggOpTeam.players.withAwardCount().withAward().order(order)).order(order)
            var rows: [Row] = []
            let trace = try queryInterfaceTrace(db) { rows = try Row.fetchAll(db, teams) }
            #expect(trace.last == #"SELECT "player".*, COUNT(DISTINCT "award"."id") AS "awardCount", "player"."teamId" AS "grdb_teamId" FROM "player" LEFT JOIN "award" ON "award"."playerId" = "player"."id" WHERE "player"."teamId" IN (?, ?, ?) GROUP BY "player"."id" HAVING COUNT(DISTINCT "award"."id") > 0 ORDER BY "player"."id""#)
            #expect(rows.first?.prefetchedRows["players"]?.map { $0["awardCount"] as Int } == [2, 1])
        }
    }

    // MARK: - annotated(withRequired:), annotated(withOptional:) on associations

    @Test func prefetchedRecordsAnnotatedWithARequiredAssociation() throws {
        try withAggregateOperatorDatabase { db throws in
            let awards = AggOpPlayer.awards.annotated(withRequired: AggOpAward.player.select(Column("name").forKey("playerName")))
            let request = AggOpPlayer.including(all: awards).order(order)
            var rows: [Row] = []
            let trace = try queryInterfaceTrace(db) { rows = try Row.fetchAll(db, request) }
            #expect(trace == [
                #"SELECT * FROM "player" ORDER BY "id""#,
                #"SELECT "award".*, "player"."name" AS "playerName", "award"."playerId" AS "grdb_playerId" FROM "award" JOIN "player" ON "player"."id" = "award"."playerId" WHERE "award"."playerId" IN (?, ?, ?)"#,
            ])
            #expect(rows.map { $0.prefetchedRows["awards"]?.map { $0["playerName"] as String } } == [
                ["Arthur", "Arthur"], ["Barbara"], [],
            ])
        }
    }

    @Test func prefetchedRecordsAnnotatedWithAnOptionalAssociation() throws {
        try withAggregateOperatorDatabase { db throws in
            let request = AggOpTeam.including(all: AggOpTeam.players.withTeamName().order(order)).order(order)
            var rows: [Row] = []
            let trace = try queryInterfaceTrace(db) { rows = try Row.fetchAll(db, request) }
            #expect(trace.last == #"SELECT "player".*, "team"."name" AS "teamName", "player"."teamId" AS "grdb_teamId" FROM "player" LEFT JOIN "team" ON "team"."id" = "player"."teamId" WHERE "player"."teamId" IN (?, ?, ?) ORDER BY "player"."id""#)
            #expect(rows.map { $0.prefetchedRows["players"]?.map { $0["teamName"] as String } } == [
                ["Reds", "Reds"], ["Blues"], [],
            ])

            // The same extension method on a request.
            let players = AggOpPlayer.all().withTeamName().order(order)
            #expect(try generated(db, players).0 == #"SELECT "player".*, "team"."name" AS "teamName" FROM "player" LEFT JOIN "team" ON "team"."id" = "player"."teamId" ORDER BY "player"."id""#)
        }
    }

    // MARK: - Closure forms

    @Test func aggregatesOfTheDatabaseComponents() throws {
        try withAggregateOperatorDatabase { db throws in
            let players = AggOpTeam.players
            let request = AggOpTeam.annotated(with:
                players.average { $0.score },
                players.max { $0.score },
                players.min { $0.name },
                players.sum { $0.score },
                players.total { $0.score })
                .order(order)
            #expect(try generated(db, request).0 == #"SELECT "team".*, AVG("player"."score") AS "averagePlayerScore", MAX("player"."score") AS "maxPlayerScore", MIN("player"."name") AS "minPlayerName", SUM("player"."score") AS "playerScoreSum", TOTAL("player"."score") AS "playerScoreSum" "# + aggOpFromPlayers + #" ORDER BY "team"."id""#)
            let reds = try #require(try Row.fetchOne(db, request))
            #expect(reds["averagePlayerScore"] == 550.0)
            #expect(reds["maxPlayerScore"] == 1000)
            #expect(reds["minPlayerName"] == "Arthur")

            let expressions = AggOpTeam.annotated(with: players.max { $0.score * 2 }, players.sum { -$0.score })
            #expect(try generated(db, expressions).0 == #"SELECT "team".*, MAX("player"."score" * ?), SUM(-"player"."score") "# + aggOpFromPlayers)
        }
    }

    @Test func databaseComponentsOfAToManyAssociation() throws {
        try withAggregateOperatorDatabase { db throws in
            let score: (HasManyAssociation<AggOpTeam, AggOpPlayer>.DatabaseComponents) -> Column = { $0.score }
            let (sql, names) = try aggOpTeamNames(db, AggOpTeam.having(AggOpTeam.players.max(score) > 500))
            #expect(sql == #"SELECT "team".* "# + aggOpFromPlayers + #" HAVING MAX("player"."score") > ? ORDER BY "team"."id""#)
            #expect(names == ["Reds"])

            let keyPath = AggOpTeam.annotated(with: AggOpTeam.players.max(\.score))
            #expect(try generated(db, keyPath).0 == #"SELECT "team".*, MAX("player"."score") AS "maxPlayerScore" "# + aggOpFromPlayers)
        }
    }

    @Test func closuresThatThrowRethrow() throws {
        struct Failure: Error { }
        #expect(throws: Failure.self) {
            _ = try AggOpTeam.players.max { _ -> Column in throw Failure() }
        }
    }

    // MARK: - Table through associations

    @Test func tableHasManyThrough() throws {
        try withAggregateOperatorDatabase { db throws in
            let teams = Table<AggOpTeam>("team")
            let awards = teams.hasMany(AggOpAward.self, through: teams.hasMany(AggOpPlayer.self), using: AggOpPlayer.awards)
            let request = teams.including(all: awards.order(order)).order(order)
            var rows: [Row] = []
            let trace = try queryInterfaceTrace(db) { rows = try Row.fetchAll(db, request) }
            #expect(trace == [
                #"SELECT * FROM "team" ORDER BY "id""#,
                #"SELECT "award".*, "player"."teamId" AS "grdb_teamId" FROM "award" JOIN "player" ON ("player"."id" = "award"."playerId") AND ("player"."teamId" IN (?, ?, ?)) ORDER BY "award"."id""#,
            ])
            #expect(rows.map { $0.prefetchedRows["awards"]?.map { $0["name"] as String } } == [["MVP", "Rookie", "Star"], [], []])

            let prizes = teams.hasMany(AggOpAward.self, through: teams.hasMany(AggOpPlayer.self), using: AggOpPlayer.awards, key: "prizes")
            let counted = teams.annotated(with: prizes.count).order(order)
            #expect(try generated(db, counted).0 == #"SELECT "team".*, COUNT(DISTINCT "award"."id") AS "prizeCount" FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id" LEFT JOIN "award" ON "award"."playerId" = "player"."id" GROUP BY "team"."id" ORDER BY "team"."id""#)
            #expect(try Row.fetchAll(db, counted).map { $0["prizeCount"] as Int } == [3, 0, 0])
        }
    }

    @Test func tableHasOneThrough() throws {
        try withAggregateOperatorDatabase { db throws in
            let awards = Table<AggOpAward>("award")
            let team = awards.hasOne(AggOpTeam.self, through: awards.belongsTo(AggOpPlayer.self), using: AggOpPlayer.team)
            let request = awards.including(required: team.select(Column("name"))).order(order)
            #expect(try generated(db, request).0 == #"SELECT "award".*, "team"."name" FROM "award" JOIN "player" ON "player"."id" = "award"."playerId" JOIN "team" ON "team"."id" = "player"."teamId" ORDER BY "award"."id""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0.scopesTree["team"]?["name"] as String? } == ["Reds", "Reds", "Reds"])

            let club = awards.hasOne(AggOpTeam.self, through: awards.belongsTo(AggOpPlayer.self), using: AggOpPlayer.team, key: "club")
            let keyed = awards.including(required: club.select(Column("name"))).order(order)
            #expect(try generated(db, keyed).0 == #"SELECT "award".*, "team"."name" FROM "award" JOIN "player" ON "player"."id" = "award"."playerId" JOIN "team" ON "team"."id" = "player"."teamId" ORDER BY "award"."id""#)
            #expect(try Row.fetchAll(db, keyed).map { $0.scopesTree["club"]?["name"] as String? } == ["Reds", "Reds", "Reds"])
        }
    }
}
