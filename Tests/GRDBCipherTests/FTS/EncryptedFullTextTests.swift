import Foundation
import Testing
@testable import GRDBCipher

/// Full-text tables of an encrypted database: their index and content
/// live in encrypted pages, and searching needs the passphrase.
@Suite struct EncryptedFullTextTests {
    /// A word that appears nowhere but in the indexed text.
    private static let word = "quixotically"

    /// Creates an FTS5 table "note" at `path`, indexes the word, and
    /// closes the database.
    private func makeNotes(at path: String, configuration: Configuration) throws {
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        try dbQueue.write { db throws in
            try db.create(virtualTable: "note", using: FTS5()) { t in
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO note(rowid, body) VALUES (1, ?)", arguments: ["Behaving \(Self.word) today"])
        }
        try dbQueue.close()
    }

    @Test func plaintextControlShowsTheWordInTheFile() throws {
        // Without encryption, the index and content pages hold the word:
        // the search for it below is able to find it.
        let dir = try TemporaryDirectory()
        try makeNotes(at: dir.path("plain.sqlite"), configuration: Configuration())
        #expect(try anyFile(in: dir, contains: Self.word))
    }

    @Test func indexedWordIsNotInTheEncryptedFile() throws {
        let dir = try TemporaryDirectory()
        try makeNotes(at: dir.path("db.sqlite"), configuration: keyed("fts secret"))
        #expect(try !anyFile(in: dir, contains: Self.word),
                "neither the FTS5 content nor its index leaks the word")
        #expect(try !anyFile(in: dir, contains: "note_data"), "nor the names of the shadow tables")
    }

    @Test func searchWorksAfterReopeningWithThePassphrase() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeNotes(at: path, configuration: keyed("fts secret"))
        let dbQueue = try DatabaseQueue(path: path, configuration: keyed("fts secret"))
        let bodies = try dbQueue.read { db throws in
            try String.fetchAll(db, sql: "SELECT body FROM note WHERE note MATCH ?", arguments: [FTS5Pattern(matchingAnyTokenIn: Self.word)])
        }
        #expect(bodies == ["Behaving \(Self.word) today"])
    }

    @Test func searchNeedsThePassphrase() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        try makeNotes(at: path, configuration: keyed("fts secret"))
        let error = #expect(throws: DatabaseError.self) {
            let dbQueue = try DatabaseQueue(path: path, configuration: keyed("wrong"))
            _ = try dbQueue.read { db throws in
                try Int.fetchAll(db, sql: "SELECT rowid FROM note WHERE note MATCH ?", arguments: [Self.word])
            }
        }
        #expect(error?.resultCode == .SQLITE_NOTADB)
    }

    @Test func synchronizedFTS4IndexIsNotInTheEncryptedFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path, configuration: keyed("fts4 secret"))
        try dbQueue.write { db throws in
            try db.create(table: "document") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("content", .text)
            }
            try db.create(virtualTable: "document_ft", using: FTS4()) { t in
                t.synchronize(withTable: "document")
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO document (content) VALUES (?)", arguments: ["a \(Self.word) entry"])
        }
        try dbQueue.close()
        #expect(try !anyFile(in: dir, contains: Self.word))

        let reopened = try DatabaseQueue(path: path, configuration: keyed("fts4 secret"))
        let ids = try reopened.read { db throws in try matchingRowIDs(db, "document_ft", Self.word) }
        #expect(ids == [1], "the triggers indexed the row, and the index survived reopening")
    }

    @Test func poolReaderSearchesWhatTheWriterIndexed() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("pool.sqlite")
        let dbPool = try DatabasePool(path: path, configuration: keyed("pool fts secret"))
        try dbPool.write { db throws in
            try db.create(virtualTable: "note", using: FTS5()) { t in t.column("body") }
            try db.execute(sql: "INSERT INTO note(rowid, body) VALUES (1, ?), (2, 'unrelated')", arguments: ["in a \(Self.word) mood"])
        }
        let ids = try dbPool.read { db throws in
            try Int64.fetchAll(db, Table("note").all()
                .matching(FTS5Pattern(matchingAnyTokenIn: Self.word))
                .select(Column.rowID))
        }
        #expect(ids == [1])

        try dbPool.write { db throws in
            try db.execute(sql: "INSERT INTO note(rowid, body) VALUES (3, ?)", arguments: ["more \(Self.word)"])
        }
        let count = try dbPool.read { db throws in
            try Table("note").all().matching(FTS5Pattern(matchingAnyTokenIn: Self.word)).fetchCount(db)
        }
        #expect(count == 2, "a new read sees the latest committed index")
        #expect(try !anyFile(in: dir, contains: Self.word), "the WAL holds encrypted pages too")

        try dbPool.checkpoint(.truncate)
        try dbPool.close()
        #expect(try !anyFile(in: dir, contains: Self.word), "neither the database nor its WAL leaks the word")
    }
}
