extension Database {
    /// A cursor over the rows that break a foreign key, in the whole
    /// database, as `PRAGMA foreign_key_check` reports them.
    ///
    /// ```swift
    /// let violations = try db.foreignKeyViolations()
    /// while let violation = try violations.next() {
    ///     print(violation.originTable, violation.destinationTable)
    /// }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails.
    public func foreignKeyViolations() throws -> RecordCursor<ForeignKeyViolation> {
        try ForeignKeyViolation.fetchCursor(self, sql: "PRAGMA foreign_key_check")
    }

    /// A cursor over the rows of one table that break a foreign key.
    ///
    /// When `schemaName` is nil, the schemas are searched in SQLite's order
    /// of resolution (temp, main, then attached databases), and the first
    /// table with this name is checked.
    ///
    /// ```swift
    /// let violations = try Array(db.foreignKeyViolations(in: "player"))
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails, if there is no schema
    ///   named `schemaName`, or if there is no such table.
    public func foreignKeyViolations(in tableName: String, in schemaName: String? = nil)
    throws -> RecordCursor<ForeignKeyViolation>
    {
        try validateSchemaCache()
        let table = try introspect(tableNamed: tableName, in: schemaName) { table in
            try objectExists(table.name, type: .table, in: table.schemaID) ? table : nil
        }
        return try ForeignKeyViolation.fetchCursor(
            self,
            sql: "PRAGMA \(table.schemaID.pragmaName).foreign_key_check(\(table.name.quotedDatabaseIdentifier))")
    }
}
