import Foundation
import Testing
@testable import GRDBCipher

/// FTS5 external content tables kept in step with their content table by
/// `synchronize(withTable:)`
/// (Compat/.transcripts/grdb/fts5-matching-rank-synchronized.txt).
@Suite struct FTS5SynchronizationTests {
    /// Runs `body` with a table "document" (id, title, content) that holds
    /// two rows: 1 "SQLite", 2 "Swift".
    private func withDocuments(_ body: (Database) throws -> Void) throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(table: "document") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
                t.column("content", .text)
            }
            try db.execute(sql: """
                INSERT INTO document (title, content) VALUES ('SQLite', 'SQLite is a database engine, a database');
                INSERT INTO document (title, content) VALUES ('Swift', 'Swift talks to a database');
                """)
            try body(db)
        }
    }

    /// Creates "document_ft", synchronized with "document".
    private func createSynchronizedTable(_ db: Database, options: VirtualTableOptions = []) throws {
        try db.create(virtualTable: "document_ft", options: options, using: FTS5()) { t in
            t.synchronize(withTable: "document")
            t.tokenizer = .porter()
            t.column("title")
            t.column("content")
        }
    }

    @Test func createsTableTriggersThenIndexesInGRDBOrder() throws {
        try withDocuments { db throws in
            let sql = try fullTextSchemaStatements(db) {
                try createSynchronizedTable(db)
            }
            #expect(sql == [
                #"CREATE VIRTUAL TABLE "document_ft" USING fts5(title, content, tokenize='''porter''', content='document', content_rowid='id')"#,
                #"""
                CREATE TRIGGER "__document_ft_ai" AFTER INSERT ON "document" BEGIN
                    INSERT INTO "document_ft"("rowid", "title", "content") VALUES (new."id", new."title", new."content");
                END
                """#,
                #"""
                CREATE TRIGGER "__document_ft_ad" AFTER DELETE ON "document" BEGIN
                    INSERT INTO "document_ft"("document_ft", "rowid", "title", "content") VALUES('delete', old."id", old."title", old."content");
                END
                """#,
                #"""
                CREATE TRIGGER "__document_ft_au" AFTER UPDATE ON "document" BEGIN
                    INSERT INTO "document_ft"("document_ft", "rowid", "title", "content") VALUES('delete', old."id", old."title", old."content");
                    INSERT INTO "document_ft"("rowid", "title", "content") VALUES (new."id", new."title", new."content");
                END
                """#,
                #"INSERT INTO "document_ft"("document_ft") VALUES('rebuild')"#,
            ])
        }
    }

    @Test func triggersAreNamedAfterTheFullTextTable() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db)
            #expect(try triggerNames(db) == ["__document_ft_ad", "__document_ft_ai", "__document_ft_au"])
        }
    }

    @Test func integerPrimaryKeyIsTheContentRowID() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(table: "book") { t in
                t.primaryKey("bookId", .integer)
                t.column("title", .text)
            }
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                    t.synchronize(withTable: "book")
                    t.column("title")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "book_ft" USING fts5(title, content='book', content_rowid='bookId')"#])
            try db.execute(sql: "INSERT INTO book (bookId, title) VALUES (42, 'Moby Dick')")
            #expect(try matchingRowIDs(db, "book_ft", "moby") == [42])
        }
    }

    @Test func contentTableWithoutIntegerPrimaryKeyHasNoContentRowID() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(table: "note") { t in t.column("text", .text) }
            try db.execute(sql: "INSERT INTO note (text) VALUES ('first note')")
            let sql = try fullTextSchemaStatements(db) {
                try db.create(virtualTable: "note_ft", using: FTS5()) { t in
                    t.synchronize(withTable: "note")
                    t.column("text")
                }
            }
            #expect(sql.first == #"CREATE VIRTUAL TABLE "note_ft" USING fts5(text, content='note')"#)
            #expect(sql.contains(#"""
                CREATE TRIGGER "__note_ft_ai" AFTER INSERT ON "note" BEGIN
                    INSERT INTO "note_ft"("rowid", "text") VALUES (new."rowid", new."text");
                END
                """#))
            try db.execute(sql: "INSERT INTO note (text) VALUES ('second note')")
            try db.execute(sql: "UPDATE note SET text = 'changed' WHERE rowid = 1")
            #expect(try matchingRowIDs(db, "note_ft", "note") == [2])
            #expect(try matchingRowIDs(db, "note_ft", "changed") == [1])
        }
    }

    @Test func rowsPresentBeforeCreationAreIndexed() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db)
            #expect(try matchingRowIDs(db, "document_ft", "database") == [1, 2])
        }
    }

    @Test func insertUpdateDeleteAreReflected() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db)
            try db.execute(sql: "INSERT INTO document (title, content) VALUES ('Third', 'databases everywhere')")
            try db.execute(sql: "UPDATE document SET title = 'Renamed' WHERE id = 2")
            try db.execute(sql: "DELETE FROM document WHERE id = 1")
            let rows = try Row.fetchAll(db, sql: "SELECT rowid, title FROM document_ft WHERE document_ft MATCH 'databas*' ORDER BY rowid")
            #expect(rows == [["rowid": 2, "title": "Renamed"], ["rowid": 3, "title": "Third"]])
            #expect(try matchingRowIDs(db, "document_ft", "swift") == [2], "the update kept the row's other text indexed")
            #expect(try matchingRowIDs(db, "document_ft", "renamed") == [2])
            #expect(try matchingRowIDs(db, "document_ft", "engine") == [], "the deleted row left the index")
        }
    }

    @Test func indexStaysConsistentAfterWrites() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db)
            try db.execute(sql: "UPDATE document SET content = 'rewritten'")
            try db.execute(sql: "DELETE FROM document WHERE id = 2")
            // FTS5's integrity check compares the index with the content table.
            try db.execute(sql: "INSERT INTO document_ft(document_ft, rank) VALUES('integrity-check', 1)")
        }
    }

    @Test func rankOrdersSynchronizedRows() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db)
            let rows = try Table("document_ft").all()
                .matching(FTS5Pattern(matchingAnyTokenIn: "database"))
                .select(Column.rowID, Column("title"))
                .order(Column.rank)
                .fetchAll(db)
            #expect(rows == [["rowid": 1, "title": "SQLite"], ["rowid": 2, "title": "Swift"]])
        }
    }

    @Test func joinByRowIDFetchesContentRows() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db)
            let titles = try String.fetchAll(db, sql: """
                SELECT document.title FROM document
                JOIN document_ft ON document_ft.rowid = document.rowid AND document_ft MATCH ?
                """, arguments: [FTS5Pattern(matchingPhrase: "database engine")])
            #expect(titles == ["SQLite"])
        }
    }

    @Test func droppedFullTextTableLeavesTriggersThatBreakWrites() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db)
            try db.drop(table: "document_ft")
            #expect(try triggerNames(db).count == 3, "SQLite does not drop them with the full-text table")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO document (title, content) VALUES ('Fourth', 'orphan')")
            }
            #expect(error?.message == "no such table: main.document_ft")
        }
    }

    @Test func droppingTheTriggersLetsTheContentTableBeWritten() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db)
            try db.drop(table: "document_ft")
            let sql = try tracedStatements(db) {
                try db.dropFTS5SynchronizationTriggers(forTable: "document_ft")
            }
            #expect(sql == [
                #"DROP TRIGGER IF EXISTS "__document_ft_ai""#,
                #"DROP TRIGGER IF EXISTS "__document_ft_ad""#,
                #"DROP TRIGGER IF EXISTS "__document_ft_au""#,
            ])
            #expect(try triggerNames(db) == [])
            try db.execute(sql: "INSERT INTO document (title, content) VALUES ('Fourth', 'after drop')")
            try db.execute(sql: "UPDATE document SET title = 'Renamed'")
            try db.execute(sql: "DELETE FROM document")
        }
    }

    @Test func fts4DropLeavesFTS5TriggersAlone() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db)
            try db.dropFTS4SynchronizationTriggers(forTable: "document_ft")
            #expect(try triggerNames(db) == ["__document_ft_ad"],
                    "FTS4 drops its own suffixes (bu, bd, au, ai): only FTS5's ad remains")
        }
    }

    @Test func missingContentTableThrowsAndLeavesNothingBehind() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "missing_ft", using: FTS5()) { t in
                    t.synchronize(withTable: "missing")
                    t.column("a")
                }
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "no such table: missing")
            #expect(error?.sql == nil)
            #expect(try tableNames(db, prefix: "missing_ft") == [])
            #expect(try triggerNames(db) == [])
        }
    }

    @Test func ifNotExistsOnAnExistingSynchronizedTableIndexesNothingTwice() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db, options: .ifNotExists)
            try createSynchronizedTable(db, options: .ifNotExists)
            try db.execute(sql: "INSERT INTO document (title, content) VALUES ('Third', 'databases everywhere')")
            #expect(try matchingRowIDs(db, "document_ft", "database") == [1, 2, 3])
            #expect(try triggerNames(db).count == 3)
            try db.execute(sql: "INSERT INTO document_ft(document_ft, rank) VALUES('integrity-check', 1)")
        }
    }

    @Test func temporarySynchronizedTableTraps() async {
        await #expect(processExitsWith: .failure) {
            do {
                let dbQueue = try DatabaseQueue()
                try dbQueue.inDatabase { db throws in
                    try db.execute(sql: "CREATE TABLE document (id INTEGER PRIMARY KEY, title TEXT)")
                    try db.create(virtualTable: "document_ft", options: .temporary, using: FTS5()) { t in
                        t.synchronize(withTable: "document")
                        t.column("title")
                    }
                }
            } catch {
                // An error is not the trap GRDB documents.
            }
            exit(0)
        }
    }

    @Test func namesThatNeedQuotes() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE "O'Brien docs" (id INTEGER PRIMARY KEY, body TEXT);
                INSERT INTO "O'Brien docs" (body) VALUES ('before creation');
                """)
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "my docs ft", using: FTS5()) { t in
                    t.synchronize(withTable: "O'Brien docs")
                    t.column("body")
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "my docs ft" USING fts5(body, content='O''Brien docs', content_rowid='id')"#])
            try db.execute(sql: #"INSERT INTO "O'Brien docs" (body) VALUES ('after creation')"#)
            try db.execute(sql: #"DELETE FROM "O'Brien docs" WHERE id = 1"#)
            #expect(try matchingRowIDs(db, "my docs ft", "creation") == [2])
            #expect(try triggerNames(db) == ["__my docs ft_ad", "__my docs ft_ai", "__my docs ft_au"])
            try db.drop(table: "my docs ft")
            try db.dropFTS5SynchronizationTriggers(forTable: "my docs ft")
            #expect(try triggerNames(db) == [])
        }
    }
}

