import CSQLCipher
import Foundation
import Testing
@testable import GRDBCipher

/// Tells which path decoded it: the row path (`fromDatabaseValue`) or the
/// fast column path (`init(sqliteStatement:index:)`).
private struct PathProbe: DatabaseValueConvertible, StatementColumnConvertible, Hashable {
    var path: String

    var databaseValue: DatabaseValue { path.databaseValue }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> PathProbe? { PathProbe(path: "row") }
    init(path: String) { self.path = path }
    init?(sqliteStatement: SQLiteStatement, index: CInt) { path = "column" }
}

@Suite("Fetches of StatementColumnConvertible values take the column path")
struct FastPathFetchTests {
    private func withProbeTable(_ body: (Database) throws -> Void) throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('a'), ('b')")
            try body(db)
        }
    }

    @Test func fetchSetOfSQL() throws {
        try withProbeTable { db throws in
            #expect(try PathProbe.fetchSet(db, sql: "SELECT v FROM t") == [PathProbe(path: "column")])
        }
    }

    @Test func fetchSetOfStatement() throws {
        try withProbeTable { db throws in
            #expect(try PathProbe.fetchSet(db.makeStatement(sql: "SELECT v FROM t")) == [PathProbe(path: "column")])
        }
    }

    @Test func fetchSetOfLiteral() throws {
        try withProbeTable { db throws in
            #expect(try PathProbe.fetchSet(db, literal: "SELECT v FROM t") == [PathProbe(path: "column")])
        }
    }

    @Test func fetchSetOfRequest() throws {
        try withProbeTable { db throws in
            let request = Table<PathProbe>("t").select(Column("v"))
            #expect(try PathProbe.fetchSet(db, request) == [PathProbe(path: "column")])
            #expect(try request.fetchSet(db) == [PathProbe(path: "column")])
        }
    }

    @Test func fetchesOfTable() throws {
        try withProbeTable { db throws in
            let table = Table<PathProbe>("t")
            #expect(try table.fetchSet(db) == [PathProbe(path: "column")])
            #expect(try table.fetchAll(db) == [PathProbe(path: "column"), PathProbe(path: "column")])
            #expect(try table.fetchOne(db) == PathProbe(path: "column"))
            #expect(try table.fetchCursor(db).next() == PathProbe(path: "column"))
        }
    }

    @Test func fetchesOfSQLAlreadyTookIt() throws {
        try withProbeTable { db throws in
            #expect(try PathProbe.fetchAll(db, sql: "SELECT v FROM t") == [PathProbe(path: "column"), PathProbe(path: "column")])
            #expect(try PathProbe.fetchOne(db, sql: "SELECT v FROM t") == PathProbe(path: "column"))
        }
    }
}
