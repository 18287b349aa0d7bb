#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

// To-many associations whose records include to-one associations of their
// own, and nested models decoded from joined requests: what records decode,
// and what decoding throws when a joined row is missing.

struct NestedAuthor: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "author"
    static let books = hasMany(NestedBook.self)
    var id: Int64
    var name: String
}

struct NestedPublisher: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "publisher"
    var id: Int64
    var name: String
}

struct NestedBook: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "book"
    static let author = belongsTo(NestedAuthor.self)
    static let publisher = belongsTo(NestedPublisher.self)
    var id: Int64
    var authorId: Int64
    var publisherId: Int64?
    var title: String
}

/// Decodable: a to-many of records that embed their required publisher.
struct NestedAuthorInfo: Decodable, FetchableRecord {
    struct BookInfo: Decodable {
        var book: NestedBook
        var publisher: NestedPublisher
    }
    var author: NestedAuthor
    var books: [BookInfo]
}

/// Decodable: a to-many of records that embed their optional publisher.
struct NestedAuthorOptionalInfo: Decodable, FetchableRecord {
    struct BookInfo: Decodable {
        var book: NestedBook
        var publisher: NestedPublisher?
    }
    var author: NestedAuthor
    var books: [BookInfo]
}

/// Hand-written: the same, through row subscripts.
struct NestedBookRow: FetchableRecord {
    var title: String
    var publisher: NestedPublisher?
    init(row: Row) throws {
        title = row["title"]
        publisher = row["publisher"]
    }
}

struct NestedAuthorRow: FetchableRecord {
    var name: String
    var books: [NestedBookRow]
    init(row: Row) throws {
        name = row["name"]
        books = row["books"]
    }
}

/// A nested model of a joined request, with a non-optional property.
struct NestedBookWithPublisher: Decodable, FetchableRecord {
    var book: NestedBook
    var publisher: NestedPublisher
}

/// A nested model that is not a record: decoded from the scope's columns.
struct NestedBookWithPublisherName: Decodable, FetchableRecord {
    struct PublisherName: Decodable { var name: String }
    var book: NestedBook
    var publisher: PublisherName
}

struct NestedBookWithOptionalPublisherName: Decodable, FetchableRecord {
    struct PublisherName: Decodable { var name: String }
    var book: NestedBook
    var publisher: PublisherName?
}

func makeNestedAssociationDatabase() throws -> DatabaseQueue {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
        try quietly {
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE publisher (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE book (
                  id INTEGER PRIMARY KEY,
                  authorId INTEGER NOT NULL REFERENCES author(id),
                  publisherId INTEGER REFERENCES publisher(id),
                  title TEXT NOT NULL);
                INSERT INTO author VALUES (1, 'Ann'), (2, 'Bob'), (3, 'Cid');
                INSERT INTO publisher VALUES (1, 'Penguin'), (2, 'Folio');
                INSERT INTO book VALUES (1, 1, 1, 'A1'), (2, 1, NULL, 'A2'), (3, 2, 2, 'B1');
                """)
        }
    }
    return dbQueue
}

let nestedAssociationPrograms: [Program] = [
    Program("associations-to-many-nested-to-one") {
        let dbQueue = try makeNestedAssociationDatabase()
        try dbQueue.read { db in
            let books = NestedAuthor.books.order(Column("id"))
            step("required, decodable") {
                try NestedAuthor
                    .including(all: books.including(required: NestedBook.publisher))
                    .order(Column("id"))
                    .asRequest(of: NestedAuthorInfo.self)
                    .fetchAll(db)
                    .map { "\($0.author.name): \($0.books.map { "\($0.book.title)/\($0.publisher.name)" })" }
            }
            step("optional, decodable") {
                try NestedAuthor
                    .including(all: books.including(optional: NestedBook.publisher))
                    .order(Column("id"))
                    .asRequest(of: NestedAuthorOptionalInfo.self)
                    .fetchAll(db)
                    .map { "\($0.author.name): \($0.books.map { "\($0.book.title)/\($0.publisher?.name ?? "-")" })" }
            }
            step("required, rows") {
                try NestedAuthor
                    .including(all: books.including(required: NestedBook.publisher))
                    .order(Column("id"))
                    .asRequest(of: NestedAuthorRow.self)
                    .fetchAll(db)
                    .map { "\($0.name): \($0.books.map { "\($0.title)/\($0.publisher?.name ?? "-")" })" }
            }
            step("optional, rows") {
                try NestedAuthor
                    .including(all: books.including(optional: NestedBook.publisher))
                    .order(Column("id"))
                    .asRequest(of: NestedAuthorRow.self)
                    .fetchAll(db)
                    .map { "\($0.name): \($0.books.map { "\($0.title)/\($0.publisher?.name ?? "-")" })" }
            }
            step("optional, row description") {
                try Row.fetchAll(
                    db,
                    NestedAuthor
                        .including(all: books.including(optional: NestedBook.publisher))
                        .order(Column("id")))
                .map(\.debugDescription)
            }
        }
    },
    Program("associations-nested-model-missing") {
        let dbQueue = try makeNestedAssociationDatabase()
        try dbQueue.read { db in
            let request = NestedBook.including(optional: NestedBook.publisher).order(Column("id"))
            step("optional nested model") {
                try request.asRequest(of: NestedBookWithOptionalPublisherName.self).fetchAll(db)
                    .map { $0.publisher?.name ?? "-" }
            }
            step("nested model, present") {
                try NestedBook.including(required: NestedBook.publisher).order(Column("id"))
                    .asRequest(of: NestedBookWithPublisherName.self).fetchAll(db).map(\.publisher.name)
            }
        }
    },
]
