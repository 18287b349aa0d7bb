import Foundation
import Testing
import GRDBCipher // not @testable: only the public API is visible here

private struct Book: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "book"
    var author: String
    var title: String
    var body: String
}

/// The full-text API of GRDB 7.10 as an application sees it: this file
/// compiles only if every declaration it uses is public.
@Suite struct FullTextPublicAPITests {
    @Test func fts4DocumentationOverview() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(virtualTable: "book", using: FTS4()) { t in
                t.tokenizer = .unicode61(diacritics: .keep, separators: ["-"], tokenCharacters: ["#"])
                t.column("author")
                t.column("title")
                t.column("body").notIndexed()
                t.prefixes = [2]
            }
            try Book(author: "Herman Melville", title: "Moby-Dick", body: "Call me Ishmael.").insert(db)
            try db.execute(
                sql: "INSERT INTO book (author, title, body) VALUES (?, ?, ?)",
                arguments: ["Jules Verne", "Nautilus", "Mobilis in mobili"])
            let pattern = FTS3Pattern(matchingPhrase: "Moby-Dick")
            #expect(try Book.matching(pattern).fetchAll(db).map(\.title) == ["Moby-Dick"])
            #expect(try Book.fetchAll(db, sql: "SELECT * FROM book WHERE book MATCH ?", arguments: [pattern]).map(\.title) == ["Moby-Dick"])
            #expect(try Book.all().matching(FTS3Pattern(matchingAllPrefixesIn: "jul")).fetchCount(db) == 1)
            #expect(try Book.filter(Column("title").match(FTS3Pattern(matchingAnyTokenIn: "nautilus"))).fetchCount(db) == 1)
            #expect(try FTS3Pattern(rawPattern: "moby OR nautilus").rawPattern == "moby OR nautilus")
            #expect(try FTS3.tokenize("Moby-Dick", withTokenizer: .porter) == ["mobi", "dick"])
            _ = FTS3Pattern(matchingAllTokensIn: "call me")
        }
    }

    @Test func fts3Table() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(virtualTable: "document", options: [.ifNotExists], using: FTS3()) { t in
                t.tokenizer = .simple
                t.column("content")
            }
            try db.create(virtualTable: "document", ifNotExists: true, using: FTS3())
            _ = FTS3.Diacritics.removeLegacy
            #expect(try db.tableExists("document"))
        }
    }

    @Test func fts4SynchronizedTable() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
            }
            try db.create(virtualTable: "book_ft", using: FTS4()) { t in
                t.synchronize(withTable: "book")
                t.compress = nil
                t.uncompress = nil
                t.matchinfo = nil
                t.column("title")
            }
            try db.create(virtualTable: "localized", using: FTS4()) { t in
                t.column("text")
                t.column("lid").asLanguageId()
            }
            try db.drop(table: "book_ft")
            try db.dropFTS4SynchronizationTriggers(forTable: "book_ft")
        }
    }

    @Test func fts5TablePatternsAndRank() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("author", .text)
                t.column("title", .text)
                t.column("body", .text)
            }
            try db.create(virtualTable: "book_ft", options: [], using: FTS5()) { t in
                t.synchronize(withTable: "book")
                t.tokenizer = .porter(wrapping: .unicode61(diacritics: .remove, categories: "L* N*"))
                t.column("author")
                t.column("title")
                t.column("body").notIndexed()
                t.prefixes = [2, 3]
                t.columnSize = 1
                t.detail = "full"
            }
            try Book(author: "Herman Melville", title: "Moby-Dick", body: "Call me Ishmael.").insert(db)
            let pattern = try db.makeFTS5Pattern(rawPattern: "title: moby", forTable: "book_ft")
            let titles = try Table("book_ft").all().matching(pattern).order(Column.rank).select(Column("title"), as: String.self).fetchAll(db)
            #expect(titles == ["Moby-Dick"])
            #expect(try FTS5Pattern(rawPattern: "title: moby", allowedColumns: ["title"]).rawPattern == "title: moby")
            #expect(throws: DatabaseError.self) { try FTS5Pattern(rawPattern: "body: moby", allowedColumns: ["title"]) }
            #expect(try Table("book_ft").filter(Column("author").match(FTS5Pattern(matchingPrefixPhrase: "herman")!)).fetchCount(db) == 1)
            _ = [FTS5Pattern(matchingAnyTokenIn: "a"), FTS5Pattern(matchingAllTokensIn: "a"),
                 FTS5Pattern(matchingAllPrefixesIn: "a"), FTS5Pattern(matchingPhrase: "a")]
            _ = FTS5.Diacritics.keep
            try db.drop(table: "book_ft")
            try db.dropFTS5SynchronizationTriggers(forTable: "book_ft")
        }
    }

    @Test func fts5Tokenizers() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let descriptor = FTS5TokenizerDescriptor(components: ["ascii"])
            #expect(descriptor.components == ["ascii"])
            let tokenizer = try db.makeTokenizer(.ascii(separators: ["-"], tokenCharacters: ["#"]))
            let tokens = try tokenizer.tokenize(query: "c# e-mail")
            #expect(tokens.map(\.token) == ["c#", "e", "mail"])
            #expect(tokens.allSatisfy { !$0.flags.contains(.colocated) })
            _ = FTS5.api(db)
            _ = FTS5Tokenization.document.union(.query)
        }
    }
}
