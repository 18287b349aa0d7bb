import Foundation
import Testing
import GRDBCipher

/// A module of the application: SQLite's `fts5vocab`, defined by the table
/// it describes and the kind of vocabulary.
private struct FTS5Vocabulary: VirtualTableModule {
    final class Definition {
        var table = ""
        var kind = "row"
    }

    /// An error thrown after the table was created, to check the savepoint.
    var failAfterCreation = false

    var moduleName: String { "fts5vocab" }

    func makeTableDefinition(configuration: VirtualTableConfiguration) -> Definition {
        Definition()
    }

    func moduleArguments(for definition: Definition, in db: Database) throws -> [String] {
        [definition.table, definition.kind]
    }

    func database(_ db: Database, didCreate tableName: String, using definition: Definition) throws {
        // The table exists when the module completes it.
        #expect(try db.tableExists(tableName))
        if failAfterCreation { throw DatabaseError(message: "module refused") }
    }
}

/// A module without arguments: `USING name` alone.
private struct BareModule: VirtualTableModule {
    var moduleName: String { "fts4" }
    func makeTableDefinition(configuration: VirtualTableConfiguration) { }
    func moduleArguments(for definition: Void, in db: Database) throws -> [String] { [] }
    func database(_ db: Database, didCreate tableName: String, using definition: Void) throws { }
}

/// `VirtualTableModule` is public (this file imports GRDBCipher without
/// @testable): an application defines its own modules,
/// and `create(virtualTable:using:)` writes and completes them as it does
/// the full-text ones.
@Suite struct CustomVirtualTableModuleTests {
    @Test func moduleArgumentsAreJoinedInParentheses() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in t.column("body") }
            try db.execute(sql: "INSERT INTO doc(body) VALUES ('alpha beta alpha')")
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "vocab", using: FTS5Vocabulary()) { t in
                    t.table = "doc"
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "vocab" USING fts5vocab(doc, row)"#])
            #expect(try Int.fetchOne(db, sql: "SELECT cnt FROM vocab WHERE term = 'alpha'") == 2)
        }
    }

    @Test func moduleWithoutArgumentsIsWrittenAlone() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "bare", using: BareModule())
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "bare" USING fts4"#])
        }
    }

    @Test func failureAfterCreationRollsTheTableBack() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(virtualTable: "doc", using: FTS5()) { t in t.column("body") }
            let error = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "vocab", using: FTS5Vocabulary(failAfterCreation: true)) { t in
                    t.table = "doc"
                }
            }
            #expect(error?.message == "module refused")
            #expect(try !db.tableExists("vocab"), "the table and its completion are one savepoint")
            #expect(try db.tableExists("doc"), "what existed before is untouched")
        }
    }
}
