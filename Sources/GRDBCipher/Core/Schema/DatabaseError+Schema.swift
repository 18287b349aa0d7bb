extension DatabaseError {
    /// The error of a schema method asked about a table that no schema holds.
    static func noSuchTable(_ tableName: String) -> DatabaseError {
        DatabaseError(message: "no such table: \(tableName)")
    }

    /// The error of a schema method asked about a schema that is neither
    /// main, temp, nor an attached database.
    static func noSuchSchema(_ schemaName: String) -> DatabaseError {
        DatabaseError(message: "no such schema: \(schemaName)")
    }
}
