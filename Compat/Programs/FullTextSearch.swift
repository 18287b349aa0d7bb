#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

private struct FTBook: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "book"
    var author: String
    var title: String
    var body: String
}

private struct FTDocument: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "document"
    var id: Int64?
    var title: String
    var content: String
}

let fullTextPrograms: [Program] = [
    Program("fts3-fts4-tables") {
        let dbQueue = try makeFullTextQueue()
        try dbQueue.write { db in
            step("fts3 plain") {
                try db.create(virtualTable: "document", using: FTS3()) { t in t.column("content") }
            }
            step("fts3 porter") {
                try db.create(virtualTable: "book3", using: FTS3()) { t in
                    t.tokenizer = .porter
                    t.column("author")
                    t.column("title")
                    t.column("body")
                }
            }
            step("fts3 unicode61 options") {
                try db.create(virtualTable: "u1", using: FTS3()) { t in
                    t.tokenizer = .unicode61(diacritics: .keep, separators: ["X", "-"], tokenCharacters: [".", "#"])
                    t.column("a")
                }
                try db.create(virtualTable: "u2", using: FTS3()) { t in
                    t.tokenizer = .unicode61(diacritics: .remove)
                    t.column("a")
                }
                try db.create(virtualTable: "u3", using: FTS3()) { t in
                    t.tokenizer = .unicode61()
                    t.column("a")
                }
            }
            step("fts3 no body") {
                try db.create(virtualTable: "nobody", using: FTS3())
            }
            step("fts4 options") {
                try db.create(virtualTable: "doc4", using: FTS4()) { t in
                    t.content = ""
                    t.compress = "zip"
                    t.uncompress = "unzip"
                    t.prefixes = [4, 2]
                    t.matchinfo = "fts3"
                    t.column("content")
                    t.column("uuid").notIndexed()
                    t.column("lid").asLanguageId()
                }
            }
            step("options") {
                try db.create(virtualTable: "opt", options: [.ifNotExists], using: FTS4()) { t in t.column("a") }
                try db.create(virtualTable: "opt", options: [.ifNotExists], using: FTS4()) { t in t.column("a") }
                try db.create(virtualTable: "opt2", ifNotExists: true, using: FTS4()) { t in t.column("a") }
                try db.create(virtualTable: "tmp4", options: [.temporary], using: FTS4()) { t in t.column("a") }
            }
            step("module string") {
                try db.create(virtualTable: "vocab", using: "fts4aux(doc4)")
                try db.create(virtualTable: "vocab", options: .ifNotExists, using: "fts4aux(doc4)")
            }
            step("existing table") {
                try db.create(virtualTable: "document", using: FTS3()) { t in t.column("content") }
            }
            step("schema") {
                try quietly {
                    try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE '%_segdir' AND name NOT LIKE '%_segments' AND name NOT LIKE '%_content' AND name NOT LIKE '%_docsize' AND name NOT LIKE '%_stat' ORDER BY name")
                        .map { "\($0)" }
                }
            }
        }
    },
    Program("fts3-tokenize-patterns") {
        step("tokenize simple") { try FTS3.tokenize("SQLite database, Gustave Doré!") }
        step("tokenize porter") { try FTS3.tokenize("SQLite databases frustrated", withTokenizer: .porter) }
        step("tokenize unicode61") { try FTS3.tokenize("Gustave Doré JÉRÔME", withTokenizer: .unicode61()) }
        step("tokenize unicode61 keep") { try FTS3.tokenize("Gustave Doré", withTokenizer: .unicode61(diacritics: .keep)) }
        step("tokenize tokenchars") { try FTS3.tokenize("e-mail a.b", withTokenizer: .unicode61(tokenCharacters: ["-"])) }
        step("tokenize empty") { try FTS3.tokenize("") }
        step("raw valid") { try FTS3Pattern(rawPattern: "sqlite AND database").rawPattern }
        step("raw invalid AND") { try FTS3Pattern(rawPattern: "AND").rawPattern }
        step("raw invalid quote") { try FTS3Pattern(rawPattern: "\"foo").rawPattern }
        step("raw invalid paren") { try FTS3Pattern(rawPattern: "(foo").rawPattern }
        for input in ["SQLite database", "", "*", "  ", "Moby-Dick AND \"whale\" OR NOT", "data*", "Élégance"] {
            step("any \(input.debugDescription)") { FTS3Pattern(matchingAnyTokenIn: input)?.rawPattern }
            step("all \(input.debugDescription)") { FTS3Pattern(matchingAllTokensIn: input)?.rawPattern }
            step("prefixes \(input.debugDescription)") { FTS3Pattern(matchingAllPrefixesIn: input)?.rawPattern }
            step("phrase \(input.debugDescription)") { FTS3Pattern(matchingPhrase: input)?.rawPattern }
        }
        step("from database value") {
            [FTS3Pattern.fromDatabaseValue("foo bar".databaseValue)?.rawPattern,
             FTS3Pattern.fromDatabaseValue("AND".databaseValue)?.rawPattern,
             FTS3Pattern.fromDatabaseValue(1.databaseValue)?.rawPattern]
        }
        step("database value") { FTS3Pattern(matchingPhrase: "a b")!.databaseValue }
    },
    Program("fts4-matching") {
        let dbQueue = try makeFullTextQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "book", using: FTS4()) { t in
                t.tokenizer = .porter
                t.column("author")
                t.column("title")
                t.column("body")
            }
            try FTBook(author: "Herman Melville", title: "Moby-Dick", body: "Call me Ishmael. Whales and databases.").insert(db)
            try FTBook(author: "Jules Verne", title: "Vingt mille lieues sous les mers", body: "Nautilus").insert(db)
            try FTBook(author: "Marcel Proust", title: "Du côté de chez Swann", body: "Longtemps, je me suis couché de bonne heure").insert(db)
            step("matching") {
                try FTBook.matching(FTS3Pattern(matchingPhrase: "Moby-Dick")).fetchAll(db).map(\.title)
            }
            step("matching stem") {
                try FTBook.matching(FTS3Pattern(matchingAllTokensIn: "whale database")).fetchAll(db).map(\.title)
            }
            step("matching nil") {
                try FTBook.matching(FTS3Pattern(matchingAnyTokenIn: "")).fetchAll(db).map(\.title)
            }
            step("matching count") {
                try FTBook.matching(FTS3Pattern(matchingAnyTokenIn: "Nautilus Swann")).fetchCount(db)
            }
            step("request matching chained") {
                try FTBook.filter(Column("author") != "x").matching(FTS3Pattern(matchingAllPrefixesIn: "verne jul")).order(Column("title")).fetchAll(db).map(\.title)
            }
            step("aliased (SQLite refuses an alias before MATCH)") {
                let alias = TableAlias(name: "b")
                do {
                    return try FTBook.aliased(alias).matching(FTS3Pattern(matchingAnyTokenIn: "moby")).fetchCount(db).description
                } catch let error as DatabaseError {
                    // SQLite's message differs between versions.
                    return "\(error.resultCode): \(error.sql ?? "")"
                }
            }
            step("table matching") {
                try Table("book").all().matching(FTS3Pattern(matchingAnyTokenIn: "proust")).fetchCount(db)
            }
            step("column match") {
                try FTBook.filter(Column("title").match(FTS3Pattern(matchingAnyTokenIn: "moby"))).fetchAll(db).map(\.title)
            }
            step("column match nil") {
                try FTBook.filter(Column("title").match(nil)).fetchAll(db).map(\.title)
            }
            step("column match negated") {
                try FTBook.filter(!Column("title").match(FTS3Pattern(matchingAnyTokenIn: "moby"))).fetchCount(db)
            }
            step("sql argument") {
                try FTBook.fetchAll(db, sql: "SELECT * FROM book WHERE book MATCH ?", arguments: [FTS3Pattern(matchingAnyTokenIn: "ishmael")]).map(\.title)
            }
            step("snippet") {
                try String.fetchAll(db, sql: "SELECT snippet(book) FROM book WHERE book MATCH ?", arguments: ["nautilus"])
            }
            step("record exists") {
                try FTBook.matching(FTS3Pattern(matchingAnyTokenIn: "swann")).isEmpty(db)
            }
        }
    },
    Program("fts4-synchronized") {
        let dbQueue = try makeFullTextQueue()
        try dbQueue.write { db in
            try db.create(table: "document") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
                t.column("content", .text)
            }
            try FTDocument(id: nil, title: "First", content: "SQLite is a database").insert(db)
            step("create synchronized") {
                try db.create(virtualTable: "document_ft", using: FTS4()) { t in
                    t.synchronize(withTable: "document")
                    t.tokenizer = .porter
                    t.column("title")
                    t.column("content")
                }
            }
            step("content") {
                var t: FTS4TableDefinition?
                try db.create(virtualTable: "probe", options: .temporary, using: FTS4()) { d in
                    t = d
                    d.synchronize(withTable: "document")
                    d.content = nil
                    d.column("x")
                }
                return t?.content
            }
            step("schema") {
                try quietly {
                    try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master WHERE name LIKE '%document%' AND sql IS NOT NULL AND name NOT LIKE 'document_ft_%' ORDER BY name").map { "\($0)" }
                }
            }
            step("indexed existing") {
                try Row.fetchAll(db, sql: "SELECT rowid, * FROM document_ft WHERE document_ft MATCH 'database'")
            }
            step("insert update delete") {
                try FTDocument(id: nil, title: "Second", content: "Swift databases").insert(db)
                try db.execute(sql: "UPDATE document SET content = 'nothing here' WHERE id = 1")
                let afterUpdate = try Row.fetchAll(db, sql: "SELECT rowid, * FROM document_ft WHERE document_ft MATCH 'database'")
                try db.execute(sql: "DELETE FROM document WHERE id = 2")
                let afterDelete = try Row.fetchAll(db, sql: "SELECT rowid, * FROM document_ft WHERE document_ft MATCH 'database'")
                return "\(afterUpdate) / \(afterDelete)"
            }
            step("drop triggers") {
                try db.drop(table: "document_ft")
                try db.dropFTS4SynchronizationTriggers(forTable: "document_ft")
                try FTDocument(id: nil, title: "Third", content: "after drop").insert(db)
                return try quietly { try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger'") }
            }
            step("synchronize with missing table") {
                try db.create(virtualTable: "missing_ft", using: FTS4()) { t in
                    t.synchronize(withTable: "missing")
                    t.column("a")
                }
            }
            step("after failure, in sqlite_master") {
                try quietly { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name = 'missing_ft'") }
            }
        }
    },
    Program("fts5-tables") {
        let dbQueue = try makeFullTextQueue()
        try dbQueue.write { db in
            step("fts5 plain") {
                try db.create(virtualTable: "document", using: FTS5()) { t in t.column("content") }
            }
            step("fts5 tokenizers") {
                try db.create(virtualTable: "t1", using: FTS5()) { t in
                    t.tokenizer = .porter()
                    t.column("a")
                }
                try db.create(virtualTable: "t2", using: FTS5()) { t in
                    t.tokenizer = .porter(wrapping: .ascii(separators: ["'", "X"], tokenCharacters: ["."]))
                    t.column("a")
                }
                try db.create(virtualTable: "t3", using: FTS5()) { t in
                    t.tokenizer = .unicode61(diacritics: .keep, categories: "L* N* Co", separators: ["-"], tokenCharacters: ["_"])
                    t.column("a")
                }
                try db.create(virtualTable: "t4", using: FTS5()) { t in
                    t.tokenizer = .unicode61(diacritics: .remove)
                    t.column("a")
                }
                try db.create(virtualTable: "t5", using: FTS5()) { t in
                    t.tokenizer = FTS5TokenizerDescriptor(components: ["trigram", "case_sensitive", "1"])
                    t.column("a")
                }
            }
            step("fts5 options") {
                try db.create(table: "source") { t in
                    t.primaryKey("id", .integer)
                    t.column("content", .text)
                    t.column("uuid", .text)
                }
                try db.create(virtualTable: "doc5", using: FTS5()) { t in
                    t.column("content")
                    t.column("uuid").notIndexed()
                    t.content = "source"
                    t.contentRowID = "id"
                    t.prefixes = [4, 2]
                    t.columnSize = 0
                    t.detail = "column"
                }
            }
            step("fts5 contentless") {
                try db.create(virtualTable: "c5", options: [.ifNotExists], using: FTS5()) { t in
                    t.content = ""
                    t.column("a")
                }
            }
            step("fts5 quote in option") {
                try db.create(virtualTable: "q5", using: FTS5()) { t in
                    t.tokenizer = .ascii(separators: ["'"])
                    t.column("a")
                }
            }
            step("fts5 content then contentRowID") {
                var seen: [String?] = []
                try db.create(virtualTable: "x5", using: FTS5()) { t in
                    t.synchronize(withTable: "source")
                    seen.append(t.content)
                    seen.append(t.contentRowID)
                    t.contentRowID = "id"
                    seen.append(t.content)
                    seen.append(t.contentRowID)
                    t.column("content")
                }
                return seen
            }
            step("schema") {
                try quietly {
                    try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT GLOB '*_data' AND name NOT GLOB '*_idx' AND name NOT GLOB '*_content' AND name NOT GLOB '*_docsize' AND name NOT GLOB '*_config' ORDER BY name")
                        .map { "\($0)" }
                }
            }
        }
    },
    Program("fts5-tokenize-patterns") {
        let dbQueue = try makeFullTextQueue()
        try dbQueue.write { db in
            for descriptor in [FTS5TokenizerDescriptor.ascii(), .unicode61(), .porter(), .porter(wrapping: .ascii()), .unicode61(diacritics: .keep), .unicode61(tokenCharacters: ["-"])] {
                step("tokenize \(descriptor.components)") {
                    let tokenizer = try db.makeTokenizer(descriptor)
                    let document = try tokenizer.tokenize(document: "SQLite databases, Gustave Doré e-mail JÉRÔME")
                    let query = try tokenizer.tokenize(query: "Frustrated élégance")
                    return (document.map { "\($0.token)/\($0.flags.rawValue)" }, query.map(\.token))
                }
            }
            step("unknown tokenizer") { try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["nope"])) as AnyObject === nil }
            step("bad tokenizer argument") { try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["ascii", "wrong"])) as AnyObject === nil }
            for input in ["SQLite database", "", "*", "Moby-Dick AND \"whale\" OR NOT", "data*", "Élégance ÉLÉGANCE"] {
                step("any \(input.debugDescription)") { FTS5Pattern(matchingAnyTokenIn: input)?.rawPattern }
                step("all \(input.debugDescription)") { FTS5Pattern(matchingAllTokensIn: input)?.rawPattern }
                step("prefixes \(input.debugDescription)") { FTS5Pattern(matchingAllPrefixesIn: input)?.rawPattern }
                step("phrase \(input.debugDescription)") { FTS5Pattern(matchingPhrase: input)?.rawPattern }
                step("prefix phrase \(input.debugDescription)") { FTS5Pattern(matchingPrefixPhrase: input)?.rawPattern }
            }
            try db.create(virtualTable: "book", using: FTS5()) { t in
                t.column("title")
                t.column("body")
            }
            step("raw ok") { try db.makeFTS5Pattern(rawPattern: "sqlite", forTable: "book").rawPattern }
            step("raw column") { try db.makeFTS5Pattern(rawPattern: "title: sqlite", forTable: "book").rawPattern }
            step("raw AND") { try db.makeFTS5Pattern(rawPattern: "AND", forTable: "book").rawPattern }
            step("raw missing column") { try db.makeFTS5Pattern(rawPattern: "missing: sqlite", forTable: "book").rawPattern }
            step("raw missing table") { try db.makeFTS5Pattern(rawPattern: "sqlite", forTable: "nope").rawPattern }
            step("from database value") {
                [FTS5Pattern.fromDatabaseValue("foo bar".databaseValue)?.rawPattern,
                 FTS5Pattern.fromDatabaseValue("AND".databaseValue)?.rawPattern,
                 FTS5Pattern.fromDatabaseValue(DatabaseValue.null)?.rawPattern]
            }
        }
    },
    Program("fts5-matching-rank-synchronized") {
        let dbQueue = try makeFullTextQueue()
        try dbQueue.write { db in
            try db.create(table: "document") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
                t.column("content", .text)
            }
            try FTDocument(id: nil, title: "SQLite", content: "SQLite is a database engine, a database").insert(db)
            try FTDocument(id: nil, title: "Swift", content: "Swift talks to a database").insert(db)
            step("create synchronized") {
                try db.create(virtualTable: "document_ft", using: FTS5()) { t in
                    t.synchronize(withTable: "document")
                    t.tokenizer = .porter()
                    t.column("title")
                    t.column("content")
                }
            }
            step("schema") {
                try quietly {
                    try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master WHERE (name = 'document_ft' OR type = 'trigger') ORDER BY name").map { "\($0)" }
                }
            }
            step("matching rank") {
                try Table("document_ft").all().matching(FTS5Pattern(matchingAnyTokenIn: "database")).select(Column.rowID, Column("title")).order(Column.rank).fetchAll(db)
            }
            step("matching nil") {
                try Table("document_ft").all().matching(FTS5Pattern(matchingAnyTokenIn: "")).fetchCount(db)
            }
            step("column match") {
                try Table("document_ft").filter(Column("title").match(FTS5Pattern(matchingAnyTokenIn: "swift")!)).select(Column("title")).fetchAll(db)
            }
            step("join by rowid") {
                try FTDocument.fetchAll(db, sql: "SELECT document.* FROM document JOIN document_ft ON document_ft.rowid = document.rowid AND document_ft MATCH ?", arguments: [FTS5Pattern(matchingPhrase: "database engine")]).map(\.title)
            }
            step("sync writes") {
                try FTDocument(id: nil, title: "Third", content: "databases everywhere").insert(db)
                try db.execute(sql: "UPDATE document SET title = 'Renamed' WHERE id = 2")
                try db.execute(sql: "DELETE FROM document WHERE id = 1")
                return try Row.fetchAll(db, sql: "SELECT rowid, title FROM document_ft WHERE document_ft MATCH 'databas*' ORDER BY rowid")
            }
            step("drop") {
                try db.drop(table: "document_ft")
                try db.dropFTS5SynchronizationTriggers(forTable: "document_ft")
                try FTDocument(id: nil, title: "Fourth", content: "after drop").insert(db)
                return try quietly { try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger'") }
            }
            step("rank column") { Column.rank.name }
        }
    },
    Program("fts5-custom-tokenizers") {
        var config = harnessConfiguration()
        config.prepareDatabase { db in
            db.add(tokenizer: SynonymTokenizer.self)
            db.add(tokenizer: StopWordsTokenizer.self)
            db.add(tokenizer: ReversingTokenizer.self)
        }
        let dbQueue = try DatabaseQueue(path: temporaryDatabasePath(), configuration: config)
        try dbQueue.write { db in
            step("descriptor") { SynonymTokenizer.tokenizerDescriptor(arguments: ["porter", "ascii"]).components }
            step("create") {
                try db.create(virtualTable: "doc", using: FTS5()) { t in
                    t.tokenizer = SynonymTokenizer.tokenizerDescriptor()
                    t.column("content")
                }
                try db.create(virtualTable: "stop", using: FTS5()) { t in
                    t.tokenizer = StopWordsTokenizer.tokenizerDescriptor(arguments: ["ascii"])
                    t.column("content")
                }
                try db.create(virtualTable: "rev", using: FTS5()) { t in
                    t.tokenizer = ReversingTokenizer.tokenizerDescriptor()
                    t.column("content")
                }
                return try quietly { try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE name IN ('doc', 'stop', 'rev') ORDER BY name") }
            }
            try db.execute(sql: "INSERT INTO doc VALUES ('the first day'), ('the 1st night'), ('a second day')")
            try db.execute(sql: "INSERT INTO stop VALUES ('the first day'), ('a second day')")
            try db.execute(sql: "INSERT INTO rev VALUES ('hello world')")
            for query in ["first", "1st", "day", "second", "the"] {
                step("doc \(query)") { try String.fetchAll(db, sql: "SELECT content FROM doc WHERE doc MATCH ? ORDER BY rowid", arguments: [query]) }
                step("stop \(query)") { try String.fetchAll(db, sql: "SELECT content FROM stop WHERE stop MATCH ? ORDER BY rowid", arguments: [query]) }
            }
            step("rev") { try String.fetchAll(db, sql: "SELECT content FROM rev WHERE rev MATCH 'dlrow'") }
            step("rev highlight") { try String.fetchAll(db, sql: "SELECT highlight(rev, 0, '[', ']') FROM rev WHERE rev MATCH 'olleh'") }
            step("make custom") {
                let tokenizer = try db.makeTokenizer(SynonymTokenizer.tokenizerDescriptor())
                return try tokenizer.tokenize(document: "First Day").map { "\($0.token)/\($0.flags.rawValue)" }
            }
            step("make custom query") {
                let tokenizer = try db.makeTokenizer(StopWordsTokenizer.tokenizerDescriptor())
                return try tokenizer.tokenize(query: "The Day").map(\.token)
            }
            step("bad argument") {
                try db.create(virtualTable: "bad", using: FTS5()) { t in
                    t.tokenizer = StopWordsTokenizer.tokenizerDescriptor(arguments: ["nope"])
                    t.column("content")
                }
            }
            step("unknown") {
                try db.create(virtualTable: "bad2", using: FTS5()) { t in
                    t.tokenizer = FTS5TokenizerDescriptor(components: ["unregistered"])
                    t.column("content")
                }
            }
        }
    },
]

