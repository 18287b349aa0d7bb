import Foundation
import Testing
@testable import GRDBCipher

/// The SQL of a statement that fails to compile in a multi-statement
/// `execute(sql:)`: as in GRDB, `DatabaseError.sql` is the rest of the SQL
/// from that statement on, as written, and the description trims it.
@Suite struct MultiStatementErrorSQLTests {
    @Test func theFailingStatementKeepsItsLeadingWhiteSpaceAndWhatFollows() throws {
        try inEncryptedDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t VALUES (1);  INSERT INTO nope VALUES (2) ; SELECT 1;\n")
            }
            #expect(error?.sql == "  INSERT INTO nope VALUES (2) ; SELECT 1;\n")
            #expect(error?.description
                == "SQLite error 1: no such table: nope - while executing `INSERT INTO nope VALUES (2) ; SELECT 1`")
            // The first statement ran.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 1)
        }
    }

    @Test func aKeyInTheRestOfTheSQLIsRedacted() throws {
        try inEncryptedDatabase { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "SELECT 1; SELEC 2; PRAGMA key = 'hunter2'")
            }
            #expect(error?.sql == SecretRedaction.placeholder)
            #expect(!(error?.description.contains("hunter2") ?? true))
        }
    }

    @Test func aStatementThatFailsToRunShowsItsOwnSQL() throws {
        try inEncryptedDatabase { db throws in
            try db.execute(sql: "CREATE TABLE u (a NOT NULL)")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "SELECT 1;  INSERT INTO u VALUES (NULL) ; SELECT 2")
            }
            #expect(error?.sql == "INSERT INTO u VALUES (NULL)")
        }
    }
}
