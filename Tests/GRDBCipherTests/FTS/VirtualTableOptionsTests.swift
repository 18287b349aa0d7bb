import Foundation
import Testing
@testable import GRDBCipher

/// The options of `create(virtualTable:)` (`IF NOT EXISTS`, `temp.`), the
/// overload that takes the module as a string, and the disfavored
/// `ifNotExists:` overloads.
@Suite struct VirtualTableOptionsTests {
    @Test func ifNotExistsCreatesOnceAndThenDoesNothing() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "opt", options: [.ifNotExists], using: FTS4()) { t in t.column("a") }
                try db.execute(sql: "INSERT INTO opt(rowid, a) VALUES (1, 'kept')")
                try db.create(virtualTable: "opt", options: [.ifNotExists], using: FTS4()) { t in t.column("a") }
            }
            #expect(sql == [
                #"CREATE VIRTUAL TABLE IF NOT EXISTS "opt" USING fts4(a)"#,
                #"CREATE VIRTUAL TABLE IF NOT EXISTS "opt" USING fts4(a)"#,
            ])
            #expect(try matchingRowIDs(db, "opt", "kept") == [1], "the second creation left the table as it was")
        }
    }

    @Test func temporaryTableIsInTheTempSchemaWithTempUnquoted() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "tmp4", options: [.temporary], using: FTS4()) { t in t.column("a") }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE temp."tmp4" USING fts4(a)"#], "GRDB writes temp. unquoted")
            #expect(try db.tableExists("tmp4", in: "temp"))
            #expect(try !db.tableExists("tmp4", in: "main"))
        }
    }

    @Test func temporaryAndIfNotExistsTogether() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "tmp5", options: [.temporary, .ifNotExists], using: FTS5()) { t in t.column("a") }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE IF NOT EXISTS temp."tmp5" USING fts5(a)"#])
            #expect(try db.tableExists("tmp5", in: "temp"))
        }
    }

    @Test func temporaryTableIsGoneWhenTheConnectionCloses() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        do {
            let dbQueue = try DatabaseQueue(path: path, configuration: keyed("temp fts"))
            try dbQueue.inDatabase { db throws in
                try db.create(virtualTable: "scratch", options: .temporary, using: FTS5()) { t in t.column("a") }
                #expect(try db.tableExists("scratch"))
            }
            try dbQueue.close()
        }
        let dbQueue = try DatabaseQueue(path: path, configuration: keyed("temp fts"))
        try dbQueue.inDatabase { db throws in
            #expect(try !db.tableExists("scratch"), "a temporary table does not outlive its connection")
        }
    }

    @Test func moduleGivenAsAStringIsWrittenAsItIs() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            try db.create(virtualTable: "doc4", using: FTS4()) { t in t.column("content") }
            try db.execute(sql: "INSERT INTO doc4(content) VALUES ('alpha beta alpha')")
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "vocab", using: "fts4aux(doc4)")
                try db.create(virtualTable: "vocab", options: .ifNotExists, using: "fts4aux(doc4)")
            }
            #expect(sql == [
                #"CREATE VIRTUAL TABLE "vocab" USING fts4aux(doc4)"#,
                #"CREATE VIRTUAL TABLE IF NOT EXISTS "vocab" USING fts4aux(doc4)"#,
            ])
            #expect(try Int.fetchOne(db, sql: "SELECT occurrences FROM vocab WHERE term = 'alpha' AND col = '*'") == 2)
        }
    }

    @Test func moduleStringInTheTempSchema() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "t", options: .temporary, using: "fts5(a)")
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE temp."t" USING fts5(a)"#])
            #expect(try db.tableExists("t", in: "temp"))
        }
    }

    @Test func moduleStringErrorNamesTheStatement() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "t", using: "nosuchmodule(a)")
            }
            #expect(error?.message == "no such module: nosuchmodule")
            #expect(error?.sql == #"CREATE VIRTUAL TABLE "t" USING nosuchmodule(a)"#)
        }
    }

    @Test func disfavoredIfNotExistsOverloadWithAModule() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "opt2", ifNotExists: true, using: FTS4()) { t in t.column("a") }
                try db.create(virtualTable: "opt2", ifNotExists: true, using: FTS4()) { t in t.column("a") }
                try db.create(virtualTable: "opt3", ifNotExists: false, using: FTS5()) { t in t.column("a") }
            }
            #expect(sql == [
                #"CREATE VIRTUAL TABLE IF NOT EXISTS "opt2" USING fts4(a)"#,
                #"CREATE VIRTUAL TABLE IF NOT EXISTS "opt2" USING fts4(a)"#,
                #"CREATE VIRTUAL TABLE "opt3" USING fts5(a)"#,
            ])
        }
    }

    @Test func disfavoredIfNotExistsOverloadWithAModuleString() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: "s", ifNotExists: true, using: "fts5(a)")
                try db.create(virtualTable: "s", ifNotExists: true, using: "fts5(a)")
                try db.create(virtualTable: "s2", ifNotExists: false, using: "fts5(a)")
            }
            #expect(sql == [
                #"CREATE VIRTUAL TABLE IF NOT EXISTS "s" USING fts5(a)"#,
                #"CREATE VIRTUAL TABLE IF NOT EXISTS "s" USING fts5(a)"#,
                #"CREATE VIRTUAL TABLE "s2" USING fts5(a)"#,
            ])
        }
    }

    @Test func tableNameIsQuoted() throws {
        try withEncryptedSchemaDatabase { (db: Database) throws in
            let sql = try virtualTableStatements(db) {
                try db.create(virtualTable: #"my "book""#, using: FTS5()) { t in t.column("a") }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "my ""book""" USING fts5(a)"#])
            #expect(try db.tableExists(#"my "book""#))
        }
    }

    @Test func bodyErrorCreatesNothing() throws {
        struct Refused: Error { }
        try withEncryptedSchemaDatabase { (db: Database) throws in
            #expect(throws: Refused.self) {
                try db.create(virtualTable: "never", using: FTS4()) { t in
                    t.column("a")
                    throw Refused()
                }
            }
            #expect(try tableNames(db, prefix: "never") == [], "the body failed before any statement")
        }
    }
}
