import Foundation
@testable import GRDBCipher

// The records and schema of the association tests. The expected SQL of the
// tests is the SQL GRDB 7.10 generates for the same requests on the same
// schema (checked with a program built against GRDB).

struct AssocTeam: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "team"
    var id: Int64
    var name: String

    static let players = hasMany(AssocPlayer.self)
    static let captain = hasOne(AssocPlayer.self, key: "captain")
}

struct AssocPlayer: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "player"
    var id: Int64
    var teamId: Int64?
    var name: String
    var score: Int

    static let team = belongsTo(AssocTeam.self)
}

struct AssocCountry: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "country"
    var code: String
    var name: String
}

struct AssocPerson: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "person"
    var id: Int64
    var name: String
    var countryCode: String?

    static let country = belongsTo(AssocCountry.self)
}

struct AssocBook: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "book"
    var id: Int64
    var authorId: Int64?
    var translatorId: Int64?
    var title: String
    var year: Int

    static let author = belongsTo(AssocPerson.self, key: "author", using: ForeignKey(["authorId"]))
    static let translator = belongsTo(AssocPerson.self, key: "translator", using: ForeignKey(["translatorId"]))
}

struct AssocEmployee: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "employee"
    var id: Int64
    var managerId: Int64?
    var name: String

    static let manager = belongsTo(AssocEmployee.self, key: "manager")
    static let subordinates = hasMany(AssocEmployee.self, key: "subordinates")
}

/// Runs `body` on an encrypted database with the association schema:
/// teams Reds (Arthur 100, Barbara 200) and Blues (no player), Craig 50
/// without a team; Victor (France) wrote "Les Mis", translated by Anon (no
/// country); Boss manages Worker.
func withAssociationDatabase(_ body: (Database) throws -> Void) throws {
    try inEncryptedDatabase { db throws in
        try db.execute(sql: """
            CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), name TEXT NOT NULL, score INTEGER NOT NULL);
            CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, countryCode TEXT REFERENCES country(code));
            CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES person(id), translatorId INTEGER REFERENCES person(id), title TEXT NOT NULL, year INTEGER NOT NULL);
            CREATE TABLE employee (id INTEGER PRIMARY KEY, managerId INTEGER REFERENCES employee(id), name TEXT NOT NULL);
            INSERT INTO team VALUES (1, 'Reds'), (2, 'Blues');
            INSERT INTO player VALUES (1, 1, 'Arthur', 100), (2, 1, 'Barbara', 200), (3, NULL, 'Craig', 50);
            INSERT INTO country VALUES ('FR', 'France');
            INSERT INTO person VALUES (1, 'Victor', 'FR'), (2, 'Anon', NULL);
            INSERT INTO book VALUES (1, 1, 2, 'Les Mis', 1862);
            INSERT INTO employee VALUES (1, NULL, 'Boss'), (2, 1, 'Worker');
            """)
        try body(db)
    }
}
