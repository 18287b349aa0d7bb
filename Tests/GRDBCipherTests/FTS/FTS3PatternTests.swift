import Foundation
import Testing
@testable import GRDBCipher

/// `FTS3Pattern`: patterns made of user input, raw patterns checked by
/// SQLite, and patterns as database values
/// (Compat/.transcripts/grdb/fts3-tokenize-patterns.txt).
///
/// This SQLCipher is built without SQLITE_ENABLE_FTS3_PARENTHESIS: its
/// FTS3 reads the standard query syntax, where "AND" is a plain word.
@Suite struct FTS3PatternTests {
    /// An input and the raw patterns of the four initializers:
    /// any token, all tokens, all prefixes, phrase.
    struct Case: Sendable, CustomTestStringConvertible {
        var input: String
        var any: String?
        var all: String?
        var prefixes: String?
        var phrase: String?
        var testDescription: String { input.debugDescription }
    }

    static let cases: [Case] = [
        Case(input: "SQLite database",
             any: "sqlite OR database", all: "sqlite database", prefixes: "sqlite* database*", phrase: #""sqlite database""#),
        Case(input: #"Moby-Dick AND "whale" OR NOT"#,
             any: "moby OR dick OR and OR whale OR or OR not", all: "moby dick and whale or not",
             prefixes: "moby* dick* and* whale* or* not*", phrase: #""moby dick and whale or not""#),
        Case(input: "data*", any: "data", all: "data", prefixes: "data*", phrase: #""data""#),
        Case(input: "Élégance", any: "Élégance", all: "Élégance", prefixes: "Élégance*", phrase: #""Élégance""#),
    ]

    @Test(arguments: cases)
    func patternsKeepTheTokensOfTheInput(_ c: Case) {
        #expect(FTS3Pattern(matchingAnyTokenIn: c.input)?.rawPattern == c.any)
        #expect(FTS3Pattern(matchingAllTokensIn: c.input)?.rawPattern == c.all)
        #expect(FTS3Pattern(matchingAllPrefixesIn: c.input)?.rawPattern == c.prefixes)
        #expect(FTS3Pattern(matchingPhrase: c.input)?.rawPattern == c.phrase)
    }

    @Test(arguments: ["", "*", "  ", "\"", "-*- !"])
    func inputWithoutTokenGivesNoPattern(_ input: String) {
        #expect(FTS3Pattern(matchingAnyTokenIn: input) == nil)
        #expect(FTS3Pattern(matchingAllTokensIn: input) == nil)
        #expect(FTS3Pattern(matchingAllPrefixesIn: input) == nil)
        #expect(FTS3Pattern(matchingPhrase: input) == nil)
    }

    @Test func rawPatternIsKeptAsWritten() throws {
        #expect(try FTS3Pattern(rawPattern: "sqlite AND database").rawPattern == "sqlite AND database")
        #expect(try FTS3Pattern(rawPattern: "data* NEAR sqlite").rawPattern == "data* NEAR sqlite")
    }

    @Test func rawAndIsAWordWithoutFTS3Parenthesis() throws {
        // GRDB's SQLite (built with SQLITE_ENABLE_FTS3_PARENTHESIS) refuses
        // it: "malformed MATCH expression: [AND]".
        #expect(try FTS3Pattern(rawPattern: "AND").rawPattern == "AND")
        #expect(try FTS3Pattern(rawPattern: "(foo").rawPattern == "(foo", "parentheses are plain characters too")
    }

    @Test func rawUnbalancedQuoteThrowsSQLiteMessageWithoutSQL() throws {
        let error = #expect(throws: DatabaseError.self) {
            try FTS3Pattern(rawPattern: #""foo"#)
        }
        #expect(error?.resultCode == .SQLITE_ERROR)
        #expect(error?.message == #"malformed MATCH expression: ["foo]"#)
        #expect(error?.sql == nil, "the statement that checked the pattern is the library's, not the caller's")
        #expect(error?.arguments == nil)
    }

    @Test func rawLoneOperatorThrows() throws {
        let error = #expect(throws: DatabaseError.self) {
            try FTS3Pattern(rawPattern: "OR")
        }
        #expect(error?.message == "malformed MATCH expression: [OR]")
        #expect(error?.sql == nil)
    }

    @Test func lowercaseOperatorsFromUserInputAreWords() {
        // The simple tokenizer folds "OR" to "or": a word, not an operator.
        #expect(FTS3Pattern(matchingAllTokensIn: "OR")?.rawPattern == "or")
        #expect(FTS3Pattern(matchingAnyTokenIn: "NEAR NOT")?.rawPattern == "near OR not")
    }

    @Test func databaseValueIsTheRawPattern() {
        #expect(FTS3Pattern(matchingPhrase: "a b")?.databaseValue == #""a b""#.databaseValue)
    }

    @Test func fromDatabaseValueChecksThePattern() {
        #expect(FTS3Pattern.fromDatabaseValue("foo bar".databaseValue)?.rawPattern == "foo bar")
        #expect(FTS3Pattern.fromDatabaseValue(#""foo"#.databaseValue) == nil, "an invalid pattern is no pattern")
        #expect(FTS3Pattern.fromDatabaseValue(1.databaseValue) == nil, "an integer is no pattern")
        #expect(FTS3Pattern.fromDatabaseValue(.null) == nil)
    }

    @Test func roundTripThroughTheDatabase() throws {
        try inMemoryDatabase { db throws in
            let pattern = FTS3Pattern(matchingAllPrefixesIn: "encrypted data")
            let fetched = try FTS3Pattern.fetchOne(db, sql: "SELECT ?", arguments: [pattern])
            #expect(fetched?.rawPattern == "encrypted* data*")
        }
    }

    @Test func patternIsAStatementArgument() throws {
        try inMemoryDatabase { db throws in
            try db.create(virtualTable: "book", using: FTS4()) { t in t.column("title") }
            try db.execute(sql: "INSERT INTO book(rowid, title) VALUES (1, 'Moby Dick'), (2, 'Dick Tracy')")
            let ids = try Int64.fetchAll(
                db, sql: "SELECT rowid FROM book WHERE book MATCH ? ORDER BY rowid",
                arguments: [FTS3Pattern(matchingPhrase: "moby-dick")])
            #expect(ids == [1])
        }
    }
}
