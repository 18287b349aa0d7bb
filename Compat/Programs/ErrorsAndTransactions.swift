#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

let errorPrograms: [Program] = [
    Program("errors-constraints") {
        let dbQueue = try makeQueue { $0.foreignKeysEnabled = true }
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
                CREATE TABLE player (
                  id INTEGER PRIMARY KEY,
                  teamId INTEGER REFERENCES team(id),
                  name TEXT NOT NULL,
                  score INTEGER CHECK (score >= 0),
                  UNIQUE (teamId, name));
                INSERT INTO team (id, name) VALUES (1, 'Reds');
                """)
        }
        for (label, sql) in [
            ("not null", "INSERT INTO player (name) VALUES (NULL)"),
            ("unique", "INSERT INTO team (name) VALUES ('Reds')"),
            ("primary key", "INSERT INTO team (id, name) VALUES (1, 'Blues')"),
            ("check", "INSERT INTO player (name, score) VALUES ('a', -1)"),
            ("foreign key", "INSERT INTO player (teamId, name) VALUES (99, 'a')"),
            ("composite unique", "INSERT INTO player (teamId, name) VALUES (1, 'x'); INSERT INTO player (teamId, name) VALUES (1, 'x')"),
            ("datatype", "CREATE TABLE strict (a INTEGER) STRICT; INSERT INTO strict VALUES ('x')"),
        ] {
            step(label) {
                do {
                    try dbQueue.write { db in try db.execute(sql: sql) }
                } catch let error as DatabaseError {
                    out("  isUniqueConstraint: \(error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE) constraint family: \(error.resultCode == .SQLITE_CONSTRAINT)")
                    switch error {
                    case DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY: out("  matched SQLITE_CONSTRAINT_FOREIGNKEY")
                    case DatabaseError.SQLITE_CONSTRAINT: out("  matched SQLITE_CONSTRAINT")
                    default: out("  matched nothing")
                    }
                    throw error
                }
            }
        }
        step("count after failures") { try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } }
    },
    Program("errors-sql") {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a INTEGER)") }
        dbQueue.inDatabase { db in
            step("syntax") { try db.execute(sql: "SELEC 1") }
            step("syntax fetch") { try Row.fetchAll(db, sql: "SELECT * FROM") }
            step("no such table") { try Row.fetchAll(db, sql: "SELECT * FROM missing") }
            step("no such column") { try Row.fetchAll(db, sql: "SELECT missing FROM t") }
            step("no such function") { try Row.fetchAll(db, sql: "SELECT nofunc(1)") }
            step("table exists") { try db.execute(sql: "CREATE TABLE t (b)") }
            step("second statement fails") { try db.execute(sql: "INSERT INTO t VALUES (1); INSERT INTO nope VALUES (2)") }
            step("count") { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
            step("second of three statements fails") {
                try db.execute(sql: "INSERT INTO t VALUES (1);  INSERT INTO nope VALUES (2) ; SELECT 1;\n")
            }
            step("second statement on a new line fails") { try db.execute(sql: "INSERT INTO t VALUES (1);\n\tSELEC 2\n") }
            step("syntax with white space") { try db.execute(sql: "  SELEC 1 ;  ") }
            step("syntax fetch with white space") { try Row.fetchAll(db, sql: "\n SELECT * FROM ; ") }
            step("makeStatement syntax with white space") { try db.makeStatement(sql: " SELEC 1; ").sql }
            step("second statement fails at run time") {
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS u (a NOT NULL); INSERT INTO t VALUES (1);  INSERT INTO u VALUES (NULL) ; ")
            }
            step("create table with an index whose name is taken") {
                try db.execute(sql: "CREATE TABLE other (a); CREATE INDEX player_on_score ON other(a)")
                try db.create(table: "player") { t in t.column("score", .integer).indexed() }
            }
            step("allStatements second fails") {
                var sqls: [String] = []
                let statements = try db.allStatements(sql: "SELECT 1; SELEC 2; SELECT 3")
                while let statement = try statements.next() { sqls.append(statement.sql) }
                return sqls
            }
            step("arguments of second statement") {
                try db.execute(sql: "INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)", arguments: [1])
            }
            step("empty sql") { try db.execute(sql: "") }
            step("only comment") { try db.execute(sql: "-- nothing") }
            step("makeStatement empty") { try db.makeStatement(sql: "").sql }
            step("makeStatement two") { try db.makeStatement(sql: "SELECT 1; SELECT 2").sql }
            step("error description with arguments") { try db.execute(sql: "INSERT INTO missing VALUES (?)", arguments: [1]) }
            step("DatabaseError init") {
                let error = DatabaseError(resultCode: .SQLITE_CONSTRAINT_UNIQUE, message: "custom", sql: "SELECT 1", arguments: [1])
                return (error.description, error.resultCode, error.extendedResultCode, error.isInterruptionError)
            }
            step("ResultCode descriptions") {
                [ResultCode.SQLITE_OK, .SQLITE_ERROR, .SQLITE_BUSY, .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_NOTADB, ResultCode(rawValue: 9999)]
                    .map { "\($0.rawValue) \($0) \($0.primaryResultCode)" }
            }
        }
        let hidden = try makeQueue { $0.publicStatementArguments = false }
        hidden.inDatabase { db in
            step("hidden arguments") { try db.execute(sql: "INSERT INTO missing VALUES (?)", arguments: ["secret"]) }
            step("hidden decoding") { try Int.fetchAll(db, sql: "SELECT ?", arguments: ["secret"]) }
        }
    },
]

let transactionPrograms: [Program] = [
    Program("transactions-basics") {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a INTEGER)") }
        dbQueue.inDatabase { db in
            step("commit") {
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                    return .commit
                }
            }
            step("rollback") {
                try db.inTransaction(.immediate) {
                    try db.execute(sql: "INSERT INTO t VALUES (2)")
                    return .rollback
                }
            }
            step("exclusive") {
                try db.inTransaction(.exclusive) { .commit }
            }
            step("throws inside") {
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO t VALUES (3)")
                    throw DatabaseError(message: "inner failure")
                }
            }
            step("isInsideTransaction") { db.isInsideTransaction }
            step("begin/commit") {
                try db.beginTransaction()
                out("  inside: \(db.isInsideTransaction)")
                try db.execute(sql: "INSERT INTO t VALUES (4)")
                try db.commit()
            }
            step("begin deferred/rollback") {
                try db.beginTransaction(.deferred)
                try db.rollback()
            }
            step("rollback outside") { try db.rollback() }
            step("commit outside") { try db.commit() }
            step("nested begin") {
                try db.beginTransaction()
                defer { try? db.rollback() }
                try db.beginTransaction()
            }
            step("values") { try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") }
        }
        step("write error rolls back") {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (5)")
                try db.execute(sql: "INSERT INTO nope VALUES (5)")
            }
        }
        step("queue inTransaction") {
            try dbQueue.inTransaction { db in
                try db.execute(sql: "INSERT INTO t VALUES (6)")
                return .commit
            }
        }
        step("writeWithoutTransaction") {
            try dbQueue.writeWithoutTransaction { db in try db.execute(sql: "INSERT INTO t VALUES (7)") }
        }
        step("read refuses writes") { try dbQueue.read { db in try db.execute(sql: "INSERT INTO t VALUES (8)") } }
        step("values") { try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") } }
    },
    Program("transactions-savepoints") {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a INTEGER)") }
        step("savepoint outside transaction") {
            try dbQueue.writeWithoutTransaction { db in
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                    return .commit
                }
            }
        }
        step("savepoint rollback outside transaction") {
            try dbQueue.writeWithoutTransaction { db in
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t VALUES (2)")
                    return .rollback
                }
            }
        }
        step("nested") {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (3)")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t VALUES (4)")
                    try db.inSavepoint {
                        try db.execute(sql: "INSERT INTO t VALUES (5)")
                        return .rollback
                    }
                    try db.inSavepoint {
                        try db.execute(sql: "INSERT INTO t VALUES (6)")
                        return .commit
                    }
                    return .commit
                }
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t VALUES (7)")
                    return .rollback
                }
            }
        }
        step("savepoint throws") {
            try dbQueue.write { db in
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t VALUES (8)")
                    throw DatabaseError(resultCode: .SQLITE_ERROR, message: "boom")
                }
            }
        }
        step("values") { try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") } }
    },
    Program("transactions-pool") {
        let dbPool = try makePool()
        step("write") { try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)") } }
        step("read") { try dbPool.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t") } }
        step("read refuses writes") { try dbPool.read { db in try db.execute(sql: "INSERT INTO t VALUES (2)") } }
        step("writeInTransaction") {
            try dbPool.writeInTransaction { db in
                try db.execute(sql: "INSERT INTO t VALUES (3)")
                return .commit
            }
        }
        step("journal mode") { try dbPool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } }
        step("values") { try dbPool.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") } }
    },
    // A row subscript that cannot decode traps: the message, on a statement row that shows values.
    Program("errors-row-subscript-trap") {
        let dbQueue = try makeQueue()
        try dbQueue.inDatabase { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT 'not a date' AS d")
            while let row = try rows.next() {
                let date: Date = row["d"]
                out("unreachable: \(date)")
            }
        }
    },
]
