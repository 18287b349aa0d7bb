import Foundation
import Testing
@testable import GRDBCipher

/// `CREATE VIRTUAL TABLE ... USING fts4(...)` and its options: the SQL
/// GRDB 7.10 writes (Compat/.transcripts/grdb/fts3-fts4-tables.txt), and
/// what the options do.
@Suite struct FTS4TableTests {
    @Test func plainTable() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "book", using: FTS4()) { t in
                    t.column("title")
                    t.column("author")
                    t.column("body")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "book" USING fts4(title, author, body)"#])
        }
    }

    @Test func allOptionsInGRDBOrder() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
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
            #expect(sql == [
                #"CREATE VIRTUAL TABLE "doc4" USING fts4(content, uuid, notindexed=uuid, languageid="lid", "#
                    + #"content="", compress="zip", uncompress="unzip", matchinfo="fts3", prefix="2,4")"#,
            ], "columns first (notindexed after its column), then the options; prefixes sorted")
        }
    }

    @Test func tokenizerComesBeforeTheContentOption() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "ft", using: FTS4()) { t in
                    t.content = "source"
                    t.tokenizer = .unicode61(diacritics: .keep)
                    t.column("a")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "ft" USING fts4(a, tokenize=unicode61 "remove_diacritics=0", content="source")"#])
        }
    }

    @Test func prefixesAreSortedWhateverTheirInsertionOrder() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "p", using: FTS4()) { t in
                    t.prefixes = [9, 3, 1, 12]
                    t.column("a")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "p" USING fts4(a, prefix="1,3,9,12")"#],
                    "prefix lengths are sorted as numbers, not as strings")
        }
    }

    @Test func notIndexedColumnIsStoredButNotSearchable() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(virtualTable: "doc", using: FTS4()) { t in
                t.column("content")
                t.column("uuid").notIndexed()
            }
            try db.execute(sql: "INSERT INTO doc(rowid, content, uuid) VALUES (1, 'hello', 'zebra')")
            #expect(try matchingRowIDs(db, "doc", "hello") == [1])
            #expect(try matchingRowIDs(db, "doc", "zebra") == [], "a notindexed column is not in the index")
            #expect(try String.fetchOne(db, sql: "SELECT uuid FROM doc") == "zebra", "but its value is stored")
        }
    }

    @Test func languageIdColumnSelectsTheLanguageOfMatches() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(virtualTable: "doc", using: FTS4()) { t in
                t.column("content")
                t.column("lid").asLanguageId()
            }
            try db.execute(sql: "INSERT INTO doc(rowid, content, lid) VALUES (1, 'hello', 0), (2, 'hello', 1)")
            #expect(try Int64.fetchAll(db, sql: "SELECT rowid FROM doc WHERE doc MATCH 'hello' AND lid = 1") == [2],
                    "the languageid column selects the language of each row")
            #expect(try matchingRowIDs(db, "doc", "hello") == [1],
                    "without a languageid constraint, only language 0 is searched")
        }
    }

    @Test func matchinfoFTS3StoresNoDocumentSizes() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(virtualTable: "compact", using: FTS4()) { t in
                t.matchinfo = "fts3"
                t.column("content")
            }
            try db.create(virtualTable: "regular", using: FTS4()) { t in
                t.column("content")
            }
            #expect(try tableNames(db, prefix: "compact_").contains("compact_docsize") == false,
                    "with matchinfo=fts3, FTS4 keeps no %_docsize table, as FTS3")
            #expect(try tableNames(db, prefix: "regular_").contains("regular_docsize"))
        }
    }

    @Test func contentlessTableIndexesWithoutStoringText() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(virtualTable: "doc", using: FTS4()) { t in
                t.content = ""
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO doc(docid, content) VALUES (7, 'hello')")
            #expect(try matchingRowIDs(db, "doc", "hello") == [7])
            #expect(throws: DatabaseError.self, "a contentless table has no text to give") {
                try String.fetchOne(db, sql: "SELECT content FROM doc")
            }
        }
    }
}
