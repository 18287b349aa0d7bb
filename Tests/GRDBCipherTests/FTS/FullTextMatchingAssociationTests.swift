import Foundation
import Testing
@testable import GRDBCipher

private struct Writer: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "writer"
    static let books = hasMany(IndexedBook.self, using: ForeignKey(["writerId"]))
    var id: Int64
    var name: String
}

private struct IndexedBook: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "indexedBook"
    static let writer = belongsTo(Writer.self, using: ForeignKey(["writerId"]))
    var writerId: Int64
    var title: String
}

/// `matching(_:)` on aliased requests and on associations: the full-text
/// table is named by the alias the request gives it.
@Suite struct FullTextMatchingAssociationTests {
    /// Runs `body` with writers (1 Melville, 2 Verne) and an FTS4 table of
    /// their books: Moby Dick (Melville), Nautilus (Verne).
    private func withWriters(_ body: (Database) throws -> Void) throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE writer (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                INSERT INTO writer VALUES (1, 'Melville'), (2, 'Verne');
                """)
            try db.create(virtualTable: "indexedBook", using: FTS4()) { t in
                t.column("writerId")
                t.column("title")
            }
            try db.execute(sql: """
                INSERT INTO indexedBook(writerId, title) VALUES (1, 'Moby Dick'), (2, 'Twenty Thousand Leagues: Nautilus')
                """)
            try body(db)
        }
    }

    @Test func unnamedAliasKeepsTheTableName() throws {
        try withWriters { db throws in
            let alias = TableAlias()
            var titles: [String] = []
            let sql = try expandedQueryTrace(db) {
                titles = try IndexedBook
                    .aliased(alias)
                    .matching(FTS3Pattern(matchingAnyTokenIn: "moby nautilus"))
                    .filter(alias[Column("writerId")] == 2)
                    .fetchAll(db)
                    .map(\.title)
            }
            #expect(sql == [#"SELECT * FROM "indexedBook" WHERE ("indexedBook" MATCH 'moby OR nautilus') AND ("writerId" = 2)"#])
            #expect(titles == ["Twenty Thousand Leagues: Nautilus"])
        }
    }

    @Test func joiningAMatchingAssociation() throws {
        try withWriters { db throws in
            var names: [String] = []
            let sql = try expandedQueryTrace(db) {
                names = try Writer
                    .joining(required: Writer.books.matching(FTS3Pattern(matchingAnyTokenIn: "nautilus")))
                    .fetchAll(db)
                    .map(\.name)
            }
            #expect(sql == [
                #"SELECT "writer".* FROM "writer" JOIN "indexedBook" ON ("indexedBook"."writerId" = "writer"."id") "#
                    + #"AND ("indexedBook" MATCH 'nautilus')"#,
            ])
            #expect(names == ["Verne"])
        }
    }

    @Test func matchingFromTheFullTextSideOfAJoin() throws {
        try withWriters { db throws in
            let rows = try IndexedBook
                .matching(FTS3Pattern(matchingAnyTokenIn: "moby"))
                .including(required: IndexedBook.writer)
                .asRequest(of: Row.self)
                .fetchAll(db)
            #expect(rows.map { $0["title"] as String? } == ["Moby Dick"])
            #expect(rows.map { $0.scopes["writer"]?["name"] as String? } == ["Melville"])
        }
    }
}
