import Foundation
import Testing
@testable import GRDBCipher

// GRDB's advice: methods written once for requests and associations alike.
extension DerivableRequest<AssocPlayer> {
    fileprivate func goodPlayers() -> Self {
        filter(Column("score") >= 100).order(Column("name"))
    }
}

extension DerivableRequest<AssocPlayer> {
    fileprivate func withTeam() -> Self {
        including(optional: AssocPlayer.team)
    }
}

extension DerivableRequest<AssocTeam> {
    fileprivate func withPlayers() -> Self {
        including(all: AssocTeam.players.goodPlayers())
    }
}

private struct TeamInfo: Decodable, FetchableRecord, Equatable {
    var team: AssocTeam
    var players: [AssocPlayer]
}

/// Associations are derivable requests (as in GRDB), and requests join
/// associations through `JoinableRequest` in generic code.
@Suite struct DerivableAssociationTests {
    @Test func aRequestMethodRefinesAnAssociation() throws {
        try withAssociationDatabase { db throws in
            let request = AssocTeam.joining(required: AssocTeam.players.goodPlayers()).order(Column("id"))
            let sql = try queryInterfaceTrace(db) { _ = try request.fetchAll(db) }
            #expect(sql.last == #"SELECT "team".* FROM "team" JOIN "player" ON ("player"."teamId" = "team"."id") AND ("player"."score" >= ?) ORDER BY "team"."id", "player"."name""#)
            #expect(try request.fetchAll(db).map(\.name) == ["Reds", "Reds"])
        }
    }

    @Test func joiningInGenericCode() throws {
        try withAssociationDatabase { db throws in
            let rows = try Row.fetchAll(db, AssocPlayer.all().withTeam().order(Column("id")))
            #expect(rows.map { $0.scopes["team"]?["name"] as String? } == ["Reds", "Reds", nil])

            let infos = try AssocTeam.all().withPlayers().order(Column("id")).asRequest(of: TeamInfo.self).fetchAll(db)
            #expect(infos.map(\.team.name) == ["Reds", "Blues"])
            #expect(infos[0].players.map(\.name) == ["Arthur", "Barbara"])
            #expect(infos[1].players.isEmpty)
        }
    }

    @Test func clausesWhenConnectedOnAnAssociation() throws {
        try withAssociationDatabase { db throws in
            let players = AssocTeam.players
                .filterWhenConnected { _ in Column("score") > 100 }
                .orderWhenConnected { _ in [Column("name").desc] }
                .withStableOrder()
            let infos = try AssocTeam.including(all: players).order(Column("id")).asRequest(of: TeamInfo.self).fetchAll(db)
            #expect(infos[0].players.map(\.name) == ["Barbara"])
        }
    }

    /// Clauses of a joined association known when the request runs are
    /// resolved with the request: an empty one is no clause.
    @Test func clausesWhenConnectedOfAJoinedAssociation() throws {
        try withAssociationDatabase { db throws in
            let empty = AssocTeam.joining(required: AssocTeam.players.orderWhenConnected { _ in [] }).order(Column("id"))
            var sql = try queryInterfaceTrace(db) { _ = try empty.fetchAll(db) }
            #expect(sql.last == #"SELECT "team".* FROM "team" JOIN "player" ON "player"."teamId" = "team"."id" ORDER BY "team"."id""#)
            let ordered = AssocTeam
                .including(required: AssocTeam.players.orderWhenConnected { _ in [Column("name").desc] }.forKey("player"))
                .order(Column("id"))
            sql = try queryInterfaceTrace(db) { _ = try Row.fetchAll(db, ordered) }
            #expect(sql.last?.hasSuffix(#"ORDER BY "team"."id", "player"."name" DESC"#) == true)
            let names = try Row.fetchAll(db, ordered).map { $0.scopes["player"]?["name"] as String? }
            #expect(names == ["Barbara", "Arthur"])
        }
    }
}
