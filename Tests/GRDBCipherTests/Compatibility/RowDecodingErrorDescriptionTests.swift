import Foundation
import Testing
@testable import GRDBCipher

/// `RowDecodingError` descriptions in GRDB 7's format: what failed, the
/// column, the row, the SQL and the arguments, and nothing else (no record
/// type); a primary-key lookup shows its key as the arguments.
@Suite struct RowDecodingErrorDescriptionTests {
    private struct Book: Codable, FetchableRecord, PersistableRecord {
        enum Kind: String, Codable, DatabaseValueConvertible { case novel }
        var id: Int64
        var title: String
        var kind: Kind
    }

    private func makeBooks(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL, kind TEXT NOT NULL);
            INSERT INTO book VALUES (2, 'X', 'poem');
            """)
    }

    @Test func aKeyLookupShowsItsKeyAsTheArguments() throws {
        try inEncryptedDatabase(publicStatementArguments: true) { db throws in
            try makeBooks(db)
            let error = #expect(throws: RowDecodingError.self) { try Book.fetchOne(db, key: 2) }
            #expect(error?.description == """
                could not decode Kind from database value "poem" - column: "kind", column index: 2, \
                row: [id:2 title:"X" kind:"poem"], sql: `SELECT * FROM "book" WHERE "id" = ?`, arguments: [2]
                """)
        }
    }

    @Test func aKeyLookupHidesItsKeyWhenArgumentsAreNotPublic() throws {
        try inEncryptedDatabase { db throws in
            try makeBooks(db)
            let error = #expect(throws: RowDecodingError.self) { try Book.fetchOne(db, key: 2) }
            let description = error?.description ?? ""
            #expect(description.hasSuffix("sql: `SELECT * FROM \"book\" WHERE \"id\" = ?`"), "\(description)")
            #expect(!description.contains("arguments"), "\(description)")
        }
    }

    @Test func eachLookupShowsItsOwnKey() throws {
        try inEncryptedDatabase(publicStatementArguments: true) { db throws in
            try makeBooks(db)
            try db.execute(sql: "INSERT INTO book VALUES (3, 'Y', 'essay')")
            _ = try? Book.fetchOne(db, key: 2)
            #expect(try Book.fetchOne(db, key: 4) == nil)
            let error = #expect(throws: RowDecodingError.self) { try Book.fetchOne(db, key: 3) }
            #expect(error?.description.hasSuffix("arguments: [3]") == true, "\(error?.description ?? "")")
        }
    }

    @Test func aRecordDecodingErrorDoesNotNameTheRecord() throws {
        try inEncryptedDatabase(publicStatementArguments: true) { db throws in
            let error = #expect(throws: RowDecodingError.self) {
                try Book.fetchAll(db, sql: "SELECT 1 AS id, 'kind' AS kind")
            }
            #expect(error?.description == """
                column not found: "title" - row: [id:1 kind:"kind"], sql: `SELECT 1 AS id, 'kind' AS kind`, arguments: []
                """)
        }
    }
}
