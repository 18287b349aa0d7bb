import Foundation
import Testing
@testable import GRDBCipher

private struct Article: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "article"
    var title: String
    var body: String
}

/// Full-text queries on FTS5 tables: `matching(_:)`, `Column.match(_:)`
/// and ordering by relevance with `Column.rank`
/// (Compat/.transcripts/grdb/fts5-matching-rank-synchronized.txt).
@Suite struct FTS5MatchingTests {
    /// Runs `body` on an FTS5 table "article": rowid 1 mentions "database"
    /// once in a long body, rowid 2 mentions it twice in a short one;
    /// rowids 3 to 6 do not mention it.
    private func withArticles(_ body: (Database) throws -> Void) throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(virtualTable: "article", using: FTS5()) { t in
                t.column("title")
                t.column("body")
            }
            try Article(
                title: "Long",
                body: "A long story about ships, whales, sailors, harbours, storms and one database at the very end of it").insert(db)
            try Article(title: "Short", body: "database database").insert(db)
            try Article(title: "Other", body: "Swift concurrency").insert(db)
            // Rows without "database", so that it is a rare, relevant word.
            for index in 1...3 {
                try Article(title: "Filler \(index)", body: "nothing relevant here").insert(db)
            }
            try body(db)
        }
    }

    @Test func recordMatching() throws {
        try withArticles { db throws in
            var titles: [String] = []
            let sql = try expandedQueryTrace(db) {
                titles = try Article.matching(FTS5Pattern(matchingAnyTokenIn: "database")).fetchAll(db).map(\.title)
            }
            #expect(sql == [#"SELECT * FROM "article" WHERE "article" MATCH 'database'"#])
            #expect(Set(titles) == ["Long", "Short"])
        }
    }

    @Test func orderByRankGivesTheMostRelevantFirst() throws {
        try withArticles { db throws in
            let pattern = FTS5Pattern(matchingAnyTokenIn: "database")
            var ranked: [String] = []
            let sql = try expandedQueryTrace(db) {
                ranked = try Article.matching(pattern).order(Column.rank).fetchAll(db).map(\.title)
            }
            #expect(sql == [#"SELECT * FROM "article" WHERE "article" MATCH 'database' ORDER BY "rank""#])
            #expect(ranked == ["Short", "Long"], "two mentions in a short body rank before one in a long body")
            let byRowID = try Article.matching(pattern).order(Column.rowID).fetchAll(db).map(\.title)
            #expect(byRowID == ["Long", "Short"], "the relevance order is not the insertion order")
        }
    }

    @Test func patternIsABoundArgument() throws {
        try withArticles { db throws in
            let request = Article.matching(FTS5Pattern(matchingPhrase: "one database")).order(Column.rank)
            let (sql, arguments) = try generated(db, request)
            #expect(sql == #"SELECT * FROM "article" WHERE "article" MATCH ? ORDER BY "rank""#)
            #expect(arguments == [#""one database""#])
        }
    }

    @Test func rankColumnIsNamedRank() {
        #expect(Column.rank.name == "rank")
    }

    @Test func nilPatternMatchesNothing() throws {
        try withArticles { db throws in
            var count = -1
            let sql = try expandedQueryTrace(db) {
                count = try Table("article").all().matching(FTS5Pattern(matchingAnyTokenIn: "")).fetchCount(db)
            }
            #expect(sql == [#"SELECT COUNT(*) FROM "article" WHERE 0"#])
            #expect(count == 0)
        }
    }

    @Test func columnMatch() throws {
        try withArticles { db throws in
            var titles: [String] = []
            let sql = try expandedQueryTrace(db) {
                titles = try String.fetchAll(db, Table("article")
                    .filter(Column("title").match(FTS5Pattern(matchingAnyTokenIn: "short")!))
                    .select(Column("title")))
            }
            #expect(sql == [#"SELECT "title" FROM "article" WHERE "title" MATCH 'short'"#])
            #expect(titles == ["Short"])
        }
    }

    @Test func columnMatchSearchesThatColumnOnly() throws {
        try withArticles { db throws in
            let pattern = FTS5Pattern(matchingAnyTokenIn: "database")!
            #expect(try Article.filter(Column("body").match(pattern)).fetchCount(db) == 2)
            #expect(try Article.filter(Column("title").match(pattern)).fetchCount(db) == 0)
        }
    }

    @Test func prefixPhraseMatchesTheStartOfAColumn() throws {
        try withArticles { db throws in
            let titles = try Article.matching(FTS5Pattern(matchingPrefixPhrase: "database")).fetchAll(db).map(\.title)
            #expect(titles == ["Short"], "only Short's body starts with database")
        }
    }

    @Test func prefixesMatchWordStarts() throws {
        try withArticles { db throws in
            let titles = try Article.matching(FTS5Pattern(matchingAllPrefixesIn: "conc swi")).fetchAll(db).map(\.title)
            #expect(titles == ["Other"])
        }
    }

    @Test func rawPatternWithAColumnFilter() throws {
        try withArticles { db throws in
            let pattern = try db.makeFTS5Pattern(rawPattern: "title: long OR body: concurrency", forTable: "article")
            let titles = try Article.matching(pattern).order(Column.rowID).fetchAll(db).map(\.title)
            #expect(titles == ["Long", "Other"])
        }
    }

    @Test func matchingChainsWithFilters() throws {
        try withArticles { db throws in
            var titles: [String] = []
            let sql = try expandedQueryTrace(db) {
                titles = try Article
                    .filter(Column("title") != "Short")
                    .matching(FTS5Pattern(matchingAnyTokenIn: "database"))
                    .order(Column.rank)
                    .fetchAll(db)
                    .map(\.title)
            }
            #expect(sql == [#"SELECT * FROM "article" WHERE ("title" <> 'Short') AND ("article" MATCH 'database') ORDER BY "rank""#])
            #expect(titles == ["Long"])
        }
    }
}
