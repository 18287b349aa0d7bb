import Foundation
import Testing
@testable import GRDBCipher

private struct Book: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "book"
    var author: String
    var title: String
    var body: String
}

/// `matching(_:)` on records and requests, and `Column.match(_:)`, on an
/// FTS4 table: the SQL GRDB 7.10 generates
/// (Compat/.transcripts/grdb/fts4-matching.txt) and the rows it finds.
@Suite struct FullTextMatchingTests {
    /// Runs `body` on an FTS4 table "book" with the porter tokenizer and
    /// three books: Moby-Dick (1), Vingt mille lieues (2), Swann (3).
    private func withBooks(_ body: (Database) throws -> Void) throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(virtualTable: "book", using: FTS4()) { t in
                t.tokenizer = .porter
                t.column("author")
                t.column("title")
                t.column("body")
            }
            try Book(author: "Herman Melville", title: "Moby-Dick", body: "Call me Ishmael. Whales and databases.").insert(db)
            try Book(author: "Jules Verne", title: "Vingt mille lieues sous les mers", body: "Nautilus").insert(db)
            try Book(author: "Marcel Proust", title: "Du côté de chez Swann", body: "Longtemps, je me suis couché de bonne heure").insert(db)
            try body(db)
        }
    }

    @Test func recordMatchingFiltersOnTheTable() throws {
        try withBooks { db throws in
            var titles: [String] = []
            let sql = try expandedQueryTrace(db) {
                titles = try Book.matching(FTS3Pattern(matchingPhrase: "Moby-Dick")).fetchAll(db).map(\.title)
            }
            #expect(sql == [#"SELECT * FROM "book" WHERE "book" MATCH '"moby dick"'"#])
            #expect(titles == ["Moby-Dick"])
        }
    }

    @Test func patternIsABoundArgument() throws {
        try withBooks { db throws in
            let (sql, arguments) = try generated(db, Book.matching(FTS3Pattern(matchingAnyTokenIn: "moby")))
            #expect(sql == #"SELECT * FROM "book" WHERE "book" MATCH ?"#, "the pattern is never written into the SQL")
            #expect(arguments == ["moby"])
        }
    }

    @Test func columnMatchPatternIsABoundArgument() throws {
        try withBooks { db throws in
            let (sql, arguments) = try generated(db, Book.filter(Column("title").match(FTS3Pattern(matchingAnyTokenIn: "moby"))))
            #expect(sql == #"SELECT * FROM "book" WHERE "title" MATCH ?"#)
            #expect(arguments == ["moby"])
        }
    }

    @Test func matchingUsesTheTokenizerOfTheTable() throws {
        try withBooks { db throws in
            let titles = try Book.matching(FTS3Pattern(matchingAllTokensIn: "whale database")).fetchAll(db).map(\.title)
            #expect(titles == ["Moby-Dick"], "porter stems the pattern as it stemmed the body")
        }
    }

    @Test func nilPatternMatchesNothingWithoutAskingSQLiteToMatch() throws {
        try withBooks { db throws in
            var books: [Book] = []
            let sql = try expandedQueryTrace(db) {
                books = try Book.matching(FTS3Pattern(matchingAnyTokenIn: "")).fetchAll(db)
            }
            #expect(sql == [#"SELECT * FROM "book" WHERE 0"#])
            #expect(books.isEmpty)
        }
    }

    @Test func fetchCountWithMatching() throws {
        try withBooks { db throws in
            var count = 0
            let sql = try expandedQueryTrace(db) {
                count = try Book.matching(FTS3Pattern(matchingAnyTokenIn: "Nautilus Swann")).fetchCount(db)
            }
            #expect(sql == [#"SELECT COUNT(*) FROM "book" WHERE "book" MATCH 'nautilus OR swann'"#])
            #expect(count == 2)
        }
    }

    @Test func fetchCountOfANilPatternIsZero() throws {
        try withBooks { db throws in
            #expect(try Book.matching(FTS3Pattern(matchingAnyTokenIn: "*")).fetchCount(db) == 0)
        }
    }

    @Test func isEmptyWithMatching() throws {
        try withBooks { db throws in
            var isEmpty = true
            let sql = try expandedQueryTrace(db) {
                isEmpty = try Book.matching(FTS3Pattern(matchingAnyTokenIn: "swann")).isEmpty(db)
            }
            #expect(sql == [#"SELECT EXISTS (SELECT * FROM "book" WHERE "book" MATCH 'swann')"#])
            #expect(isEmpty == false)
            #expect(try Book.matching(FTS3Pattern(matchingAnyTokenIn: "submarine")).isEmpty(db) == true)
        }
    }

    @Test func matchingChainsWithFiltersAndOrder() throws {
        try withBooks { db throws in
            var titles: [String] = []
            let sql = try expandedQueryTrace(db) {
                titles = try Book
                    .filter(Column("author") != "x")
                    .matching(FTS3Pattern(matchingAllPrefixesIn: "verne jul"))
                    .order(Column("title"))
                    .fetchAll(db)
                    .map(\.title)
            }
            #expect(sql == [#"SELECT * FROM "book" WHERE ("author" <> 'x') AND ("book" MATCH 'verne* jul*') ORDER BY "title""#])
            #expect(titles == ["Vingt mille lieues sous les mers"])
        }
    }

    @Test func filterAfterMatching() throws {
        try withBooks { db throws in
            var titles: [String] = []
            let sql = try expandedQueryTrace(db) {
                titles = try Book
                    .matching(FTS3Pattern(matchingAnyTokenIn: "nautilus swann"))
                    .filter(Column("author") == "Marcel Proust")
                    .fetchAll(db)
                    .map(\.title)
            }
            #expect(sql == [#"SELECT * FROM "book" WHERE ("book" MATCH 'nautilus OR swann') AND ("author" = 'Marcel Proust')"#])
            #expect(titles == ["Du côté de chez Swann"])
        }
    }

    @Test func tableRequestMatching() throws {
        try withBooks { db throws in
            var count = 0
            let sql = try expandedQueryTrace(db) {
                count = try Table("book").all().matching(FTS3Pattern(matchingAnyTokenIn: "proust")).fetchCount(db)
            }
            #expect(sql == [#"SELECT COUNT(*) FROM "book" WHERE "book" MATCH 'proust'"#])
            #expect(count == 1)
        }
    }

    @Test func tableMatchingForATableNameThatNeedsQuotes() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(virtualTable: "my book", using: FTS4()) { t in t.column("title") }
            try db.execute(sql: #"INSERT INTO "my book"(title) VALUES ('Moby Dick')"#)
            var count = 0
            let sql = try expandedQueryTrace(db) {
                count = try Table("my book").all().matching(FTS3Pattern(matchingAnyTokenIn: "moby")).fetchCount(db)
            }
            #expect(sql == [#"SELECT COUNT(*) FROM "my book" WHERE "my book" MATCH 'moby'"#])
            #expect(count == 1)
        }
    }

    @Test func columnMatch() throws {
        try withBooks { db throws in
            var titles: [String] = []
            let sql = try expandedQueryTrace(db) {
                titles = try Book.filter(Column("title").match(FTS3Pattern(matchingAnyTokenIn: "moby"))).fetchAll(db).map(\.title)
            }
            #expect(sql == [#"SELECT * FROM "book" WHERE "title" MATCH 'moby'"#])
            #expect(titles == ["Moby-Dick"])
        }
    }

    @Test func columnMatchSearchesThatColumnOnly() throws {
        try withBooks { db throws in
            let pattern = FTS3Pattern(matchingAnyTokenIn: "nautilus")
            #expect(try Book.filter(Column("body").match(pattern)).fetchCount(db) == 1)
            #expect(try Book.filter(Column("title").match(pattern)).fetchCount(db) == 0,
                    "Nautilus is in a body, not in a title")
        }
    }

    @Test func columnMatchOfANilPatternIsMatchNull() throws {
        try withBooks { db throws in
            var books: [Book] = []
            let sql = try expandedQueryTrace(db) {
                books = try Book.filter(Column("title").match(nil)).fetchAll(db)
            }
            #expect(sql == [#"SELECT * FROM "book" WHERE "title" MATCH NULL"#])
            #expect(books.isEmpty)
        }
    }

    @Test func aliasedTableIsRefusedBySQLite() throws {
        try withBooks { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try Book.aliased(TableAlias(name: "b")).matching(FTS3Pattern(matchingAnyTokenIn: "moby")).fetchCount(db)
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.sql == #"SELECT COUNT(*) FROM "book" "b" WHERE "b" MATCH ?"#,
                    "the alias names the table in MATCH, as in GRDB")
        }
    }

    @Test func selectionAndLimitKeepTheMatch() throws {
        try withBooks { db throws in
            var authors: [String] = []
            let sql = try expandedQueryTrace(db) {
                authors = try String.fetchAll(db, Book
                    .matching(FTS3Pattern(matchingAnyTokenIn: "nautilus ishmael"))
                    .select(Column("author"))
                    .order(Column("author").desc)
                    .limit(1))
            }
            #expect(sql == [#"SELECT "author" FROM "book" WHERE "book" MATCH 'nautilus OR ishmael' ORDER BY "author" DESC LIMIT 1"#])
            #expect(authors == ["Jules Verne"])
        }
    }
}
