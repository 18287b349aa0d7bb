import CSQLCipher
import Foundation
import Testing
@testable import GRDBCipher

/// `db.makeTokenizer(_:)` and `FTS5.api(_:)`: SQLite's FTS5 tokenizers,
/// called from Swift (Compat/.transcripts/grdb/fts5-tokenize-patterns.txt).
@Suite struct FTS5TokenizerTests {
    private static let document = "SQLite databases, Gustave Doré e-mail JÉRÔME"
    private static let query = "Frustrated élégance"

    /// The document tokens as `token/flags`, and the query tokens.
    private func tokens(_ descriptor: FTS5TokenizerDescriptor) throws -> ([String], [String]) {
        try inMemoryDatabase { db throws in
            let tokenizer = try db.makeTokenizer(descriptor)
            let document = try tokenizer.tokenize(document: Self.document)
            let query = try tokenizer.tokenize(query: Self.query)
            return (document.map { "\($0.token)/\($0.flags.rawValue)" }, query.map(\.token))
        }
    }

    @Test func ascii() throws {
        let (document, query) = try tokens(.ascii())
        #expect(document == ["sqlite/0", "databases/0", "gustave/0", "doré/0", "e/0", "mail/0", "jÉrÔme/0"],
                "ascii folds ASCII letters only")
        #expect(query == ["frustrated", "élégance"])
    }

    @Test func unicode61() throws {
        let (document, query) = try tokens(.unicode61())
        #expect(document == ["sqlite/0", "databases/0", "gustave/0", "dore/0", "e/0", "mail/0", "jerome/0"])
        #expect(query == ["frustrated", "elegance"])
    }

    @Test func porterWrapsUnicode61ByDefault() throws {
        let (document, query) = try tokens(.porter())
        #expect(document == ["sqlite/0", "databas/0", "gustav/0", "dore/0", "e/0", "mail/0", "jerom/0"])
        #expect(query == ["frustrat", "eleg"])
    }

    @Test func porterWrappingAscii() throws {
        let (document, query) = try tokens(.porter(wrapping: .ascii()))
        #expect(document == ["sqlite/0", "databas/0", "gustav/0", "doré/0", "e/0", "mail/0", "jÉrÔme/0"])
        #expect(query == ["frustrat", "éléganc"])
    }

    @Test func unicode61KeepingDiacritics() throws {
        let (document, query) = try tokens(.unicode61(diacritics: .keep))
        #expect(document == ["sqlite/0", "databases/0", "gustave/0", "doré/0", "e/0", "mail/0", "jérôme/0"])
        #expect(query == ["frustrated", "élégance"])
    }

    @Test func unicode61RemovingAllDiacritics() throws {
        let (legacy, all) = try inMemoryDatabase { db throws in
            (try db.makeTokenizer(.unicode61()).tokenize(document: "Doré ấ ǖ").map(\.token),
             try db.makeTokenizer(.unicode61(diacritics: .remove)).tokenize(document: "Doré ấ ǖ").map(\.token))
        }
        #expect(legacy == ["dore", "ấ", "ǖ"], "remove_diacritics 1 keeps stacked diacritics")
        #expect(all == ["dore", "a", "u"], "remove_diacritics 2 removes them")
    }

    @Test func unicode61TokenCharacters() throws {
        let (document, _) = try tokens(.unicode61(tokenCharacters: ["-"]))
        #expect(document == ["sqlite/0", "databases/0", "gustave/0", "dore/0", "e-mail/0", "jerome/0"])
    }

    @Test func asciiSeparators() throws {
        let tokens = try inMemoryDatabase { db throws in
            try db.makeTokenizer(.ascii(separators: ["x"])).tokenize(document: "fooxbar baz").map(\.token)
        }
        #expect(tokens == ["foo", "bar", "baz"])
    }

    @Test func emptyStringHasNoToken() throws {
        let tokens = try inMemoryDatabase { db throws in
            try db.makeTokenizer(.unicode61()).tokenize(document: "")
        }
        #expect(tokens.isEmpty)
    }

    @Test func unknownTokenizerThrows() throws {
        try inMemoryDatabase { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["nope"]))
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.sql == nil)
        }
    }

    @Test func badTokenizerArgumentThrows() throws {
        try inMemoryDatabase { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["ascii", "wrong"]))
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "failed fts5_tokenizer.xCreate", "as GRDB words it")
            #expect(error?.sql == nil)
        }
    }

    @Test func tokenizerMadeRepeatedlyIsReleased() throws {
        try inMemoryDatabase { db throws in
            weak var first: AnyObject?
            for _ in 0..<2_000 {
                let tokenizer = try db.makeTokenizer(.porter(wrapping: .unicode61(diacritics: .keep)))
                if first == nil { first = tokenizer }
                #expect(try tokenizer.tokenize(query: "databases").map(\.token) == ["databas"])
            }
            #expect(first == nil, "a tokenizer goes away with its last reference (and deletes its SQLite instance)")
        }
    }

    @Test func apiIsTheSameForTheConnection() throws {
        try inMemoryDatabase { db throws in
            let api = FTS5.api(db)
            #expect(api == FTS5.api(db), "fts5() gives the connection's one fts5_api")
            #expect(api.pointee.iVersion >= 2, "a real fts5_api: SQLite's versions start at 2")
            #expect(api.pointee.xFindTokenizer != nil)
        }
    }

    @Test func apiLeavesNoStatementBehind() throws {
        try inMemoryDatabase { db throws in
            _ = FTS5.api(db)
            _ = FTS5.api(db)
            var leftovers: [String] = []
            var statement = sqlite3_next_stmt(db.sqliteConnection, nil)
            while let current = statement {
                let sql = String(cString: sqlite3_sql(current))
                if sql.contains("fts5(") { leftovers.append(sql) }
                statement = sqlite3_next_stmt(db.sqliteConnection, current)
            }
            #expect(leftovers == [], "the statement that asks for the api is finalized: none would keep the connection busy")
        }
    }

    @Test func flagsHaveSQLiteValues() {
        // Tokenizers written against SQLite's C interface see these values.
        #expect(FTS5Tokenization.query.rawValue == 0x0001)
        #expect(FTS5Tokenization.prefix.rawValue == 0x0002)
        #expect(FTS5Tokenization.document.rawValue == 0x0004)
        #expect(FTS5Tokenization.aux.rawValue == 0x0008)
        #expect(FTS5TokenFlags.colocated.rawValue == 0x0001)
    }

    @Test func tokenizerOutlivesTheStatementsOfItsConnection() throws {
        let dbQueue = try DatabaseQueue()
        let tokenizer = try dbQueue.inDatabase { db throws in try db.makeTokenizer(.porter()) }
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE VIRTUAL TABLE t USING fts5(a)")
        }
        #expect(try tokenizer.tokenize(document: "running runners").map(\.token) == ["run", "runner"],
                "a tokenizer keeps working outside the access that made it, while its connection is open")
    }
}
