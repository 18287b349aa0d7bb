import Foundation
import Testing
@testable import GRDBCipher

@Suite struct InlinedArgumentsTests {
    @Test func valuesReplaceTheirParameters() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let literal: SQL = "CHECK (a IN (\(1), \(2.5), \("x'y"), \(Data([0xAB])), \(nil as Int?)))"
            #expect(try db.schemaSQL(literal) == "CHECK (a IN (1, 2.5, 'x''y', X'AB', NULL))")
        }
    }

    @Test func quotedTextAndCommentsKeepTheirQuestionMarks() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let literal = SQL(sql: #"a = '?' AND "b?" = ? AND [c?] = ? -- ?"# + "\n/* ? */ AND `d?` = ?", arguments: [1, 2, 3])
            #expect(try db.schemaSQL(literal) == #"a = '?' AND "b?" = 1 AND [c?] = 2 -- ?"# + "\n/* ? */ AND `d?` = 3")
        }
    }

    @Test func numberedAndNamedParameters() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            #expect(try db.schemaSQL(SQL(sql: "?2 + ?1 + ?", arguments: [10, 20, 30])) == "20 + 10 + 30")
            #expect(try db.schemaSQL(SQL(sql: "score > :min AND name <> @name", arguments: ["min": 5, "name": "a"]))
                == "score > 5 AND name <> 'a'")
        }
    }

    @Test func mismatchedArgumentsThrow() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            #expect(throws: DatabaseError.self) { try db.schemaSQL(SQL(sql: "? + ?", arguments: [1])) }
            #expect(throws: DatabaseError.self) { try db.schemaSQL(SQL(sql: "?", arguments: [1, 2])) }
            #expect(throws: DatabaseError.self) { try db.schemaSQL(SQL(sql: ":a", arguments: ["b": 1])) }
        }
    }

    @Test func literalWithoutArgumentsIsLeftAlone() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            #expect(try db.schemaSQL(SQL(sql: "name <> '?'")) == "name <> '?'")
        }
    }
}
