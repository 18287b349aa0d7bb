#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

// Closing a pool or a snapshot while a statement made in one of its accesses is still alive:
// the error, and what the pool or snapshot can still do afterwards.

/// Prints what reads and writes of the pool give now.
func probe(_ dbPool: DatabasePool, _ label: String) {
    quietly {
        step("\(label): read") { try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } }
        step("\(label): write") { try dbPool.write { try $0.execute(sql: "INSERT INTO t DEFAULT VALUES") } }
    }
}

let closingPrograms: [Program] = [
    Program("pool-close-live-writer-statement") {
        let dbPool = try makePool()
        try quietly { try dbPool.write { try $0.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") } }
        probe(dbPool, "before")
        let statement = try dbPool.write { try $0.makeStatement(sql: "SELECT * FROM t") }
        withExtendedLifetime(statement) {
            step("close") { try dbPool.close() }
            probe(dbPool, "after the failed close")
            step("close again") { try dbPool.close() }
        }
    },
    Program("pool-close-live-reader-statement") {
        let dbPool = try makePool()
        try quietly { try dbPool.write { try $0.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") } }
        probe(dbPool, "before")
        let statement = try dbPool.read { try $0.makeStatement(sql: "SELECT * FROM t") }
        withExtendedLifetime(statement) {
            step("close") { try dbPool.close() }
            probe(dbPool, "after the failed close")
        }
    },
    Program("pool-close-after-statements-end") {
        let dbPool = try makePool()
        try quietly { try dbPool.write { try $0.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") } }
        do {
            let statement = try dbPool.write { try $0.makeStatement(sql: "SELECT * FROM t") }
            withExtendedLifetime(statement) { step("close with a statement") { try dbPool.close() } }
        }
        step("close once it has ended") { try dbPool.close() }
        probe(dbPool, "after the close")
    },
    Program("snapshot-close-live-statement") {
        let dbPool = try makePool()
        try quietly { try dbPool.write { try $0.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") } }
        let snapshot = try dbPool.makeSnapshot()
        try quietly { try dbPool.write { try $0.execute(sql: "INSERT INTO t DEFAULT VALUES") } }
        let count = { try snapshot.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } }
        step("snapshot count") { try count() }
        do {
            let statement = try snapshot.read { try $0.makeStatement(sql: "SELECT * FROM t") }
            withExtendedLifetime(statement) {
                step("close") { try snapshot.close() }
                step("snapshot count after the failed close") { try count() }
            }
        }
        step("close once the statement has ended") { try snapshot.close() }
        step("snapshot count after the close") { try count() }
        probe(dbPool, "pool")
    },
]
