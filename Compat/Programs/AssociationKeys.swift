#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

// The keys of associations in joined requests: a to-many association joined with
// `including(required:)`, `including(optional:)` or `joining` is a to-one join, named by the
// singular of its key ("book" for `Author.books`), custom keys too ("writings" reads
// "writing"), and so are the tables a `through` association goes through. Prefetched
// associations (`including(all:)`) keep plural keys. The SQL, the scopes of the rows, and
// the records that decode them.

struct KeyAuthor: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "author"
    static let books = hasMany(KeyBook.self)
    static let writings = hasMany(KeyBook.self, key: "writings")
    static let reviews = hasMany(KeyReview.self, through: books, using: KeyBook.reviews)
    static let reviewers = hasMany(KeyReviewer.self, through: reviews, using: KeyReview.reviewer)
    static let latestBook = hasOne(KeyBook.self, key: "latestBook").order(Column("id").desc)
    var id: Int64
    var name: String
}

struct KeyBook: Codable, FetchableRecord, TableRecord, Hashable {
    static let databaseTableName = "book"
    static let author = belongsTo(KeyAuthor.self)
    static let writer = belongsTo(KeyAuthor.self, key: "writer")
    static let reviews = hasMany(KeyReview.self)
    static let reviewers = hasMany(KeyReviewer.self, through: reviews, using: KeyReview.reviewer)
    var id: Int64
    var authorId: Int64
    var title: String
}

struct KeyReview: Codable, FetchableRecord, TableRecord, Hashable {
    static let databaseTableName = "review"
    static let book = belongsTo(KeyBook.self)
    static let reviewer = belongsTo(KeyReviewer.self)
    static let author = hasOne(KeyAuthor.self, through: book, using: KeyBook.author)
    var id: Int64
    var bookId: Int64
    var reviewerId: Int64
    var stars: Int
}

struct KeyReviewer: Codable, FetchableRecord, TableRecord, Hashable {
    static let databaseTableName = "reviewer"
    var id: Int64
    var name: String
}

struct AuthorAndBook: Decodable, FetchableRecord {
    var author: KeyAuthor
    var book: KeyBook
}

struct AuthorAndOptionalNovel: Decodable, FetchableRecord {
    var author: KeyAuthor
    var novel: KeyBook?
}

struct AuthorAndWriting: Decodable, FetchableRecord {
    var author: KeyAuthor
    var writing: KeyBook
}

struct AuthorAndReview: Decodable, FetchableRecord {
    var author: KeyAuthor
    var review: KeyReview
}

struct AuthorAndBookReviews: Decodable, FetchableRecord {
    struct BookInfo: Decodable {
        var title: String
        var reviews: [KeyReview]
    }
    var author: KeyAuthor
    var book: BookInfo
}

struct AuthorAndBookAndReview: Decodable, FetchableRecord {
    struct BookInfo: Decodable {
        var book: KeyBook
        var review: KeyReview
    }
    var author: KeyAuthor
    var book: BookInfo
}

/// A hand-written record that reads the scopes by name.
struct AuthorAndBookRow: FetchableRecord {
    var name: String
    var title: String?
    init(row: Row) throws {
        name = row["name"]
        title = row.scopes["book"]?["title"]
    }
}