/// Emits "first" and "1st" as synonyms of each other.
private final class SynonymTokenizer: FTS5WrapperTokenizer {
    static let name = "synonyms"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(arguments.isEmpty ? .unicode61() : FTS5TokenizerDescriptor(components: arguments))
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        try tokenCallback(token, flags)
        if tokenization.contains(.query) { return }
        if token == "first" { try tokenCallback("1st", flags.union(.colocated)) }
        if token == "1st" { try tokenCallback("first", flags.union(.colocated)) }
    }
}

/// Drops "the" and "a"; its argument names the wrapped tokenizer, which must be ascii or unicode61.
private final class StopWordsTokenizer: FTS5WrapperTokenizer {
    static let name = "stopwords"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        guard arguments.count <= 1, ["ascii", "unicode61"].contains(arguments.first ?? "ascii") else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "bad stopwords argument")
        }
        wrappedTokenizer = try db.makeTokenizer(FTS5TokenizerDescriptor(components: [arguments.first ?? "ascii"]))
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        if ["the", "a"].contains(token) { return }
        try tokenCallback(token, flags)
    }
}

/// Indexes words reversed.
private final class ReversingTokenizer: FTS5WrapperTokenizer {
    static let name = "reversing"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.ascii())
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        try tokenCallback(String(token.reversed()), flags)
    }
}

/// A traced queue whose transcript leaves out the statements that SQLite runs inside its
/// full-text modules (`-- ...` lines): they depend on the SQLite version, not on the library.
private func makeFullTextQueue() throws -> DatabaseQueue {
    let dbQueue = try makeQueue(traced: false)
    dbQueue.inDatabase { db in
        db.trace { event in
            let sql = event.expandedDescription
            if tracePrints && !isIntrospection(sql) && !sql.hasPrefix("-- ") { out("SQL: \(sql)") }
        }
    }
    return dbQueue
}
