import Foundation
import Testing
@testable import GRDBCipher

/// FTS4 external content tables kept in step with their content table by
/// `synchronize(withTable:)` (Compat/.transcripts/grdb/fts4-synchronized.txt).
@Suite struct FTS4SynchronizationTests {
    /// Runs `body` with a table "document" (id, title, content) that holds
    /// one row: 1, "First", "SQLite is a database".
    private func withDocuments(_ body: (Database) throws -> Void) throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(table: "document") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
                t.column("content", .text)
            }
            try db.execute(sql: "INSERT INTO document (title, content) VALUES ('First', 'SQLite is a database')")
            try body(db)
        }
    }

    /// Creates "document_ft", synchronized with "document".
    private func createSynchronizedTable(_ db: Database, options: VirtualTableOptions = []) throws {
        try db.create(virtualTable: "document_ft", options: options, using: FTS4()) { t in
            t.synchronize(withTable: "document")
            t.tokenizer = .porter
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
                #"CREATE VIRTUAL TABLE "document_ft" USING fts4(title, content, tokenize=porter, content="document")"#,
                #"""
                CREATE TRIGGER "__document_ft_bu" BEFORE UPDATE ON "document" BEGIN
                    DELETE FROM "document_ft" WHERE docid=old."id";
                END
                """#,
                #"""
                CREATE TRIGGER "__document_ft_bd" BEFORE DELETE ON "document" BEGIN
                    DELETE FROM "document_ft" WHERE docid=old."id";
                END
                """#,
                #"""
                CREATE TRIGGER "__document_ft_au" AFTER UPDATE ON "document" BEGIN
                    INSERT INTO "document_ft"("docid", "title", "content") VALUES(new."id", new."title", new."content");
                END
                """#,
                #"""
                CREATE TRIGGER "__document_ft_ai" AFTER INSERT ON "document" BEGIN
                    INSERT INTO "document_ft"("docid", "title", "content") VALUES(new."id", new."title", new."content");
                END
                """#,
                #"INSERT INTO "document_ft"("document_ft") VALUES('rebuild')"#,
            ])
        }
    }

    @Test func triggersAreNamedAfterTheFullTextTable() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db)
            #expect(try triggerNames(db) == ["__document_ft_ai", "__document_ft_au", "__document_ft_bd", "__document_ft_bu"])
        }
    }

    @Test func rowsPresentBeforeCreationAreIndexed() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db)
            let rows = try Row.fetchAll(db, sql: "SELECT rowid, title FROM document_ft WHERE document_ft MATCH 'database'")
            #expect(rows == [["rowid": 1, "title": "First"]], "the rebuild indexed the existing row")
        }
    }

    @Test func insertIsIndexed() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db)
            try db.execute(sql: "INSERT INTO document (title, content) VALUES ('Second', 'Swift databases')")
            #expect(try matchingRowIDs(db, "document_ft", "swift") == [2])
        }
    }

    @Test func updateReplacesTheIndexedText() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db)
            try db.execute(sql: "UPDATE document SET content = 'nothing here' WHERE id = 1")
            #expect(try matchingRowIDs(db, "document_ft", "database") == [], "the old text is no longer indexed")
            #expect(try matchingRowIDs(db, "document_ft", "nothing") == [1], "the new text is")
        }
    }

    @Test func deleteRemovesFromTheIndex() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db)
            try db.execute(sql: "DELETE FROM document WHERE id = 1")
            #expect(try matchingRowIDs(db, "document_ft", "database") == [])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM document_ft") == 0)
        }
    }

    @Test func droppedFullTextTableLeavesTriggersThatBreakWrites() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db)
            try db.drop(table: "document_ft")
            #expect(try triggerNames(db).count == 4, "SQLite does not drop them with the full-text table")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO document (title, content) VALUES ('Second', 'orphan')")
            }
            #expect(error?.message == "no such table: main.document_ft")
        }
    }

    @Test func droppingTheTriggersLetsTheContentTableBeWritten() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db)
            try db.drop(table: "document_ft")
            let sql = try tracedStatements(db) {
                try db.dropFTS4SynchronizationTriggers(forTable: "document_ft")
            }
            #expect(sql == [
                #"DROP TRIGGER IF EXISTS "__document_ft_bu""#,
                #"DROP TRIGGER IF EXISTS "__document_ft_bd""#,
                #"DROP TRIGGER IF EXISTS "__document_ft_au""#,
                #"DROP TRIGGER IF EXISTS "__document_ft_ai""#,
            ])
            #expect(try triggerNames(db) == [])
            try db.execute(sql: "INSERT INTO document (title, content) VALUES ('Third', 'after drop')")
            try db.execute(sql: "UPDATE document SET title = 'Renamed'")
            try db.execute(sql: "DELETE FROM document")
        }
    }

    @Test func droppingTriggersThatDoNotExistDoesNothing() throws {
        try withDocuments { db throws in
            try db.dropFTS4SynchronizationTriggers(forTable: "nothing_ft")
            #expect(try triggerNames(db) == [])
        }
    }

    @Test func fullTextTableCanBeCreatedAgainAfterDroppingIt() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db)
            try db.drop(table: "document_ft")
            try db.dropFTS4SynchronizationTriggers(forTable: "document_ft")
            try db.execute(sql: "INSERT INTO document (title, content) VALUES ('Second', 'Swift databases')")
            try createSynchronizedTable(db)
            #expect(try matchingRowIDs(db, "document_ft", "database") == [1, 2],
                    "the new table indexes every row, including those written while there was none")
        }
    }

    @Test func ifNotExistsOnAnExistingSynchronizedTableIndexesNothingTwice() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db, options: .ifNotExists)
            let sql = try fullTextSchemaStatements(db) {
                try createSynchronizedTable(db, options: .ifNotExists)
            }
            #expect(sql.count == 6)
            #expect(sql.dropFirst().dropLast().allSatisfy { $0.hasPrefix("CREATE TRIGGER IF NOT EXISTS ") },
                    "the triggers are created IF NOT EXISTS too: \(sql)")
            try db.execute(sql: "INSERT INTO document (title, content) VALUES ('Second', 'Swift databases')")
            #expect(try matchingRowIDs(db, "document_ft", "database") == [1, 2], "each row is indexed once")
            #expect(try triggerNames(db).count == 4)
        }
    }

    @Test func contentTableWithoutIntegerPrimaryKeyIsSynchronizedByRowID() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(table: "note") { t in t.column("text", .text) }
            try db.execute(sql: "INSERT INTO note (text) VALUES ('first note')")
            let sql = try fullTextSchemaStatements(db) {
                try db.create(virtualTable: "note_ft", using: FTS4()) { t in
                    t.synchronize(withTable: "note")
                    t.column("text")
                }
            }
            #expect(sql.contains(#"""
                CREATE TRIGGER "__note_ft_bd" BEFORE DELETE ON "note" BEGIN
                    DELETE FROM "note_ft" WHERE docid=old."rowid";
                END
                """#))
            try db.execute(sql: "INSERT INTO note (text) VALUES ('second note')")
            try db.execute(sql: "UPDATE note SET text = 'changed' WHERE rowid = 1")
            #expect(try matchingRowIDs(db, "note_ft", "note") == [2])
            #expect(try matchingRowIDs(db, "note_ft", "changed") == [1])
        }
    }

    @Test func missingContentTableThrowsAndLeavesNothingBehind() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "missing_ft", using: FTS4()) { t in
                    t.synchronize(withTable: "missing")
                    t.column("a")
                }
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "no such table: missing")
            #expect(error?.sql == nil)
            #expect(try tableNames(db, prefix: "missing_ft") == [],
                    "the savepoint rolled back the full-text table and its shadow tables")
            #expect(try triggerNames(db) == [])
            #expect(!db.isInsideTransaction, "the transaction that the savepoint opened is closed")
        }
    }

    @Test func missingContentTableInsideATransactionKeepsTheRest() throws {
        let dir = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"), configuration: keyed("fts4 savepoint"))
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE kept (a)")
            #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "missing_ft", using: FTS4()) { t in
                    t.synchronize(withTable: "missing")
                    t.column("a")
                }
            }
            try db.execute(sql: "INSERT INTO kept VALUES (1)")
        }
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM kept") == 1,
                    "only the savepoint rolled back, not the caller's transaction")
            #expect(try tableNames(db, prefix: "missing_ft") == [])
        }
    }

    @Test func settingContentUndoesSynchronization() throws {
        try withDocuments { db throws in
            var content: String?? = .none
            let sql = try fullTextSchemaStatements(db) {
                try db.create(virtualTable: "probe", options: .temporary, using: FTS4()) { t in
                    t.synchronize(withTable: "document")
                    t.content = nil
                    content = .some(t.content)
                    t.column("x")
                }
            }
            #expect(content == .some(nil))
            #expect(sql == [#"CREATE VIRTUAL TABLE temp."probe" USING fts4(x)"#], "no trigger, no rebuild")
            #expect(try triggerNames(db) == [])
        }
    }

    @Test func contentIsTheSynchronizedTable() throws {
        try withDocuments { db throws in
            var content: String?
            try db.create(virtualTable: "document_ft", using: FTS4()) { t in
                t.synchronize(withTable: "document")
                content = t.content
                t.column("title")
            }
            #expect(content == "document")
        }
    }

    @Test func temporarySynchronizedTableTraps() async {
        await #expect(processExitsWith: .failure) {
            do {
                let dbQueue = try DatabaseQueue()
                try dbQueue.inDatabase { db throws in
                    try db.execute(sql: "CREATE TABLE document (id INTEGER PRIMARY KEY, title TEXT)")
                    try db.create(virtualTable: "document_ft", options: .temporary, using: FTS4()) { t in
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

    @Test func joinByRowIDFetchesContentRows() throws {
        try withDocuments { db throws in
            try createSynchronizedTable(db)
            try db.execute(sql: "INSERT INTO document (title, content) VALUES ('Second', 'Swift talks')")
            let titles = try String.fetchAll(db, sql: """
                SELECT document.title FROM document
                JOIN document_ft ON document_ft.rowid = document.rowid AND document_ft MATCH ?
                """, arguments: [FTS3Pattern(matchingAnyTokenIn: "swift")])
            #expect(titles == ["Second"])
        }
    }

    @Test func namesThatNeedQuotes() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE "my docs" (id INTEGER PRIMARY KEY, body TEXT);
                INSERT INTO "my docs" (body) VALUES ('before creation');
                """)
            try db.create(virtualTable: "my docs ft", using: FTS4()) { t in
                t.synchronize(withTable: "my docs")
                t.column("body")
            }
            try db.execute(sql: #"INSERT INTO "my docs" (body) VALUES ('after creation')"#)
            #expect(try matchingRowIDs(db, "my docs ft", "creation") == [1, 2])
            #expect(try triggerNames(db) == ["__my docs ft_ai", "__my docs ft_au", "__my docs ft_bd", "__my docs ft_bu"])
            try db.drop(table: "my docs ft")
            try db.dropFTS4SynchronizationTriggers(forTable: "my docs ft")
            #expect(try triggerNames(db) == [])
        }
    }
}

