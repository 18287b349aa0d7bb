import Foundation
@testable import GRDBCipher

/// The record types of the GRDB README's query interface chapters, on the
/// tables that `withReadmeDatabase` creates. Nested in a namespace so that
/// they do not clash with the private `Player` types of other test files.
enum Readme {
    struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable, Hashable {
        var id: Int64
        var name: String?
        var email: String?
        var score: Int?
        var bonus: Int?
        var team: String?

        enum Columns {
            static let id = Column("id")
            static let name = Column("name")
            static let email = Column("email")
            static let score = Column("score")
            static let bonus = Column("bonus")
            static let team = Column("team")
            static let teamId = Column("teamId")
            static let coachId = Column("coachId")
            static let height = Column("height")
            static let isVerified = Column("isVerified")
            static let firstName = Column("firstName")
            static let lastName = Column("lastName")
            static let initial = Column("initial")
            static let createdAt = Column("createdAt")
            static let wins = Column("wins")
            static let games = Column("games")
        }
    }

    struct Team: Codable, FetchableRecord, TableRecord, Identifiable, Hashable {
        var id: Int64
        var name: String

        enum Columns {
            static let id = Column("id")
            static let name = Column("name")
        }
    }

    /// A record whose columns come from its coding keys, as the README
    /// recommends for Codable records.
    struct Country: Codable, FetchableRecord, TableRecord, Identifiable, Hashable {
        var isoCode: String
        var name: String
        var id: String { isoCode }

        enum Columns {
            static let isoCode = Column(CodingKeys.isoCode)
            static let name = Column(CodingKeys.name)
        }
    }

    struct Citizenship: Codable, FetchableRecord, TableRecord, Hashable {
        var citizenId: Int64
        var countryCode: String
    }

    /// A table without explicit primary key: keys are rowids.
    struct Document: Codable, FetchableRecord, TableRecord, Hashable {
        var title: String
    }

    struct Planet: TableRecord {
        enum Columns {
            static let name = Column("name")
            static let temperature = Column("temperature")
            static let mask = Column("mask")
        }
    }

    struct Rectangle: TableRecord, FetchableRecord, Decodable {
        var width: Int
        var height: Int

        enum Columns {
            static let width = Column("width")
            static let height = Column("height")
        }
    }

    struct Game: TableRecord {
        enum Columns {
            static let date = Column("date")
        }
    }

    struct PlayerSelection: TableRecord {
        enum Columns {
            static let playerId = Column("playerId")
        }
    }
}

/// Runs `body` on an encrypted database with the README's tables:
///
/// | id | name    | email               | score | bonus | team  | teamId | coachId | height | isVerified | initial |
/// |----|---------|---------------------|-------|-------|-------|--------|---------|--------|------------|---------|
/// | 1  | Arthur  | arthur@example.com  | 100   | 10    | Reds  | 1      | NULL    | 1.80   | 1          | A       |
/// | 2  | Barbara | barbara@example.com | 1000  | 0     | Reds  | 1      | 1       | 1.70   | 0          | B       |
/// | 3  | Craig   | NULL                | NULL  | NULL  | Blues | 2      | 1       | 1.90   | 0          | C       |
/// | 4  | NULL    | diane@example.com   | 2000  | 5     | Blues | 2      | NULL    | 1.60   | 1          | N       |
///
/// Teams Reds (1), Blues (2), Greens (3, no player); countries FR, US, DE;
/// citizenships (1, FR), (1, US), (2, FR); documents "A", "B" (rowids 1, 2).
func withReadmeDatabase(_ body: (Database) throws -> Void) throws {
    try inEncryptedDatabase { db throws in
        try db.execute(sql: """
            CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE player (
                id INTEGER PRIMARY KEY, name TEXT, email TEXT UNIQUE, score INTEGER, bonus INTEGER,
                team TEXT, teamId INTEGER REFERENCES team(id), coachId INTEGER,
                height REAL, isVerified BOOLEAN, firstName TEXT, lastName TEXT, initial TEXT,
                createdAt TEXT, wins INTEGER, games INTEGER);
            CREATE TABLE country (isoCode TEXT PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE citizenship (
                citizenId INTEGER NOT NULL, countryCode TEXT NOT NULL, PRIMARY KEY (citizenId, countryCode));
            CREATE TABLE document (title TEXT NOT NULL);
            CREATE TABLE planet (name TEXT NOT NULL, temperature REAL, mask INTEGER);
            CREATE TABLE rectangle (width INTEGER NOT NULL, height INTEGER NOT NULL);
            CREATE TABLE game (date TEXT NOT NULL);
            CREATE TABLE playerSelection (playerId INTEGER NOT NULL);
            INSERT INTO team VALUES (1, 'Reds'), (2, 'Blues'), (3, 'Greens');
            INSERT INTO player VALUES
                (1, 'Arthur', 'arthur@example.com', 100, 10, 'Reds', 1, NULL, 1.80, 1, 'Arthur', 'Smith', 'A',
                 '2020-01-23 10:00:00', 3, 4),
                (2, 'Barbara', 'barbara@example.com', 1000, 0, 'Reds', 1, 1, 1.70, 0, 'Barbara', 'Jones', 'B',
                 '2020-01-24 11:00:00', 5, 10),
                (3, 'Craig', NULL, NULL, NULL, 'Blues', 2, 1, 1.90, 0, 'Craig', 'Brown', 'C',
                 '2020-01-23 18:00:00', 0, 2),
                (4, NULL, 'diane@example.com', 2000, 5, 'Blues', 2, NULL, 1.60, 1, NULL, 'Doe', 'N',
                 '2020-01-25 09:00:00', 1, 1);
            INSERT INTO country VALUES ('FR', 'France'), ('US', 'United States'), ('DE', 'Germany');
            INSERT INTO citizenship VALUES (1, 'FR'), (1, 'US'), (2, 'FR');
            INSERT INTO document (title) VALUES ('A'), ('B');
            INSERT INTO planet VALUES ('Mercury', 167.0, 2), ('Jupiter', -110.0, 0);
            INSERT INTO rectangle VALUES (1, 2), (3, 3), (5, 4);
            INSERT INTO game VALUES ('2021-06-15');
            INSERT INTO playerSelection VALUES (2), (4);
            """)
        try body(db)
    }
}

/// The ids of the players that `request` fetches, in order.
func readmePlayerIds(_ db: Database, _ request: QueryInterfaceRequest<Readme.Player>) throws -> [Int64] {
    try request.fetchAll(db).map(\.id)
}
