import Foundation
import Testing
@testable import GRDBCipher

/// The Player of GRDB's SQL Interpolation guide: Decodable, with the
/// coding keys that interpolation turns into column names.
private struct Player: Decodable, TableRecord, FetchableRecord, Hashable {
    var id: Int64
    var name: String?
    var score: Int?

    enum CodingKeys: String, CodingKey {
        case id, name, score
    }

    /// Deletes all player with no score.
    static func deleteAllWithoutScore(_ db: Database) throws {
        try db.execute(literal: "DELETE FROM \(self) WHERE \(CodingKeys.score) IS NULL")
    }

    static func simpleFilter(id: Int64) -> SQLRequest<Player> {
        "SELECT * FROM player WHERE id = \(id)"
    }

    static func filter(id: Int64) -> SQLRequest<Player> {
        """
        SELECT \(columnsOf: self)
        FROM \(self)
        WHERE \(CodingKeys.id) = \(id)
        """
    }

    static func simpleFilter(ids: [Int64]) -> SQLRequest<Player> {
        "SELECT * FROM player WHERE id IN \(ids)"
    }

    static func filter(ids: [Int64]) -> SQLRequest<Player> {
        """
        SELECT \(columnsOf: self)
        FROM \(self)
        WHERE \(CodingKeys.id) IN \(ids)
        """
    }

    static func maximumScore() -> SQLRequest<Int> {
        "SELECT MAX(\(CodingKeys.score)) FROM \(self)"
    }

    static func bestPlayers() -> SQLRequest<Player> {
        """
        SELECT \(columnsOf: self)
        FROM \(self)
        WHERE \(CodingKeys.score) = (\(maximumScore()))
        """
    }

    static func complexRequest() -> SQLRequest<Player> {
        var query: SQL = "SELECT \(columnsOf: self) "
        query += "FROM \(self) "
        query += "JOIN \(Readme.Team.self) ON \(Readme.Team.self).id = \(self).teamId "
        query += "GROUP BY \(self).id"
        return SQLRequest(literal: query)
    }
}

private struct AltPlayer: TableRecord {
    static let databaseTableName = "player"
    static var databaseSelection: [any SQLSelectable] {
        [Column("id"), Column("name")]
    }
}

/// GRDB's SQL Interpolation guide (Documentation/SQLInterpolation.md):
/// values are always bound, identifiers are quoted, requests nest.
@Suite struct ReadmeSQLInterpolationTests {
    @Test func valuesAreBoundNotSpliced() throws {
        try withReadmeDatabase { db throws in
            let name = "O'Brien"
            let id = 1
            let query: SQL = "UPDATE player SET name = \(name) WHERE id = \(id)"
            let (sql, arguments) = try query.build(db)
            #expect(sql == "UPDATE player SET name = ? WHERE id = ?")
            #expect(arguments == ["O'Brien", 1])
            try db.execute(literal: query)
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = 1") == "O'Brien")

            let plain = SQL(sql: "UPDATE player SET name = ? WHERE id = ?", arguments: [name, id])
            #expect(try plain.build(db) == ("UPDATE player SET name = ? WHERE id = ?", ["O'Brien", 1]))
        }
    }

