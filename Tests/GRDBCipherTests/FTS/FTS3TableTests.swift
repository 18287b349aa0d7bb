import Foundation
import Testing
@testable import GRDBCipher

/// `CREATE VIRTUAL TABLE ... USING fts3(...)`: the SQL GRDB 7.10 writes
/// (Compat/.transcripts/grdb/fts3-fts4-tables.txt), and a table that works.
@Suite struct FTS3TableTests {
    @Test func plainTable() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "document", using: FTS3()) { t in
                    t.column("content")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "document" USING fts3(content)"#])
            #expect(try storedSQL(db, "document") == #"CREATE VIRTUAL TABLE "document" USING fts3(content)"#,
                    "SQLite stores the statement as the library wrote it")
        }
    }

    @Test func tableWithoutBodyWritesTheModuleNameAlone() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "nobody", using: FTS3())
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "nobody" USING fts3"#],
                    "no column, no tokenizer: no parentheses, as GRDB writes it")
            // SQLite gives such a table its default column, "content".
            #expect(try columnNames(db, "nobody") == ["content"])
        }
    }

    @Test func porterTokenizerComesAfterTheColumns() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "book3", using: FTS3()) { t in
                    t.tokenizer = .porter
                    t.column("author")
                    t.column("title")
                    t.column("body")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "book3" USING fts3(author, title, body, tokenize=porter)"#])
        }
    }

    @Test func simpleTokenizerIsWrittenWhenSet() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "s", using: FTS3()) { t in
                    t.tokenizer = .simple
                    t.column("a")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "s" USING fts3(a, tokenize=simple)"#])
        }
    }

    @Test func unicode61WithDefaultsHasNoArgument() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "u3", using: FTS3()) { t in
                    t.tokenizer = .unicode61()
                    t.column("a")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "u3" USING fts3(a, tokenize=unicode61)"#],
                    ".removeLegacy is SQLite's default: nothing is written for it")
        }
    }

    @Test func unicode61KeepingDiacriticsWithSortedSeparatorsAndTokenCharacters() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "u1", using: FTS3()) { t in
                    t.tokenizer = .unicode61(diacritics: .keep, separators: ["X", "-"], tokenCharacters: [".", "#"])
                    t.column("a")
                }
            }
            #expect(sql == [
                #"CREATE VIRTUAL TABLE "u1" USING fts3(a, tokenize=unicode61 "remove_diacritics=0" "separators=-X" "tokenchars=#.")"#,
            ], "characters of a set are written sorted, so that the SQL does not depend on hashing")
        }
    }

    @Test func unicode61RemovingAllDiacritics() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "u2", using: FTS3()) { t in
                    t.tokenizer = .unicode61(diacritics: .remove)
                    t.column("a")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "u2" USING fts3(a, tokenize=unicode61 "remove_diacritics=2")"#])
        }
    }

    @Test func unicode61OptionsReachTheTokenizer() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(virtualTable: "u1", using: FTS3()) { t in
                t.tokenizer = .unicode61(diacritics: .keep, separators: ["X"], tokenCharacters: ["#"])
                t.column("a")
            }
            try db.execute(sql: "INSERT INTO u1(rowid, a) VALUES (1, 'Doré'), (2, 'fooXbar'), (3, 'c#')")
            #expect(try matchingRowIDs(db, "u1", "dore") == [], "diacritics are kept: dore does not match Doré")
            #expect(try matchingRowIDs(db, "u1", "doré") == [1])
            #expect(try matchingRowIDs(db, "u1", "bar") == [2], "X separates tokens")
            #expect(try matchingRowIDs(db, "u1", "\"c#\"") == [3], "# belongs to tokens")
        }
    }

    @Test func porterTableMatchesStems() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(virtualTable: "book", using: FTS3()) { t in
                t.tokenizer = .porter
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO book(rowid, body) VALUES (1, 'Databases and whales'), (2, 'Nothing')")
            #expect(try matchingRowIDs(db, "book", "database whale") == [1],
                    "the porter tokenizer stems databases and whales")
        }
    }

    @Test func creatingAnExistingTableThrowsWithTheStatement() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(virtualTable: "document", using: FTS3()) { t in t.column("content") }
            let error = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "document", using: FTS3()) { t in t.column("content") }
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == #"table "document" already exists"#)
            #expect(error?.sql == #"CREATE VIRTUAL TABLE "document" USING fts3(content)"#,
                    "the statement is the caller's: the error names it")
        }
    }
}
