#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

// The core SQL API: execute, fetch, statements, arguments.
let coreBasics: [Program] = [
    Program("core-execute-fetch") {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER)")
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 100])
            out("lastInsertedRowID: \(db.lastInsertedRowID) changesCount: \(db.changesCount)")
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (:name, :score)", arguments: ["name": "Barbara", "score": 1000])
            try db.execute(literal: "INSERT INTO player (name, score) VALUES (\("O'Brien"), \(nil as Int?))")
            try db.execute(sql: "UPDATE player SET score = score + 1; UPDATE player SET score = score * 2 WHERE id = ?", arguments: [1])
            out("changesCount: \(db.changesCount) totalChangesCount: \(db.totalChangesCount)")
        }
        try dbQueue.read { db in
            step("rows") { try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY id") }
            step("names") { try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY name") }
            step("scores") { try Int?.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") }
            step("one") { try Int.fetchOne(db, sql: "SELECT score FROM player WHERE name = ?", arguments: ["Arthur"]) }
            step("none") { try Int.fetchOne(db, sql: "SELECT score FROM player WHERE name = ?", arguments: ["Nobody"]) }
            step("null one") { try Int.fetchOne(db, sql: "SELECT score FROM player WHERE name = ?", arguments: ["O'Brien"]) }
            step("set") { try Set(String.fetchSet(db, sql: "SELECT name FROM player")).sorted() }
            step("cursor") {
                let cursor = try Row.fetchCursor(db, sql: "SELECT id, name FROM player ORDER BY id DESC")
                var lines: [String] = []
                while let row = try cursor.next() { lines.append("\(row["id"] as Int):\(row["name"] as String)") }
                return lines
            }
            step("statement") {
                let statement = try db.makeStatement(sql: "SELECT name FROM player WHERE score > ? ORDER BY id")
                return (statement.sql, statement.columnNames, try String.fetchAll(statement, arguments: [150]))
            }
            step("cached statement") {
                let statement = try db.cachedStatement(sql: "SELECT COUNT(*) FROM player WHERE score IS ?")
                return try Int.fetchOne(statement, arguments: [nil])
            }
        }
    },
    Program("core-arguments") {
        let dbQueue = try makeQueue()
        dbQueue.inDatabase { db in
            step("positional") { try Row.fetchOne(db, sql: "SELECT ?, ?, ?", arguments: [1, "two", nil]) }
            step("named") { try Row.fetchOne(db, sql: "SELECT :a, $b, @c", arguments: ["a": 1, "b": 2.5, "c": "x"]) }
            step("named reused") { try Row.fetchOne(db, sql: "SELECT :a, :a + 1", arguments: ["a": 1]) }
            step("too few") { try Row.fetchOne(db, sql: "SELECT ?, ?", arguments: [1]) }
            step("too many") { try Row.fetchOne(db, sql: "SELECT ?", arguments: [1, 2]) }
            step("missing named") { try Row.fetchOne(db, sql: "SELECT :a, :b", arguments: ["a": 1]) }
            step("extra named") { try Row.fetchOne(db, sql: "SELECT :a", arguments: ["a": 1, "b": 2]) }
            step("no arguments for parameters") { try Row.fetchOne(db, sql: "SELECT ?") }
            step("concatenation") {
                var arguments: StatementArguments = [1]
                arguments += [2]
                return try Row.fetchOne(db, sql: "SELECT ?, ?, :x", arguments: arguments + ["x": 3])
            }
            step("&+") {
                let arguments: StatementArguments = ["x": 1, "y": 2]
                return try Row.fetchOne(db, sql: "SELECT :x, :y", arguments: arguments &+ ["x": 10])
            }
            step("arguments description") { StatementArguments([1, "a", nil, 2.5]).description }
            step("named description") { (["a": "x"] as StatementArguments).description }
            step("literal") {
                let name = "Robert'); DROP TABLE students;--"
                return try SQLRequest<String>(literal: "SELECT \(name)").fetchOne(db)
            }
            step("literal sql") {
                let literal: SQL = "SELECT \(1) + \(2), \(sql: "'raw'")"
                return try SQLRequest<Row>(literal: literal).fetchOne(db)
            }
        }
    },
]