    @Test func hostileValuesAreStoredVerbatim() throws {
        try withReadmeDatabase { db throws in
            let hostile = ["'", "x'; DROP TABLE player; --", "' OR 1=1 --", "\"name\"", "?", "\\"]
            for (index, value) in hostile.enumerated() {
                try db.execute(literal: "UPDATE player SET name = \(value) WHERE id = \(index % 4 + 1)")
                #expect(try String.fetchOne(db, literal: "SELECT name FROM player WHERE id = \(index % 4 + 1)")
                    == value)
                #expect(try Readme.Player.filter(literal: "name = \(value)").fetchCount(db) == 1)
                #expect(try Readme.Player.filter(sql: "name = ?", arguments: [value]).fetchCount(db) == 1)
            }
            #expect(try Readme.Player.fetchCount(db) == 4)
        }
    }

    @Test func buildingLiteralsStepByStep() throws {
        try withReadmeDatabase { db throws in
            var query: SQL = "UPDATE player "
            query += "SET name = \("Arthur II") "
            query.append(literal: "WHERE id = \(1)")
            #expect(try query.build(db) == ("UPDATE player SET name = ? WHERE id = ?", ["Arthur II", 1]))

            let components: [SQL] = [
                "UPDATE player",
                "SET name = \("Arthur II")",
                "WHERE id = \(1)",
            ]
            #expect(try components.joined(separator: " ").build(db)
                == ("UPDATE player SET name = ? WHERE id = ?", ["Arthur II", 1]))
        }
    }

    @Test func literalsInTheQueryInterface() throws {
        try withReadmeDatabase { db throws in
            let request = Readme.Player.filter(literal: "name = \("O'Brien")")
            #expect(try generated(db, request) == (#"SELECT * FROM "player" WHERE name = ?"#, ["O'Brien"]))

            let createdAt = Column("createdAt")
            let creationDay = SQL("DATE(\(createdAt))")
            let byDay = Readme.Player.filter(creationDay == "2020-01-23")
            #expect(try generated(db, byDay) == (#"SELECT * FROM "player" WHERE (DATE("createdAt")) = ?"#, ["2020-01-23"]))
            #expect(try readmePlayerIds(db, byDay) == [1, 3])
        }
    }

    @Test func recordTypesAndCodingKeys() throws {
        try withReadmeDatabase { db throws in
            let sql = try queryInterfaceTrace(db) { () throws in
                try Player.deleteAllWithoutScore(db)
            }
            #expect(sql == [#"DELETE FROM "player" WHERE "score" IS NULL"#])
            #expect(try Player.fetchCount(db) == 3)
        }
    }

    @Test func requestsOfRecords() throws {
        try withReadmeDatabase { db throws in
            #expect(try generated(db, Player.simpleFilter(id: 1)) == ("SELECT * FROM player WHERE id = ?", [1]))
            #expect(try Player.simpleFilter(id: 1).fetchOne(db)?.name == "Arthur")

            #expect(try generated(db, Player.filter(id: 2)) == ("""
                SELECT "player".*
                FROM "player"
                WHERE "id" = ?
                """, [2]))
            #expect(try Player.filter(id: 2).fetchOne(db)?.name == "Barbara")

            // GRDB separates the values of an interpolated sequence with a bare comma.
            let (idsSQL, idsArguments) = try generated(db, Player.simpleFilter(ids: [1, 2, 3]))
            #expect(idsSQL == "SELECT * FROM player WHERE id IN (?,?,?)")
            #expect(idsArguments == [1, 2, 3])
            #expect(try Player.filter(ids: [1, 2, 3]).fetchAll(db).map(\.id) == [1, 2, 3])
            // Empty sequences are supported, with IN and NOT IN.
            #expect(try Player.filter(ids: []).fetchAll(db).isEmpty)
            let notIn: SQLRequest<Int64> = "SELECT id FROM player WHERE id NOT IN \([Int64]()) ORDER BY id"
            #expect(try generated(db, notIn).0 == "SELECT id FROM player WHERE id NOT IN (SELECT NULL WHERE NULL) ORDER BY id")
            #expect(try notIn.fetchAll(db) == [1, 2, 3, 4])

            #expect(try generated(db, Player.maximumScore()) == (#"SELECT MAX("score") FROM "player""#, []))
            #expect(try Player.maximumScore().fetchOne(db) == 2000)

            #expect(try generated(db, Player.bestPlayers()).0 == """
                SELECT "player".*
                FROM "player"
                WHERE "score" = (SELECT MAX("score") FROM "player")
                """)
            #expect(try Player.bestPlayers().fetchAll(db).map(\.id) == [4])

            #expect(try Player.complexRequest().fetchAll(db).map(\.id) == [1, 2, 3, 4])
        }
    }

    @Test func interpolationReference() throws {
        try withReadmeDatabase { db throws in
            func built(_ literal: SQL) throws -> (String, StatementArguments) { try literal.build(db) }

            #expect(try built("SELECT * FROM \(Player.self)").0 == #"SELECT * FROM "player""#)
            let player = Player(id: 1, name: nil, score: nil)
            #expect(try built("SELECT * FROM \(tableOf: player)").0 == #"SELECT * FROM "player""#)
            #expect(try built("SELECT * FROM \(Table("player"))").0 == #"SELECT * FROM "player""#)

            #expect(try built("SELECT \(columnsOf: Player.self) FROM player").0 == #"SELECT "player".* FROM player"#)
            #expect(try built("SELECT \(columnsOf: Player.self, tableAlias: "p") FROM player p").0
                == #"SELECT "p".* FROM player p"#)
            #expect(try built("SELECT \(columnsOf: AltPlayer.self) FROM player").0
                == #"SELECT "player"."id", "player"."name" FROM player"#)

            #expect(try built("SELECT \(Column("name")) FROM player").0 == #"SELECT "name" FROM player"#)
            let bonus = 100
            #expect(try built("SELECT \(Column("score") + bonus) AS points FROM player")
                == (#"SELECT "score" + ? AS points FROM player"#, [100]))
            #expect(try built("SELECT (score + \(bonus)) AS points FROM player")
                == ("SELECT (score + ?) AS points FROM player", [100]))
            #expect(try built("SELECT \(Player.CodingKeys.name) FROM player").0 == #"SELECT "name" FROM player"#)

            let ids = [1, 2, 3]
            let (inSQL, inArguments) = try built("SELECT * FROM player WHERE id IN \(ids)")
            #expect(inSQL == "SELECT * FROM player WHERE id IN (?,?,?)")
            #expect(inArguments == [1, 2, 3])
            #expect(try built("SELECT * FROM player ORDER BY \(Column("name").desc)").0
                == #"SELECT * FROM player ORDER BY "name" DESC"#)
            #expect(try built("SELECT * FROM player ORDER BY email COLLATE \(.nocase)").0
                == "SELECT * FROM player ORDER BY email COLLATE NOCASE")
            #expect(try built("SELECT * FROM player ORDER BY email COLLATE \(.localizedCompare)").0
                == "SELECT * FROM player ORDER BY email COLLATE swiftLocalizedCompare")

            let subquery = SQLRequest<Row>("SELECT MAX(score) FROM player")
            #expect(try built("SELECT * FROM player WHERE score = (\(subquery))").0
                == "SELECT * FROM player WHERE score = (SELECT MAX(score) FROM player)")
            let requestSubquery = Readme.Player.select(max(Column("score")))
            #expect(try built("SELECT * FROM player WHERE score = (\(requestSubquery))").0
                == #"SELECT * FROM player WHERE score = (SELECT MAX("score") FROM "player")"#)

            let cte = CommonTableExpression(named: "name", literal: "SELECT \("O'Brien")")
            let withCTE: SQL = "WITH \(definitionFor: cte) SELECT * FROM \(cte)"
            #expect(try built(withCTE) == (#"WITH "name" AS (SELECT ?) SELECT * FROM "name""#, ["O'Brien"]))
            #expect(try String.fetchOne(db, literal: withCTE) == "O'Brien")

            let condition: SQL = "name = \("O'Brien")"
            #expect(try built("SELECT * FROM player WHERE \(literal: condition)")
                == ("SELECT * FROM player WHERE name = ?", ["O'Brien"]))
            #expect(try built("SELECT * FROM \(sql: "player")").0 == "SELECT * FROM player")
            #expect(try built("SELECT * FROM player WHERE \(sql: "name = ?", arguments: ["O'Brien"])")
                == ("SELECT * FROM player WHERE name = ?", ["O'Brien"]))
        }
    }
}
