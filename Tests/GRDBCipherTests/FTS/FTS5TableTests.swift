import Foundation
import Testing
@testable import GRDBCipher

/// `CREATE VIRTUAL TABLE ... USING fts5(...)` and its options: the SQL
/// GRDB 7.10 writes (Compat/.transcripts/grdb/fts5-tables.txt), where
/// strings are SQL literals and the tokenizer is a literal of literals.
@Suite struct FTS5TableTests {
    @Test func plainTable() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "document", using: FTS5()) { t in
                    t.column("content")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "document" USING fts5(content)"#])
        }
    }

    @Test func porterTokenizerIsALiteralOfALiteral() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "t1", using: FTS5()) { t in
                    t.tokenizer = .porter()
                    t.column("a")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "t1" USING fts5(a, tokenize='''porter''')"#])
        }
    }

    @Test func porterWrappingAsciiWithSortedCharacters() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "t2", using: FTS5()) { t in
                    t.tokenizer = .porter(wrapping: .ascii(separators: ["X", "'"], tokenCharacters: ["."]))
                    t.column("a")
                }
            }
            #expect(sql == [
                #"CREATE VIRTUAL TABLE "t2" USING fts5(a, tokenize='''porter'' ''ascii'' ''separators'' ''''''X'' ''tokenchars'' ''.''')"#,
            ], "each component is quoted, then the whole: a quote in a separator is doubled twice")
        }
    }

    @Test func unicode61WithAllOptions() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "t3", using: FTS5()) { t in
                    t.tokenizer = .unicode61(diacritics: .keep, categories: "L* N* Co", separators: ["-"], tokenCharacters: ["_"])
                    t.column("a")
                }
            }
            #expect(sql == [
                #"CREATE VIRTUAL TABLE "t3" USING fts5(a, tokenize='''unicode61'' ''remove_diacritics'' ''0'' "#
                    + #"''categories'' ''L* N* Co'' ''separators'' ''-'' ''tokenchars'' ''_''')"#,
            ])
        }
    }

    @Test func unicode61RemovingAllDiacritics() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "t4", using: FTS5()) { t in
                    t.tokenizer = .unicode61(diacritics: .remove)
                    t.column("a")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "t4" USING fts5(a, tokenize='''unicode61'' ''remove_diacritics'' ''2''')"#])
        }
    }

    @Test func unicode61WithDefaultsIsTheNameAlone() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "t", using: FTS5()) { t in
                    t.tokenizer = .unicode61()
                    t.column("a")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "t" USING fts5(a, tokenize='''unicode61''')"#])
        }
    }

    @Test func asciiSeparatorThatIsAQuote() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "q5", using: FTS5()) { t in
                    t.tokenizer = .ascii(separators: ["'"])
                    t.column("a")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "q5" USING fts5(a, tokenize='''ascii'' ''separators'' ''''''''')"#])
            try db.execute(sql: "INSERT INTO q5(rowid, a) VALUES (1, 'rock''n''roll')")
            #expect(try matchingRowIDs(db, "q5", "roll") == [1], "SQLite read the quote as a separator")
        }
    }

    @Test func customTokenizerDescriptor() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "t5", using: FTS5()) { t in
                    t.tokenizer = FTS5TokenizerDescriptor(components: ["trigram", "case_sensitive", "1"])
                    t.column("a")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "t5" USING fts5(a, tokenize='''trigram'' ''case_sensitive'' ''1''')"#])
            try db.execute(sql: "INSERT INTO t5(rowid, a) VALUES (1, 'Encrypted'), (2, 'encrypted')")
            #expect(try matchingRowIDs(db, "t5", "crypt") == [1, 2], "trigrams match inside words")
            #expect(try matchingRowIDs(db, "t5", "Encr") == [1], "case_sensitive 1 reached the tokenizer")
        }
    }

    @Test func allOptionsInGRDBOrder() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(table: "source") { t in
                t.primaryKey("id", .integer)
                t.column("content", .text)
                t.column("uuid", .text)
            }
            let sql = try virtualTableStatements(db) {
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
            #expect(sql == [
                #"CREATE VIRTUAL TABLE "doc5" USING fts5(content, uuid UNINDEXED, content='source', "#
                    + #"content_rowid='id', prefix='2 4', columnSize=0, detail=column)"#,
            ])
            #expect(try triggerNames(db) == [], "a raw content option creates no synchronization trigger")
        }
    }

    @Test func prefixesAreSortedAsNumbers() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "p", using: FTS5()) { t in
                    t.prefixes = [10, 2, 3]
                    t.column("a")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "p" USING fts5(a, prefix='2 3 10')"#])
        }
    }

    @Test func contentlessTable() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "c5", options: [.ifNotExists], using: FTS5()) { t in
                    t.content = ""
                    t.column("a")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE IF NOT EXISTS "c5" USING fts5(a, content='')"#])
            try db.execute(sql: "INSERT INTO c5(rowid, a) VALUES (3, 'hello')")
            #expect(try matchingRowIDs(db, "c5", "hello") == [3])
            #expect(try String.fetchOne(db, sql: "SELECT a FROM c5") == nil, "a contentless table stores no text")
        }
    }

    @Test func unindexedColumnIsStoredButNotSearchable() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.column("content")
                t.column("uuid").notIndexed()
            }
            try db.execute(sql: "INSERT INTO doc(rowid, content, uuid) VALUES (1, 'hello', 'zebra')")
            #expect(try matchingRowIDs(db, "doc", "hello") == [1])
            #expect(try matchingRowIDs(db, "doc", "zebra") == [], "an UNINDEXED column is not in the index")
            #expect(try String.fetchOne(db, sql: "SELECT uuid FROM doc") == "zebra")
        }
    }

    @Test func settingContentRowIDUndoesSynchronization() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(table: "source") { t in
                t.primaryKey("id", .integer)
                t.column("content", .text)
            }
            var seen: [String?] = []
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "x5", using: FTS5()) { t in
                    t.synchronize(withTable: "source")
                    seen.append(t.content)
                    seen.append(t.contentRowID)
                    t.contentRowID = "id"
                    seen.append(t.content)
                    seen.append(t.contentRowID)
                    t.column("content")
                }
            }
            #expect(seen == ["source", nil, nil, "id"], "as in GRDB: the synchronized content goes with the synchronization")
            #expect(sql == [#"CREATE VIRTUAL TABLE "x5" USING fts5(content, content_rowid='id')"#])
            #expect(try triggerNames(db) == [])
        }
    }

    @Test func settingContentUndoesSynchronization() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(table: "source") { t in
                t.primaryKey("id", .integer)
                t.column("content", .text)
            }
            var seen: [String?] = []
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "x5", using: FTS5()) { t in
                    t.synchronize(withTable: "source")
                    t.content = "source"
                    seen.append(t.content)
                    seen.append(t.contentRowID)
                    t.column("content")
                }
            }
            #expect(seen == ["source", nil])
            #expect(sql == [#"CREATE VIRTUAL TABLE "x5" USING fts5(content, content='source')"#],
                    "a raw content option has no content_rowid unless it is set")
            #expect(try triggerNames(db) == [])
        }
    }

    @Test func tableWithoutColumnTraps() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try? DatabaseQueue()
            try? dbQueue?.inDatabase { db throws in
                try db.create(virtualTable: "empty", using: FTS5()) { _ in }
            }
            // Not reached when the precondition traps.
            exit(0)
        }
    }
}
