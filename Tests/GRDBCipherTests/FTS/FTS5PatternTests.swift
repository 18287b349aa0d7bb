import Foundation
import Testing
@testable import GRDBCipher

/// `FTS5Pattern`: patterns made of user input (tokens of the `ascii`
/// tokenizer), raw patterns checked against a table with
/// `db.makeFTS5Pattern(rawPattern:forTable:)`, and patterns as database
/// values (Compat/.transcripts/grdb/fts5-tokenize-patterns.txt).
@Suite struct FTS5PatternTests {
    /// An input and the raw patterns of the five initializers: any token,
    /// all tokens, all prefixes, phrase, prefix phrase.
    struct Case: Sendable, CustomTestStringConvertible {
        var input: String
        var any: String?
        var all: String?
        var prefixes: String?
        var phrase: String?
        var prefixPhrase: String?
        var testDescription: String { input.debugDescription }
    }

    static let cases: [Case] = [
        Case(input: "SQLite database",
             any: "sqlite OR database", all: "sqlite database", prefixes: "sqlite* database*",
             phrase: #""sqlite database""#, prefixPhrase: #"^"sqlite database""#),
        Case(input: #"Moby-Dick AND "whale" OR NOT"#,
             any: "moby OR dick OR and OR whale OR or OR not", all: "moby dick and whale or not",
             prefixes: "moby* dick* and* whale* or* not*",
             phrase: #""moby dick and whale or not""#, prefixPhrase: #"^"moby dick and whale or not""#),
        Case(input: "data*", any: "data", all: "data", prefixes: "data*", phrase: #""data""#, prefixPhrase: #"^"data""#),
        Case(input: "Élégance ÉLÉGANCE",
             any: "Élégance OR ÉlÉgance", all: "Élégance ÉlÉgance", prefixes: "Élégance* ÉlÉgance*",
             phrase: #""Élégance ÉlÉgance""#, prefixPhrase: #"^"Élégance ÉlÉgance""#),
    ]

    @Test(arguments: cases)
    func patternsKeepTheTokensOfTheInput(_ c: Case) {
        #expect(FTS5Pattern(matchingAnyTokenIn: c.input)?.rawPattern == c.any)
        #expect(FTS5Pattern(matchingAllTokensIn: c.input)?.rawPattern == c.all)
        #expect(FTS5Pattern(matchingAllPrefixesIn: c.input)?.rawPattern == c.prefixes)
        #expect(FTS5Pattern(matchingPhrase: c.input)?.rawPattern == c.phrase)
        #expect(FTS5Pattern(matchingPrefixPhrase: c.input)?.rawPattern == c.prefixPhrase)
    }

    @Test(arguments: ["", "*", "  ", "\"", "^:-()"])
    func inputWithoutTokenGivesNoPattern(_ input: String) {
        #expect(FTS5Pattern(matchingAnyTokenIn: input) == nil)
        #expect(FTS5Pattern(matchingAllTokensIn: input) == nil)
        #expect(FTS5Pattern(matchingAllPrefixesIn: input) == nil)
        #expect(FTS5Pattern(matchingPhrase: input) == nil)
        #expect(FTS5Pattern(matchingPrefixPhrase: input) == nil)
    }

    /// Runs `body` with an FTS5 table "book" (title, body).
    private func withBookTable(_ body: (Database) throws -> Void) throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(virtualTable: "book", using: FTS5()) { t in
                t.column("title")
                t.column("body")
            }
            try body(db)
        }
    }

    @Test func rawPatternForATable() throws {
        try withBookTable { db throws in
            #expect(try db.makeFTS5Pattern(rawPattern: "sqlite", forTable: "book").rawPattern == "sqlite")
            #expect(try db.makeFTS5Pattern(rawPattern: "title: sqlite", forTable: "book").rawPattern == "title: sqlite",
                    "a column of the table may filter the pattern")
            #expect(try db.makeFTS5Pattern(rawPattern: "{title body}: sqlite NEAR(a b)", forTable: "book").rawPattern
                    == "{title body}: sqlite NEAR(a b)")
        }
    }

    @Test func rawPatternWithAnUnknownColumnThrows() throws {
        try withBookTable { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.makeFTS5Pattern(rawPattern: "missing: sqlite", forTable: "book")
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "no such column: missing")
            #expect(error?.sql == nil, "the statement that checked the pattern is the library's")
            #expect(error?.arguments == nil)
        }
    }

    @Test func rawPatternWithASyntaxErrorThrows() throws {
        try withBookTable { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.makeFTS5Pattern(rawPattern: "AND", forTable: "book")
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == #"fts5: syntax error near "AND""#)
            #expect(error?.sql == nil)
            #expect(error?.arguments == nil)
        }
    }

    @Test func rawPatternWithAnUnbalancedQuoteThrows() throws {
        try withBookTable { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.makeFTS5Pattern(rawPattern: #""foo"#, forTable: "book")
            }
            #expect(error?.message == "unterminated string")
            #expect(error?.sql == nil)
        }
    }

    @Test func rawPatternForAMissingTableThrows() throws {
        try withBookTable { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.makeFTS5Pattern(rawPattern: "sqlite", forTable: "nope")
            }
            #expect(error?.message == "no such table: nope")
        }
    }

    @Test func rawPatternLeavesTheDatabaseUnchanged() throws {
        try withBookTable { db throws in
            let before = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master ORDER BY name")
            _ = try db.makeFTS5Pattern(rawPattern: "title: sqlite", forTable: "book")
            _ = try? db.makeFTS5Pattern(rawPattern: "AND", forTable: "book")
            #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master ORDER BY name") == before,
                    "patterns are checked in a private in-memory database")
        }
    }

    @Test func databaseValueIsTheRawPattern() {
        #expect(FTS5Pattern(matchingPrefixPhrase: "a b")?.databaseValue == #"^"a b""#.databaseValue)
    }

    @Test func fromDatabaseValueChecksThePattern() {
        #expect(FTS5Pattern.fromDatabaseValue("foo bar".databaseValue)?.rawPattern == "foo bar")
        #expect(FTS5Pattern.fromDatabaseValue("AND".databaseValue) == nil, "an invalid pattern is no pattern")
        #expect(FTS5Pattern.fromDatabaseValue(.null) == nil)
    }

    @Test func roundTripThroughTheDatabase() throws {
        try inMemoryDatabase { db throws in
            let pattern = FTS5Pattern(matchingPhrase: "Moby Dick")
            let fetched = try FTS5Pattern.fetchOne(db, sql: "SELECT ?", arguments: [pattern])
            #expect(fetched?.rawPattern == #""moby dick""#)
        }
    }
}
