import Foundation
import Testing
@testable import GRDBCipher

/// Indexes "first" and "1st" as synonyms; queries are left alone.
private final class SynonymTokenizer: FTS5WrapperTokenizer {
    static let name = "test_synonyms"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        try tokenCallback(token, flags)
        guard tokenization.contains(.document) else { return }
        if token == "first" { try tokenCallback("1st", flags.union(.colocated)) }
        if token == "1st" { try tokenCallback("first", flags.union(.colocated)) }
    }
}

/// Drops stop words; refuses any argument.
private final class StopWordsTokenizer: FTS5WrapperTokenizer {
    static let name = "test_stopwords"
    nonisolated(unsafe) static var liveCount = 0
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        guard arguments.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "no argument expected")
        }
        wrappedTokenizer = try db.makeTokenizer(.ascii())
        Self.liveCount += 1
    }

    deinit { Self.liveCount -= 1 }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        if ["the", "a"].contains(token) { return }
        try tokenCallback(token, flags)
    }
}

/// Fails on a given token, to check that its error stops the statement.
private final class FailingTokenizer: FTS5WrapperTokenizer {
    static let name = "test_failing"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.ascii())
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        if token == "boom" { throw DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "boom") }
        try tokenCallback(token, flags)
    }
}

@Suite(.serialized) struct FTS5CustomTokenizerTests {
    private func makeQueue(_ dir: TemporaryDirectory) throws -> DatabaseQueue {
        var config = keyed("custom tokenizer secret")
        config.prepareDatabase { db in
            db.add(tokenizer: SynonymTokenizer.self)
            db.add(tokenizer: StopWordsTokenizer.self)
            db.add(tokenizer: FailingTokenizer.self)
        }
        return try DatabaseQueue(path: dir.path("db.sqlite"), configuration: config)
    }

    @Test func theDescriptorNamesTheTokenizerAndItsArguments() {
        #expect(SynonymTokenizer.tokenizerDescriptor().components == ["test_synonyms"])
        #expect(SynonymTokenizer.tokenizerDescriptor(arguments: ["a", "b"]).components == ["test_synonyms", "a", "b"])
    }

    @Test func synonymsMatchEachOther() throws {
        let dir = try TemporaryDirectory()
        try makeQueue(dir).write { db throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = SynonymTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            #expect(try storedSQL(db, "doc") == #"CREATE VIRTUAL TABLE "doc" USING fts5(content, tokenize='''test_synonyms''')"#)
            try db.execute(sql: "INSERT INTO doc VALUES ('the first day'), ('the 1st night'), ('a second day')")
            #expect(try matchingRowIDs(db, "doc", "first") == [1, 2])
            #expect(try matchingRowIDs(db, "doc", "1st") == [1, 2])
            #expect(try matchingRowIDs(db, "doc", "second") == [3])
            let tokens = try db.makeTokenizer(SynonymTokenizer.tokenizerDescriptor()).tokenize(document: "First Day")
            #expect(tokens.map(\.token) == ["first", "1st", "day"])
            #expect(tokens.map(\.flags) == [[], .colocated, []])
        }
    }

    @Test func droppedTokensAreNeitherIndexedNorSearched() throws {
        let dir = try TemporaryDirectory()
        try makeQueue(dir).write { db throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = StopWordsTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO doc VALUES ('the first day'), ('a second day')")
            #expect(try matchingRowIDs(db, "doc", "the") == [])
            #expect(try matchingRowIDs(db, "doc", "day") == [1, 2])
            #expect(try db.makeTokenizer(StopWordsTokenizer.tokenizerDescriptor()).tokenize(query: "The Day").map(\.token) == ["day"])
        }
    }

    @Test func aTokenizerThatRefusesItsArgumentsFailsTheStatement() throws {
        let dir = try TemporaryDirectory()
        try makeQueue(dir).write { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "doc", using: FTS5()) { t in
                    t.tokenizer = StopWordsTokenizer.tokenizerDescriptor(arguments: ["nope"])
                    t.column("content")
                }
            }
            #expect(error?.resultCode == .SQLITE_MISUSE, "the tokenizer's own error code")
            #expect(error?.message == "error in tokenizer constructor")
            #expect(try tableNames(db, prefix: "doc") == [], "nothing left behind")
        }
    }

    @Test func anErrorInAcceptStopsTheStatement() throws {
        let dir = try TemporaryDirectory()
        try makeQueue(dir).write { db throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = FailingTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO doc VALUES ('fine words')")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO doc VALUES ('it goes boom here')")
            }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            // The tokenization stopped at "boom": what follows is not indexed.
            // (FTS5 keeps what it wrote before the failure, until the
            // transaction rolls back: SQLite's behaviour, GRDB's too.)
            #expect(try matchingRowIDs(db, "doc", "here") == [])
            #expect(try matchingRowIDs(db, "doc", "fine") == [1])
        }
    }

    @Test func tokenizersAreReleasedWithTheirConnection() throws {
        let dir = try TemporaryDirectory()
        let before = StopWordsTokenizer.liveCount
        do {
            let dbQueue = try makeQueue(dir)
            try dbQueue.write { db throws in
                try db.create(virtualTable: "doc", using: FTS5()) { t in
                    t.tokenizer = StopWordsTokenizer.tokenizerDescriptor()
                    t.column("content")
                }
                try db.execute(sql: "INSERT INTO doc VALUES ('a day')")
                _ = try db.makeTokenizer(StopWordsTokenizer.tokenizerDescriptor()).tokenize(query: "day")
            }
            #expect(StopWordsTokenizer.liveCount > before, "the table's tokenizer is alive while the connection is")
        }
        #expect(StopWordsTokenizer.liveCount == before, "SQLite deleted every instance when the connection closed")
    }

    @Test func aPoolReaderUsesTheTokenizerRegisteredInPrepareDatabase() throws {
        let dir = try TemporaryDirectory()
        var config = keyed("custom tokenizer secret")
        config.prepareDatabase { db in db.add(tokenizer: SynonymTokenizer.self) }
        let dbPool = try DatabasePool(path: dir.path("pool.sqlite"), configuration: config)
        try dbPool.write { db throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = SynonymTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO doc VALUES ('the first day')")
        }
        try dbPool.read { db throws in #expect(try matchingRowIDs(db, "doc", "1st") == [1]) }
    }
}

@Suite struct FullTextReadmeTests {
    @Test func theReadmeExampleFindsTheMostRelevantBooksFirst() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: keyed("readme fts"))
        try dbQueue.write { db throws in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
                t.column("body", .text).notNull()
            }
            try db.execute(sql: """
                INSERT INTO book (title, body) VALUES
                  ('Cooking', 'Recipes without any database'),
                  ('Encrypted databases', 'An encrypted database keeps encrypted databases encrypted'),
                  ('Plain', 'Encrypted notes about one database');
                """)
            try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                t.synchronize(withTable: "book")
                t.tokenizer = .porter()
                t.column("title")
                t.column("body")
            }
            let pattern = FTS5Pattern(matchingAllTokensIn: "encrypted databases")
            let statements = LockedValue<[String]>([])
            db.trace { event in
                if case .statement(let statement) = event { statements.withLock { $0.append(statement.sql) } }
            }
            let rows = try Table("book_ft").all().matching(pattern).order(Column.rank).fetchAll(db)
            db.trace(nil)
            #expect(statements.withLock { $0 }.first == #"SELECT * FROM "book_ft" WHERE "book_ft" MATCH ? ORDER BY "rank""#)
            #expect(rows.map { $0["title"] as String } == ["Encrypted databases", "Plain"])
        }
    }
}