func makeAssociationKeyDatabase() throws -> DatabaseQueue {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
        try quietly {
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE book (
                  id INTEGER PRIMARY KEY,
                  authorId INTEGER NOT NULL REFERENCES author(id),
                  title TEXT NOT NULL);
                CREATE TABLE reviewer (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE review (
                  id INTEGER PRIMARY KEY,
                  bookId INTEGER NOT NULL REFERENCES book(id),
                  reviewerId INTEGER NOT NULL REFERENCES reviewer(id),
                  stars INTEGER NOT NULL);
                INSERT INTO author VALUES (1, 'Ann'), (2, 'Bob'), (3, 'Cid');
                INSERT INTO book VALUES (1, 1, 'A1'), (2, 1, 'A2'), (3, 2, 'B1');
                INSERT INTO reviewer VALUES (1, 'Rex'), (2, 'Sue');
                INSERT INTO review VALUES (1, 1, 1, 5), (2, 1, 2, 3), (3, 3, 2, 4);
                """)
        }
    }
    return dbQueue
}

/// The rows of a request: each with its scopes, and the scopes of its scopes.
func scopedRows(_ db: Database, _ request: some FetchRequest) throws -> [String] {
    try Row.fetchAll(db, request).map { row in
        "\(row.debugDescription) scopes=\(row.scopes.names.sorted()) tree=\(row.scopesTree.names.sorted())"
    }
}

let associationKeyPrograms: [Program] = [
    Program("association-keys-to-many-joined") {
        let dbQueue = try makeAssociationKeyDatabase()
        try dbQueue.read { db in
            let books = KeyAuthor.books.order(Column("id"))
            step("including(required:) rows") {
                try scopedRows(db, KeyAuthor.including(required: books).order(Column("id")))
            }
            step("including(required:) decoded") {
                try KeyAuthor.including(required: books).order(Column("id"))
                    .asRequest(of: AuthorAndBook.self).fetchAll(db).map { "\($0.author.name)/\($0.book.title)" }
            }
            step("including(required:) hand-written") {
                try KeyAuthor.including(required: books).order(Column("id"))
                    .asRequest(of: AuthorAndBookRow.self).fetchAll(db).map { "\($0.name)/\($0.title ?? "-")" }
            }
            step("including(optional:) rows") {
                try scopedRows(db, KeyAuthor.including(optional: books).order(Column("id")))
            }
            step("including(optional:) forKey(novel)") {
                try KeyAuthor.including(optional: books.forKey("novel")).order(Column("id"))
                    .asRequest(of: AuthorAndOptionalNovel.self).fetchAll(db)
                    .map { "\($0.author.name)/\($0.novel?.title ?? "-")" }
            }
            step("including(optional:) forKey(novels) rows") {
                try scopedRows(db, KeyAuthor.including(optional: books.forKey("novels")).order(Column("id")))
            }
            step("including(optional:) forKey(novels) decoded as novel") {
                try KeyAuthor.including(optional: books.forKey("novels")).order(Column("id"))
                    .asRequest(of: AuthorAndOptionalNovel.self).fetchAll(db)
                    .map { "\($0.author.name)/\($0.novel?.title ?? "-")" }
            }
            step("key: writings") {
                try KeyAuthor.including(required: KeyAuthor.writings.order(Column("id"))).order(Column("id"))
                    .asRequest(of: AuthorAndWriting.self).fetchAll(db).map { "\($0.author.name)/\($0.writing.title)" }
            }
            step("key: writings, rows") {
                try scopedRows(db, KeyAuthor.including(required: KeyAuthor.writings).order(Column("id")))
            }
            step("books and writings together") {
                try scopedRows(db, KeyAuthor
                    .including(required: KeyAuthor.books.filter(Column("title") == "A1"))
                    .including(optional: KeyAuthor.writings.filter(Column("title") == "A2")))
            }
            step("to-one custom key") {
                try scopedRows(db, KeyAuthor.including(optional: KeyAuthor.latestBook).order(Column("id")))
            }
            step("to-one custom key, forKey") {
                try scopedRows(db, KeyAuthor.including(optional: KeyAuthor.latestBook.forKey("lastBooks")))
            }
            step("belongsTo forKey plural") {
                try scopedRows(db, KeyBook.including(required: KeyBook.author.forKey("writers")).order(Column("id")))
            }
            step("belongsTo custom key") {
                try scopedRows(db, KeyBook.including(required: KeyBook.writer).order(Column("id")))
            }
        }
    },
    Program("association-keys-merging") {
        let dbQueue = try makeAssociationKeyDatabase()
        try dbQueue.read { db in
            step("joining and including the same to-many") {
                try scopedRows(db, KeyAuthor
                    .joining(required: KeyAuthor.books.filter(Column("title") != "A2"))
                    .including(optional: KeyAuthor.books)
                    .order(Column("id")))
            }
            step("joining a to-many and prefetching it") {
                try KeyAuthor
                    .joining(required: KeyAuthor.books.filter(Column("title") != "A2"))
                    .including(all: KeyAuthor.books)
                    .order(Column("id"))
                    .fetchAll(db).map(\.name)
            }
            step("joining a to-many and its aggregate") {
                try Row.fetchAll(db, KeyAuthor
                    .joining(required: KeyAuthor.books.filter(Column("title") != "A2"))
                    .annotated(with: KeyAuthor.books.count)
                    .order(Column("id")))
            }
            step("including a to-many and its aggregate") {
                try scopedRows(db, KeyAuthor
                    .including(optional: KeyAuthor.books)
                    .annotated(with: KeyAuthor.books.count)
                    .order(Column("id")))
            }
            step("joining a to-many and annotated(withRequired:)") {
                try Row.fetchAll(db, KeyAuthor
                    .joining(optional: KeyAuthor.books.filter(Column("title") == "A1"))
                    .annotated(withRequired: KeyAuthor.books.select(Column("title")))
                    .order(Column("id")))
            }
            step("a to-many forKey(book) and the to-many") {
                try scopedRows(db, KeyAuthor
                    .including(required: KeyAuthor.writings.forKey("book").filter(Column("title") == "A1"))
                    .including(required: KeyAuthor.books.filter(Column("id") == 1)))
            }
        }
    },
    Program("association-keys-through") {
        let dbQueue = try makeAssociationKeyDatabase()
        try dbQueue.read { db in
            step("hasMany through hasMany, required") {
                try scopedRows(db, KeyAuthor.including(required: KeyAuthor.reviews).order(Column("id")))
            }
            step("hasMany through hasMany, decoded") {
                try KeyAuthor.including(required: KeyAuthor.reviews.order(Column("id"))).order(Column("id"))
                    .asRequest(of: AuthorAndReview.self).fetchAll(db).map { "\($0.author.name)/\($0.review.stars)" }
            }
            step("hasMany through hasMany through hasMany") {
                try scopedRows(db, KeyAuthor.including(optional: KeyAuthor.reviewers).order(Column("id")))
            }
            step("through, forKey") {
                try scopedRows(db, KeyAuthor.including(optional: KeyAuthor.reviewers.forKey("critics")).order(Column("id")))
            }
            step("through and its pivot") {
                try scopedRows(db, KeyAuthor
                    .including(required: KeyAuthor.reviews)
                    .including(required: KeyAuthor.books)
                    .order(Column("id")))
            }
            step("hasOne through belongsTo") {
                try scopedRows(db, KeyReview.including(required: KeyReview.author).order(Column("id")))
            }
            step("joining through, selecting the destination") {
                try Row.fetchAll(db, KeyAuthor
                    .joining(required: KeyAuthor.reviewers.filter(Column("name") == "Sue"))
                    .select(Column("name"))
                    .distinct()
                    .order(Column("name")))
            }
            step("prefetched through") {
                try Row.fetchAll(db, KeyAuthor.including(all: KeyAuthor.reviews).order(Column("id")))
                    .map { "\($0["name"] as String): \($0.prefetchedRows.keys.sorted())" }
            }
            step("prefetched through, with a join of the pivot table") {
                try Row.fetchAll(db, KeyAuthor
                    .including(all: KeyAuthor.reviews.including(required: KeyReview.book))
                    .order(Column("id")))
                    .map { "\($0["name"] as String): \($0.prefetchedRows["reviews"]?.map(\.debugDescription) ?? [])" }
            }
            step("request(for:) through, joining the pivot table") {
                let author = try KeyAuthor.find(db, key: 1)
                return try Row.fetchAll(db, author.request(for: KeyAuthor.reviews)
                    .joining(required: KeyReview.book.filter(Column("title") == "A1")))
            }
            step("request(for:) through, including the pivot table") {
                let author = try KeyAuthor.find(db, key: 1)
                return try scopedRows(db, author.request(for: KeyAuthor.reviews).including(required: KeyReview.book))
            }
        }
    },
    Program("association-keys-nested") {
        let dbQueue = try makeAssociationKeyDatabase()
        try dbQueue.read { db in
            step("to-many in to-many, required") {
                try scopedRows(db, KeyAuthor
                    .including(required: KeyAuthor.books.including(required: KeyBook.reviews))
                    .order(Column("id")))
            }
            step("to-many in to-many, decoded") {
                try KeyAuthor
                    .including(required: KeyAuthor.books.including(required: KeyBook.reviews.order(Column("id"))))
                    .order(Column("id"))
                    .asRequest(of: AuthorAndBookAndReview.self).fetchAll(db)
                    .map { "\($0.author.name)/\($0.book.book.title)/\($0.book.review.stars)" }
            }
            step("prefetch in a joined to-many") {
                try Row.fetchAll(db, KeyAuthor
                    .including(required: KeyAuthor.books.including(all: KeyBook.reviews))
                    .order(Column("id")))
                    .map { "\($0.debugDescription) prefetched=\($0.prefetchedRows.keys.sorted())" }
            }
            step("prefetch in a joined to-many, decoded") {
                try KeyAuthor
                    .including(required: KeyAuthor.books.including(all: KeyBook.reviews.order(Column("id"))))
                    .order(Column("id"))
                    .asRequest(of: AuthorAndBookReviews.self).fetchAll(db)
                    .map { "\($0.author.name)/\($0.book.title)/\($0.book.reviews.map(\.stars))" }
            }
            step("through in a joined to-many") {
                try scopedRows(db, KeyAuthor
                    .including(optional: KeyAuthor.books.including(optional: KeyBook.reviewers))
                    .order(Column("id")))
            }
            step("prefetched through in a joined to-many") {
                try Row.fetchAll(db, KeyAuthor
                    .including(required: KeyAuthor.books.including(all: KeyBook.reviewers))
                    .order(Column("id")))
                    .map { "\($0.debugDescription) prefetched=\($0.prefetchedRows.keys.sorted())" }
            }
        }
    },
]
