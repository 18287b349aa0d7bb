// The fixed part of the differential check: the schema and the records that the generated
// cases query, and how a case prints. The cases themselves are in Generated/, written from a
// seed by CompatGenerator (see README.md): each is one request built by a random expression,
// ordering or association, and prints the SQL and arguments of its statement, then the SQL of
// every statement its fetch runs (prefetches of `including(all:)` too) and the number of rows.
#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

struct GenTeam: TableRecord, FetchableRecord, Decodable {
    static let databaseTableName = "team"
    var id: Int64
    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let city = Column("city")
    }
    static let readers = hasMany(GenReader.self)
}

struct GenReader: TableRecord, FetchableRecord, Decodable {
    static let databaseTableName = "reader"
    var id: Int64
    enum Columns {
        static let id = Column("id")
        static let teamId = Column("teamId")
        static let name = Column("name")
        static let email = Column("email")
        static let age = Column("age")
        static let score = Column("score")
        static let active = Column("active")
        static let deletedAt = Column("deletedAt")
    }
    static let team = belongsTo(GenTeam.self)
    static let books = hasMany(GenBook.self)
}

struct GenBook: TableRecord, FetchableRecord, Decodable {
    static let databaseTableName = "book"
    var id: Int64
    enum Columns {
        static let id = Column("id")
        static let readerId = Column("readerId")
        static let title = Column("title")
        static let pages = Column("pages")
        static let rating = Column("rating")
    }
    static let reader = belongsTo(GenReader.self)
}

/// A database with the tables of the generated cases, and rows with NULLs in every nullable
/// column, so that a condition that tests NULL and one that does not select different rows.
func makeDifferentialDatabase() throws -> DatabaseQueue {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
        try quietly {
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT, city TEXT);
                CREATE TABLE reader (
                  id INTEGER PRIMARY KEY,
                  teamId INTEGER REFERENCES team(id),
                  name TEXT, email TEXT, age INTEGER, score REAL, active BOOLEAN, deletedAt DATETIME);
                CREATE TABLE book (
                  id INTEGER PRIMARY KEY,
                  readerId INTEGER REFERENCES reader(id),
                  title TEXT, pages INTEGER, rating REAL);
                INSERT INTO team VALUES (1, 'Reds', 'Paris'), (2, 'Blues', NULL), (3, NULL, 'Lyon');
                INSERT INTO reader VALUES
                  (1, 1, 'Arthur', 'arthur@example.com', 42, 1.5, 1, NULL),
                  (2, 1, 'Barbara', NULL, NULL, 3.0, 0, '2020-01-02 03:04:05.000'),
                  (3, 2, 'O''Brien', 'ob@example.com', 7, NULL, NULL, NULL),
                  (4, NULL, NULL, NULL, 0, -2.25, 1, '2021-06-07 08:09:10.000'),
                  (5, 3, 'eve', 'eve@example.com', 3, 0.0, 0, NULL);
                INSERT INTO book VALUES
                  (1, 1, 'Moby-Dick', 635, 4.5), (2, 1, 'Emma', NULL, 3.0), (3, 2, NULL, 120, NULL),
                  (4, 3, 'Ulysses', 730, 2.5), (5, NULL, 'Orphan', 10, 1.0), (6, 1, 'abc', 3, 5.0);
                """)
        }
    }
    return dbQueue
}

/// Prints one case: its number and source, the SQL and arguments of its statement, then what
/// fetching its rows runs (each statement, traced) and the number of rows, or the error.
func report(_ db: Database, _ number: Int, _ source: String, _ request: some FetchRequest) {
    out("#\(number) \(source)")
    do {
        let prepared = try quietly { try request.makePreparedRequest(db, forSingleResult: false) }
        out("statement: \(prepared.statement.sql) arguments: \(prepared.statement.arguments)")
        let rows = try Row.fetchAll(db, request)
        out("rows: \(rows.count)")
    } catch {
        out("THROWS \(describe(error))")
    }
}

/// Runs a group of generated cases on a new database.
func runDifferentialCases(_ cases: (Database) -> Void) throws {
    let dbQueue = try makeDifferentialDatabase()
    try dbQueue.read { db in cases(db) }
}
