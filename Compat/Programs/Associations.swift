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

// Three tables in a chain for `through` associations: country <- person <- book.
func makeLibraryDatabase() throws -> DatabaseQueue {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
        try quietly {
            try db.execute(sql: """
                CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, countryCode TEXT REFERENCES country(code));
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES person(id), title TEXT NOT NULL, year INTEGER NOT NULL);
                INSERT INTO country VALUES ('FR', 'France'), ('US', 'United States'), ('XX', 'Nowhere');
                INSERT INTO person VALUES (1, 'Victor', 'FR'), (2, 'Herman', 'US'), (3, 'Anon', NULL), (4, 'Emile', 'FR');
                INSERT INTO book VALUES (1, 1, 'Les Mis', 1862), (2, 2, 'Moby-Dick', 1851), (3, 1, 'Notre-Dame', 1831), (4, 4, 'Germinal', 1885);
                """)
        }
    }
    return dbQueue
}

struct LibCountry: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "country"
    static let people = hasMany(LibPerson.self)
    static let books = hasMany(LibBook.self, through: people, using: LibPerson.books)
    var code: String
    var name: String
}

struct LibPerson: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "person"
    static let country = belongsTo(LibCountry.self)
    static let books = hasMany(LibBook.self, using: ForeignKey(["authorId"]))
    var id: Int64
    var name: String
    var countryCode: String?
}

struct LibBook: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "book"
    static let author = belongsTo(LibPerson.self, using: ForeignKey(["authorId"]))
    static let country = hasOne(LibCountry.self, through: author, using: LibPerson.country)
    var id: Int64
    var authorId: Int64?
    var title: String
    var year: Int
}

struct CountryBooks: Decodable, FetchableRecord {
    var country: LibCountry
    var books: [LibBook]
}

struct BookCountry: Decodable, FetchableRecord {
    var book: LibBook
    var country: LibCountry?
}

let associationThroughPrograms: [Program] = [
    Program("associations-through") {
        let dbQueue = try makeLibraryDatabase()
        try dbQueue.read { db in
            step("has one through, optional") {
                try LibBook.including(optional: LibBook.country).order(Column("id"))
                    .asRequest(of: BookCountry.self).fetchAll(db).map { "\($0.book.title) \($0.country?.name ?? "-")" }
            }
            step("has one through, joining filtered") {
                try LibBook.joining(required: LibBook.country.filter(Column("code") == "FR"))
                    .order(Column("year")).fetchAll(db).map(\.title)
            }
            step("has many through, including all") {
                try LibCountry.including(all: LibCountry.books.order(Column("year"))).order(Column("code"))
                    .asRequest(of: CountryBooks.self).fetchAll(db).map { "\($0.country.code) \($0.books.map(\.title))" }
            }
            step("has many through, count") {
                try LibCountry.annotated(with: LibCountry.books.count).order(Column("code"))
                    .asRequest(of: Row.self).fetchAll(db).map(\.description)
            }
            step("has many through, request for") {
                let france = try LibCountry.fetchOne(db, key: "FR")!
                return try france.request(for: LibCountry.books).order(Column("title")).fetchAll(db).map(\.title)
            }
            step("having through") {
                try LibCountry.having(LibCountry.books.count >= 2).fetchAll(db).map(\.code)
            }
            step("aggregate filter and alias") {
                try LibPerson.annotated(with: LibPerson.books.filter(Column("year") > 1850).count.forKey("recent"))
                    .order(Column("id")).asRequest(of: Row.self).fetchAll(db).map(\.description)
            }
            step("min max average sum") {
                try LibPerson.annotated(with: LibPerson.books.min(Column("year")), LibPerson.books.max(Column("year")),
                                         LibPerson.books.average(Column("year")), LibPerson.books.sum(Column("year")))
                    .order(Column("id")).asRequest(of: Row.self).fetchAll(db).map(\.description)
            }
            step("is empty") {
                try LibPerson.having(LibPerson.books.isEmpty).fetchAll(db).map(\.name)
            }
            step("count distinct") {
                try LibCountry.annotated(with: LibCountry.people.count).having(LibCountry.people.count > 0)
                    .order(Column("code")).asRequest(of: Row.self).fetchAll(db).map(\.description)
            }
            step("fetch count joined") {
                try LibBook.joining(required: LibBook.author.filter(Column("name") != "Anon")).fetchCount(db)
            }
            step("delete joined") {
                // Counted only: the read transaction refuses the write.
                try LibBook.joining(required: LibBook.author.filter(Column("name") == "Victor")).fetchCount(db)
            }
        }
        try dbQueue.write { db in
            step("delete all joined") {
                try LibBook.joining(required: LibBook.author.filter(Column("name") == "Victor")).deleteAll(db)
            }
            step("update all joined") {
                try LibBook.joining(required: LibBook.author.filter(Column("name") == "Emile"))
                    .updateAll(db, Column("year").set(to: Column("year") + 1))
            }
            step("left") { try LibBook.order(Column("id")).fetchAll(db).map { "\($0.title) \($0.year)" } }
        }
    },
]
