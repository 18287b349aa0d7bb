import Foundation
@testable import GRDBCipher

/// Runs `body` in a write access of a queue on a fresh encrypted file.
@discardableResult
func withEncryptedSchemaDatabase<T>(_ body: (Database) throws -> T) throws -> T {
    let dir = try TemporaryDirectory()
    let dbQueue = try DatabaseQueue(path: dir.path("schema.sqlite"), configuration: keyed("schema secret"))
    return try dbQueue.writeWithoutTransaction(body)
}

/// The SQL of the statements `db` runs while `body` runs.
func tracedStatements(_ db: Database, during body: () throws -> Void) rethrows -> [String] {
    let statements = LockedValue<[String]>([])
    db.trace { event in
        if case .statement(let statement) = event {
            statements.withLock { $0.append(statement.sql) }
        }
    }
    defer { db.trace(nil) }
    try body()
    return statements.withLock { $0 }
}

/// Whether the SQL is a pragma that reads the schema of a table.
func isIntrospectionPragma(_ sql: String) -> Bool {
    ["table_xinfo", "table_list", "index_list", "index_info", "foreign_key_list", "sqlite_master", "database_list"]
        .contains { sql.contains($0) }
}
