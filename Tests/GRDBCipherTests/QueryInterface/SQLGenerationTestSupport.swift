import Foundation
@testable import GRDBCipher

/// A player of the SQL generation tests: table "player".
struct GenPlayer: TableRecord, FetchableRecord, Decodable, Hashable {
    static let databaseTableName = "player"
    var id: Int64
    var teamId: Int64?
    var name: String
    var score: Int?

    enum Columns {
        static let id = Column("id")
        static let teamId = Column("teamId")
        static let name = Column("name")
        static let score = Column("score")
    }
}

/// A team of the SQL generation tests: table "team".
struct GenTeam: TableRecord, FetchableRecord, Decodable, Hashable {
    static let databaseTableName = "team"
    var id: Int64
    var name: String
}

/// Runs `body` on an encrypted database with two teams and four players:
/// Reds (Arthur 100, Barbara 1000), Blues (Craig NULL), and Diane 500
/// without a team. The Greens team has no player.
func withTeamsAndPlayers(_ body: (Database) throws -> Void) throws {
    try inEncryptedDatabase { db throws in
        try db.execute(sql: """
            CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE player (
                id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), name TEXT NOT NULL, score INTEGER);
            INSERT INTO team VALUES (1, 'Reds'), (2, 'Blues'), (3, 'Greens');
            INSERT INTO player VALUES (1, 1, 'Arthur', 100), (2, 1, 'Barbara', 1000), (3, 2, 'Craig', NULL),
                (4, NULL, 'Diane', 500);
            """)
        try body(db)
    }
}

/// The SQL and arguments of a request's statement.
func generated(_ db: Database, _ request: some FetchRequest, single: Bool = false) throws -> (String, StatementArguments) {
    let statement = try request.makePreparedRequest(db, forSingleResult: single).statement
    return (statement.sql, statement.arguments)
}

/// The SQL of the statements `body` runs, as traced, without the schema
/// queries of the connection's schema cache.
func queryInterfaceTrace(_ db: Database, _ body: () throws -> Void) throws -> [String] {
    var sql: [String] = []
    db.trace { sql.append($0.description) }
    defer { db.trace(nil) }
    try body()
    return sql.filter { !$0.hasPrefix("PRAGMA") && !$0.hasPrefix("--") && !$0.contains("sqlite_master") }
}
