#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

// `withStableOrder()`: the orderings it appends (primary keys, the rowid, every column of a
// view), with an order already there, reversed, on joined and prefetched associations, on
// views and common table expressions. The SQL each request runs, and its rows.

struct StableAuthor: TableRecord {
    static let databaseTableName = "author"
    static let books = hasMany(StableBook.self)
    static let reviews = hasMany(StableReview.self, through: books, using: StableBook.reviews)
    static let bookViews = hasMany(StableBookView.self, using: ForeignKey(["authorId"], to: ["id"]))
}

struct StableBook: TableRecord {
    static let databaseTableName = "book"
    static let author = belongsTo(StableAuthor.self)
    static let reviews = hasMany(StableReview.self)
    static let tags = hasMany(StableTag.self)
}

struct StableBookView: TableRecord {
    static let databaseTableName = "bookView"
}

struct StableReview: TableRecord {
    static let databaseTableName = "review"
}

struct StableTag: TableRecord {
    static let databaseTableName = "tag"
}

func makeStableOrderDatabase() throws -> DatabaseQueue {
    let dbQueue = try makeQueue()
    try dbQueue.write { db in
        try quietly {
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id), title TEXT NOT NULL);
                CREATE TABLE review (bookId INTEGER NOT NULL REFERENCES book(id), stars INTEGER NOT NULL);
                CREATE TABLE tag (
                  bookId INTEGER NOT NULL REFERENCES book(id), label TEXT NOT NULL,
                  PRIMARY KEY (label, bookId)) WITHOUT ROWID;
                CREATE VIEW bookView AS SELECT id, authorId, title FROM book;
                INSERT INTO author VALUES (1, 'Ann'), (2, 'Bob');
                INSERT INTO book VALUES (1, 1, 'A1'), (2, 1, 'A2'), (3, 2, 'B1');
                INSERT INTO review VALUES (1, 5), (1, 3), (3, 4);
                INSERT INTO tag VALUES (1, 'sea'), (1, 'epic'), (3, 'short');
                """)
        }
    }
    return dbQueue
}

/// The rows of a request, with its SQL in the trace.
func stableRows(_ db: Database, _ request: some FetchRequest) throws -> [String] {
    try Row.fetchAll(db, request).map { row in
        var text = row.description
        for (key, rows) in row.prefetchedRows.keys.sorted().map({ ($0, row.prefetchedRows[$0] ?? []) }) {
            text += " \(key)=\(rows.map(\.description))"
        }
        return text
    }
}

let stableOrderPrograms: [Program] = [
    Program("stable-order-tables") {
        let dbQueue = try makeStableOrderDatabase()
        try dbQueue.read { db in
            step("primary key") { try stableRows(db, StableAuthor.all().withStableOrder()) }
            step("after an order") { try stableRows(db, StableBook.order(Column("authorId").desc).withStableOrder()) }
            step("before an order") { try stableRows(db, StableBook.all().withStableOrder().order(Column("title"))) }
            step("twice") { try stableRows(db, StableBook.all().withStableOrder().withStableOrder()) }
            step("reversed after") { try stableRows(db, StableBook.order(Column("authorId")).withStableOrder().reversed()) }
            step("reversed before") { try stableRows(db, StableBook.order(Column("authorId")).reversed().withStableOrder()) }
            step("unordered after") { try stableRows(db, StableBook.all().withStableOrder().unordered()) }
            step("no primary key: rowid") { try stableRows(db, StableReview.all().withStableOrder()) }
            step("without rowid") { try stableRows(db, StableTag.all().withStableOrder()) }
            step("Table") { try stableRows(db, Table("tag").all().withStableOrder()) }
            step("limited") { try stableRows(db, StableBook.limit(2).withStableOrder()) }
            step("selection") { try stableRows(db, StableBook.select(Column("title")).withStableOrder()) }
            step("distinct") { try stableRows(db, StableBook.select(Column("authorId")).distinct().withStableOrder()) }
            step("grouped") {
                try stableRows(db, StableBook.select(Column("authorId"), count(Column("id"))).group(Column("authorId")).withStableOrder())
            }
            step("aliased") {
                let alias = TableAlias(name: "b")
                return try stableRows(db, StableBook.aliased(alias).filter(alias[Column("id")] > 1).withStableOrder())
            }
            step("fetchCount") { try StableBook.all().withStableOrder().fetchCount(db) }
            step("annotated with an aggregate") {
                try stableRows(db, StableAuthor.annotated(with: StableAuthor.books.count).withStableOrder())
            }
            step("having an aggregate") {
                try stableRows(db, StableAuthor.having(StableAuthor.books.count > 1).withStableOrder())
            }
        }
    },
    Program("stable-order-views") {
        let dbQueue = try makeStableOrderDatabase()
        try dbQueue.read { db in
            step("view") { try stableRows(db, Table("bookView").all().withStableOrder()) }
            step("view, selection") { try stableRows(db, Table("bookView").select(Column("title"), Column("id")).withStableOrder()) }
            step("view, with an order") { try stableRows(db, Table("bookView").order(Column("authorId")).withStableOrder()) }
            step("view, expression") { try stableRows(db, Table("bookView").select(length(Column("title"))).withStableOrder()) }
            step("common table expression") {
                let cte = CommonTableExpression(named: "titles", sql: "SELECT title, authorId FROM book")
                return try stableRows(db, cte.all().with(cte).withStableOrder())
            }
            step("common table expression with columns") {
                let cte = CommonTableExpression(named: "titles", columns: ["t"], sql: "SELECT title FROM book")
                return try stableRows(db, cte.all().with(cte).withStableOrder())
            }
            step("view joined to a table") {
                try stableRows(db, StableAuthor.including(required: StableAuthor.bookViews).withStableOrder())
            }
            step("view joined to a table, stable order in the association") {
                try stableRows(db, StableAuthor.including(required: StableAuthor.bookViews.withStableOrder()))
            }
            step("view joining a table") {
                let authors = StableBookView.belongsTo(StableAuthor.self, using: ForeignKey(["authorId"], to: ["id"]))
                return try stableRows(db, StableBookView.including(required: authors).withStableOrder())
            }
        }
    },
    // Reversing the positions of a view's columns traps in GRDB (literal orderings can't be
    // reversed): a program of its own.
    Program("stable-order-view-reversed") {
        let dbQueue = try makeStableOrderDatabase()
        step("view, reversed") {
            try quietly { try dbQueue.read { db in try stableRows(db, Table("bookView").all().withStableOrder().reversed()) } }
        }
    },
    Program("stable-order-associations") {
        let dbQueue = try makeStableOrderDatabase()
        try dbQueue.read { db in
            step("including(required:)") {
                try stableRows(db, StableBook.including(required: StableBook.author).withStableOrder())
            }
            step("joining(required:)") {
                try stableRows(db, StableBook.joining(required: StableBook.author).withStableOrder())
            }
            step("before the join") {
                try stableRows(db, StableBook.all().withStableOrder().including(required: StableBook.author))
            }
            step("joined to-many, ordered") {
                try stableRows(db, StableAuthor.including(optional: StableAuthor.books.order(Column("title").desc)).withStableOrder())
            }
            step("nested joins") {
                try stableRows(db, StableAuthor
                    .including(optional: StableAuthor.books.including(optional: StableBook.tags))
                    .withStableOrder())
            }
            step("joined through") {
                try stableRows(db, StableAuthor.including(required: StableAuthor.reviews).withStableOrder())
            }
            step("joined, reversed") {
                try stableRows(db, StableBook.including(required: StableBook.author).withStableOrder().reversed())
            }
            step("including(all:)") {
                try stableRows(db, StableAuthor.including(all: StableAuthor.books).withStableOrder())
            }
            step("including(all:), ordered association") {
                try stableRows(db, StableAuthor.including(all: StableAuthor.books.order(Column("title").desc)).withStableOrder())
            }
            step("including(all:) without rowid") {
                try stableRows(db, StableBook.including(all: StableBook.tags).withStableOrder())
            }
            step("including(all:) through") {
                try stableRows(db, StableAuthor.including(all: StableAuthor.reviews).withStableOrder())
            }
            step("including(all:) in a join") {
                try stableRows(db, StableBook.including(required: StableBook.author.including(all: StableAuthor.books)).withStableOrder())
            }
            step("association withStableOrder") {
                try stableRows(db, StableAuthor.including(all: StableAuthor.books.withStableOrder()))
            }
            step("joined association withStableOrder") {
                try stableRows(db, StableBook.including(required: StableBook.author.withStableOrder()))
            }
            step("request(for:)") {
                try stableRows(db, StableAuthor.all().withStableOrder().including(all: StableAuthor.books))
            }
        }
    },
]
