#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

// Prepared statements and their arguments: the arguments of a literal, the arguments of one
// run, and arguments that stay set.

let statementPrograms: [Program] = [
    Program("statements-literal-arguments") {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE t (a INTEGER, b TEXT)")
            step("makeStatement execute") { try db.makeStatement(literal: "INSERT INTO t VALUES (\(1), \("one"))").execute() }
            step("cachedStatement execute") { try db.cachedStatement(literal: "INSERT INTO t VALUES (\(2), \("two"))").execute() }
            step("cachedStatement again") { try db.cachedStatement(literal: "INSERT INTO t VALUES (\(3), \("three"))").execute() }
            step("dictionary arguments") {
                try db.makeStatement(literal: SQL(sql: "INSERT INTO t VALUES (:a, :b)", arguments: ["a": 4, "b": "four"])).execute()
            }
            step("array arguments") {
                try db.makeStatement(literal: SQL(sql: "INSERT INTO t VALUES (?, ?)", arguments: [5, "five"])).execute()
            }
            step("several statements") {
                let statements = try db.allStatements(literal: "INSERT INTO t VALUES (\(6), 'six'); DELETE FROM t WHERE a = \(1)")
                while let statement = try statements.next() { try statement.execute() }
            }
            step("statement arguments") { try db.makeStatement(literal: "SELECT \(7), \("x")").arguments }
            step("fetch rows") { try Row.fetchAll(db.makeStatement(literal: "SELECT * FROM t WHERE a > \(2) ORDER BY a")) }
            step("fetch values") { try Int.fetchAll(db.cachedStatement(literal: "SELECT a FROM t WHERE b <> \("two") ORDER BY a")) }
            step("fetch one") { try String.fetchOne(db.makeStatement(literal: "SELECT b FROM t WHERE a = \(4)")) }
        }
    },
    Program("statements-run-arguments") {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE t (a TEXT)")
            let insert = try db.makeStatement(sql: "INSERT INTO t VALUES (?)")
            step("execute with arguments") { try insert.execute(arguments: ["x"]) }
            step("arguments after the run") { insert.arguments }
            step("execute without arguments") { try insert.execute() }
            step("set arguments") { try insert.setArguments(["y"]) }
            step("execute twice") { try insert.execute(); try insert.execute() }
            step("rows") { try String.fetchAll(db, sql: "SELECT a FROM t") }
            let select = try db.makeStatement(sql: "SELECT a FROM t WHERE a = ?")
            step("fetch with arguments") { try String.fetchAll(select, arguments: ["x"]) }
            step("fetch again without") { try String.fetchAll(select) }
            step("fresh statement without arguments") { try String.fetchAll(db.makeStatement(sql: "SELECT a FROM t WHERE a = ?")) }
        }
    },
]
