import Foundation
import Testing
@testable import GRDBCipher

/// Associations to and from common table expressions (`association(to:on:)`,
/// GRDB's "joining a CTE"), with the SQL GRDB 7.10 generates.
@Suite struct CommonTableExpressionAssociationTests {
    private struct Message: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var chatId: Int64
        var date: Int
        var text: String

        enum Columns {
            static let chatId = Column(CodingKeys.chatId)
            static let date = Column(CodingKeys.date)
        }
    }

    private struct Chat: Codable, FetchableRecord, PersistableRecord {
        var id: Int64

        enum Columns {
            static let id = Column(CodingKeys.id)
        }
    }

    private struct ChatInfo: Decodable, FetchableRecord {
        var chat: Chat
        var latestMessage: Message?
    }

    /// The best score of each team: `teamId`, `maxScore`.
    private let best = CommonTableExpression(
        named: "best",
        request: AssocPlayer.select(Column("teamId"), max(Column("score")).forKey("maxScore")).group(Column("teamId")))

    private let bestDefinition = #"WITH "best" AS (SELECT "teamId", MAX("score") AS "maxScore" FROM "player" GROUP BY "teamId") "#

    @Test func theLatestMessageOfEachChat() throws {
        // The example of GRDB's CommonTableExpressions.md.
        try inEncryptedDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE chat (id INTEGER PRIMARY KEY);
                CREATE TABLE message (id INTEGER PRIMARY KEY, chatId INTEGER NOT NULL REFERENCES chat(id), date INTEGER NOT NULL, text TEXT NOT NULL);
                INSERT INTO chat VALUES (1), (2), (3);
                INSERT INTO message VALUES (1, 1, 10, 'a'), (2, 1, 30, 'b'), (3, 2, 20, 'c');
                """)
            let latestMessageRequest = Message.annotated { max($0.date) }.group { $0.chatId }
            let latestMessageCTE = CommonTableExpression<Message>(named: "latestMessage", request: latestMessageRequest)
            let latestMessage = Chat
                .association(to: latestMessageCTE, on: { chat, latestMessage in chat.id == latestMessage.chatId })
                .order { $0.date.desc }
            let request = Chat.with(latestMessageCTE).including(optional: latestMessage).asRequest(of: ChatInfo.self)
            let (sql, _) = try generated(db, request)
            #expect(sql == #"WITH "latestMessage" AS (SELECT *, MAX("date") FROM "message" GROUP BY "chatId") SELECT "chat".*, "latestMessage".* FROM "chat" LEFT JOIN "latestMessage" ON "chat"."id" = "latestMessage"."chatId" ORDER BY "latestMessage"."date" DESC"#)
            let infos = try request.fetchAll(db)
            #expect(infos.map(\.chat.id) == [1, 2, 3])
            #expect(infos.map(\.latestMessage?.text) == ["b", "c", nil])
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row.unscoped == ["id": 1])
            #expect(row.scopes["latestMessage"]?.count == 5)
        }
    }

    @Test func includingACommonTableExpression() throws {
        try withAssociationDatabase { db throws in
            let association = AssocTeam.association(to: best, on: { team, best in team[Column("id")] == best[Column("teamId")] })
            let request = AssocTeam.with(best).including(optional: association).order(Column("id"))
            #expect(try generated(db, request).0 == bestDefinition + #"SELECT "team".*, "best".* FROM "team" LEFT JOIN "best" ON "team"."id" = "best"."teamId" ORDER BY "team"."id""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows[0].unscoped == ["id": 1, "name": "Reds"])
            #expect(rows[0].scopes["best"] == ["teamId": 1, "maxScore": 200])
            #expect(rows[1].scopes["best"] == ["teamId": nil, "maxScore": nil])
        }
    }

    @Test func joiningFilteringOrderingAndSelectingACommonTableExpression() throws {
        try withAssociationDatabase { db throws in
            let association = AssocTeam.association(to: best, on: { team, best in team[Column("id")] == best[Column("teamId")] })
            let joined = AssocTeam.with(best).joining(required: association.filter(Column("maxScore") > 150))
            let (sql, arguments) = try generated(db, joined)
            #expect(sql == bestDefinition + #"SELECT "team".* FROM "team" JOIN "best" ON ("team"."id" = "best"."teamId") AND ("best"."maxScore" > ?)"#)
            #expect(arguments == [150])
            #expect(try joined.fetchAll(db).map(\.name) == ["Reds"])

            let included = AssocTeam.with(best).including(required: association.order(Column("maxScore").desc).select(Column("maxScore")))
            #expect(try generated(db, included).0 == bestDefinition + #"SELECT "team".*, "best"."maxScore" FROM "team" JOIN "best" ON "team"."id" = "best"."teamId" ORDER BY "best"."maxScore" DESC"#)
            #expect(try Row.fetchAll(db, included).map { $0.scopes["best"] } == [["maxScore": 200]])
        }
    }

    @Test func fromACommonTableExpressionToATable() throws {
        try withAssociationDatabase { db throws in
            let toTeam = best.association(to: AssocTeam.self, on: { best, team in team[Column("id")] == best[Column("teamId")] })
            let request = best.all().with(best).including(required: toTeam)
            #expect(try generated(db, request).0 == bestDefinition + #"SELECT "best".*, "team".* FROM "best" JOIN "team" ON "team"."id" = "best"."teamId""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map(\.unscoped) == [["teamId": 1, "maxScore": 200]])
            #expect(rows.map { $0.scopes["team"] } == [["id": 1, "name": "Reds"]])

            let crossJoined = best.all().with(best).including(required: best.association(to: AssocTeam.self)).limit(1)
            #expect(try generated(db, crossJoined).0 == bestDefinition + #"SELECT "best".*, "team".* FROM "best" JOIN "team" LIMIT 1"#)
            #expect(try Row.fetchAll(db, crossJoined).count == 1)
        }
    }

    @Test func fromATableToACommonTableExpression() throws {
        try withAssociationDatabase { db throws in
            let teams = Table("team")
            let association = teams.association(to: best, on: { team, best in team[Column("id")] == best[Column("teamId")] })
            let request = teams.all().with(best).including(required: association)
            #expect(try generated(db, request).0 == bestDefinition + #"SELECT "team".*, "best".* FROM "team" JOIN "best" ON "team"."id" = "best"."teamId""#)
            #expect(try Row.fetchAll(db, request).map { $0.scopes["best"]?["maxScore"] as Int? } == [200])
        }
    }

    @Test func chainedCommonTableExpressions() throws {
        try withAssociationDatabase { db throws in
            let players = CommonTableExpression(named: "p", request: AssocPlayer.all())
            let toBest = AssocTeam.association(to: best, on: { team, best in team[Column("id")] == best[Column("teamId")] })
            let toPlayers = best.association(to: players, on: { best, player in best[Column("teamId")] == player[Column("teamId")] })
            let request = AssocTeam.with(best).with(players)
                .including(optional: toBest.including(optional: toPlayers.order(Column("id"))))
                .order(Column("id"))
            #expect(try generated(db, request).0 == #"WITH "best" AS (SELECT "teamId", MAX("score") AS "maxScore" FROM "player" GROUP BY "teamId"), "p" AS (SELECT * FROM "player") SELECT "team".*, "best".*, "p".* FROM "team" LEFT JOIN "best" ON "team"."id" = "best"."teamId" LEFT JOIN "p" ON "best"."teamId" = "p"."teamId" ORDER BY "team"."id", "p"."id""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0.scopes["best"]?.scopes["p"]?["name"] as String? } == ["Arthur", "Barbara", nil])
        }
    }

    @Test func commonTableExpressionWithColumnNames() throws {
        try withAssociationDatabase { db throws in
            let constants = CommonTableExpression(named: "c", columns: ["a", "b"], sql: "SELECT 1, 2")
            let association = AssocTeam.association(to: constants, on: { team, c in team[Column("id")] == c[Column("a")] })
            let request = AssocTeam.with(constants).including(optional: association)
            #expect(try generated(db, request).0 == #"WITH "c"("a", "b") AS (SELECT 1, 2) SELECT "team".*, "c".* FROM "team" LEFT JOIN "c" ON "team"."id" = "c"."a""#)
            let row = try #require(try Row.fetchOne(db, request.filter(Column("id") == 1)))
            #expect(row.scopes["c"] == ["a": 1, "b": 2])
        }
    }

    @Test func theKeyIsTheSingularizedNameOfTheCommonTableExpression() throws {
        try withAssociationDatabase { db throws in
            let bestPlayers = CommonTableExpression(named: "bestPlayers", request: AssocPlayer.all())
            let association = AssocTeam.association(to: bestPlayers, on: { $0[Column("id")] == $1[Column("teamId")] })
            let request = AssocTeam.with(bestPlayers).including(optional: association)
            #expect(try generated(db, request).0 == #"WITH "bestPlayers" AS (SELECT * FROM "player") SELECT "team".*, "bestPlayers".* FROM "team" LEFT JOIN "bestPlayers" ON "team"."id" = "bestPlayers"."teamId""#)
            let row = try #require(try Row.fetchOne(db, request))
            #expect(Array(row.scopes.names) == ["bestPlayer"])
        }
    }
}
