import Foundation
@testable import GRDBCipher

/// The schema statements `db` runs while `body` runs, as traced: without
/// the introspection of the schema cache and the `SELECT QUOTE(?)` that
/// writes values as SQL literals.
func schemaStatements(_ db: Database, during body: () throws -> Void) rethrows -> [String] {
    try tracedStatements(db, during: body).filter {
        !isIntrospectionPragma($0) && !$0.hasPrefix("PRAGMA") && $0 != "SELECT QUOTE(?)"
    }
}

/// The SQL that SQLite stored for a table, index or view.
func storedSQL(_ db: Database, _ name: String) throws -> String? {
    try String.fetchOne(
        db, sql: "SELECT sql FROM sqlite_master WHERE name = ? UNION ALL SELECT sql FROM sqlite_temp_master WHERE name = ?",
        arguments: [name, name])
}

/// The names of the columns of a table, in order.
func columnNames(_ db: Database, _ table: String) throws -> [String] {
    try db.columns(in: table).map(\.name)
}
