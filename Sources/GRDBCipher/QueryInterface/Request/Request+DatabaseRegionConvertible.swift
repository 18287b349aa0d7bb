// Tables and requests are region convertible: what they read is what a
// `DatabaseRegionObservation` or a `ValueObservation` of them tracks.

extension Table: DatabaseRegionConvertible {
    /// All columns and rows of the table.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        DatabaseRegion(table: tableName)
    }
}

extension FetchRequest {
    /// The region the request reads: the tables and columns its statement
    /// reads, as SQLite reports them while compiling it.
    ///
    /// - throws: A ``DatabaseError`` if the request cannot be prepared.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try makePreparedRequest(db, forSingleResult: false).statement.databaseRegion
    }
}
