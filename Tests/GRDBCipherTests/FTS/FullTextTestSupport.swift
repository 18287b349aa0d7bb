import Foundation
@testable import GRDBCipher

/// The `CREATE VIRTUAL TABLE` statements that `db` runs while `body` runs,
/// as traced: what the library writes, without the statements SQLite runs
/// inside its full-text modules.
func virtualTableStatements(_ db: Database, during body: () throws -> Void) rethrows -> [String] {
    try tracedStatements(db, during: body).filter { $0.hasPrefix("CREATE VIRTUAL TABLE") }
}

/// The statements that create a synchronized full-text table, as traced:
/// the table, its triggers and the indexing of existing rows, without the
/// transaction, the schema introspection and the statements SQLite runs
/// inside its modules (`-- ...`).
func fullTextSchemaStatements(_ db: Database, during body: () throws -> Void) rethrows -> [String] {
    try schemaStatements(db, during: body).filter { sql in
        !sql.hasPrefix("--")
            && !sql.hasPrefix("BEGIN")
            && !sql.hasPrefix("COMMIT")
            && !sql.hasPrefix("ROLLBACK")
            && !sql.hasPrefix("SAVEPOINT")
            && !sql.hasPrefix("RELEASE")
    }
}

/// The names of the triggers of the main schema, sorted.
func triggerNames(_ db: Database) throws -> [String] {
    try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
}

/// The names of all tables of the main schema whose name starts with
/// `prefix` (a full-text table and its shadow tables), sorted.
func tableNames(_ db: Database, prefix: String) throws -> [String] {
    try String.fetchAll(
        db,
        sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, length(?)) = ? ORDER BY name",
        arguments: [prefix, prefix])
}

/// The rowids of the rows of a full-text table that match a raw pattern,
/// in rowid order.
func matchingRowIDs(_ db: Database, _ table: String, _ pattern: String) throws -> [Int64] {
    try Int64.fetchAll(
        db,
        sql: "SELECT rowid FROM \(table.quotedDatabaseIdentifier) WHERE \(table.quotedDatabaseIdentifier) MATCH ? ORDER BY rowid",
        arguments: [pattern])
}

/// Whether any file of the directory (the database, its WAL, its journal)
/// contains the UTF-8 bytes of `marker`.
func anyFile(in directory: TemporaryDirectory, contains marker: String) throws -> Bool {
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    return try names.contains { try file(directory.path($0), contains: marker) }
}

/// The SQL of the statements `body` runs, arguments inlined, as the
/// transcripts of GRDB print them: without the schema queries of the
/// connection's schema cache, and without the statements SQLite runs
/// inside its modules (`-- ...`).
func expandedQueryTrace(_ db: Database, _ body: () throws -> Void) rethrows -> [String] {
    let statements = LockedValue<[String]>([])
    db.trace { event in
        statements.withLock { $0.append(event.expandedDescription) }
    }
    defer { db.trace(nil) }
    try body()
    return statements.withLock { $0 }.filter {
        !$0.hasPrefix("PRAGMA") && !$0.hasPrefix("--") && !isIntrospectionPragma($0)
    }
}
