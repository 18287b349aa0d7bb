import CSQLCipher

// How the schema cache stays true to the database.
//
// Changes made by this connection: the authorizer marks, at compile time,
// the statements that change the schema (CREATE, ALTER, DROP, ATTACH,
// DETACH), roll back, or commit. When a schema change has run, the cache is
// cleared. A rollback (of a transaction or a savepoint) clears it only if
// the schema changed inside the transaction, and so does the end of such a
// transaction unless a commit ended it (SQLite may roll back by itself).
//
// Changes made by other connections (the writer of a pool, another queue,
// another process): every schema change increments the `schema_version` of
// its database. Before the cache is used, the version of main (and of the
// attached databases in the cache) is read and compared with the version the
// cache was filled at; any difference clears the cache. Inside a transaction,
// no other connection can change the schema this one sees, so the check is
// done once per transaction; outside of one, on each use. A pool read begins
// by reading the version anyway, to take its snapshot: the check is free.
//
// Clearing the schema cache clears the statement cache too: a statement
// compiled against the old schema (`SELECT *`) would keep its old columns.

extension Database {
    /// The schema version of the main database (`PRAGMA schema_version`),
    /// which SQLite increments whenever the schema changes.
    ///
    /// ```swift
    /// let version = try dbQueue.read { db in try db.schemaVersion() }
    /// ```
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_schema_version>
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails.
    public func schemaVersion() throws -> Int32 {
        try fetchSchemaVersion(of: .main)
    }

    /// Forgets what the connection knows of the database schema (tables,
    /// columns, primary keys, indexes, foreign keys), and its cached
    /// statements.
    ///
    /// The cache is cleared by itself when this connection changes the
    /// schema, and when another connection or process did (it compares
    /// `PRAGMA schema_version` before use): call this method only if the
    /// schema changed in a way SQLite does not count as a schema change.
    public func clearSchemaCache() {
        schemaCache.removeAll()
        statementCacheRemoveAll()
    }

    func fetchSchemaVersion(of schemaID: DatabaseSchemaID) throws -> Int32 {
        let sql = schemaID == .main ? "PRAGMA schema_version" : "PRAGMA \(schemaID.quotedName).schema_version"
        guard let version = try Int32.fetchOne(cachedStatement(sql: sql)) else {
            throw DatabaseError(message: "no schema version for \(schemaID.name)")
        }
        return version
    }

    /// Makes sure the schema cache matches the database before it is used:
    /// clears it if another connection changed the schema since it was
    /// filled. Called once by each public schema method.
    func validateSchemaCache() throws {
        schemaCacheValidationCount &+= 1
        if schemaCache.isValidForTransaction { return }
        let mainVersion = try fetchSchemaVersion(of: .main)
        var isStale = schemaCache.versions[.main].map { $0 != mainVersion } ?? false
        if !isStale {
            for (schemaID, version) in schemaCache.versions where schemaID != .main {
                if try fetchSchemaVersion(of: schemaID) != version {
                    isStale = true
                    break
                }
            }
        }
        if isStale {
            clearSchemaCache()
        }
        schemaCache.versions[.main] = mainVersion
        schemaCache.isValidForTransaction = isInsideTransaction
    }

    /// Begins the deferred transaction of a pool read and reads the schema
    /// version, which takes the snapshot and checks the schema cache at once.
    func beginSnapshotTransactionCheckingSchema() throws {
        try beginTransaction(.deferred)
        let version: Int32
        do {
            version = try fetchSchemaVersion(of: .main)
        } catch {
            try? rollback()
            throw error
        }
        if let known = schemaCache.versions[.main], known != version {
            clearSchemaCache()
        }
        schemaCache.versions[.main] = version
        // Attached databases in the cache are checked on first use.
        schemaCache.isValidForTransaction = schemaCache.versions.count == 1
    }

    /// Called when a statement that changes the schema, rolls back or
    /// commits has run, before the end of its transaction is noticed.
    func statementDidRun(withSchemaEffects effects: StatementSchemaEffects) {
        if effects.contains(.changesSchema) {
            clearSchemaCache()
            if isInsideTransaction {
                schemaCache.hasSchemaChangeInTransaction = true
            }
        } else if effects.contains(.rollsBack) && schemaCache.hasSchemaChangeInTransaction {
            clearSchemaCache()
        } else if effects.contains(.commits) && !isInsideTransaction {
            // Committed: what was read after the changes stays true.
            schemaCache.hasSchemaChangeInTransaction = false
        }
    }

    /// Called when a transaction begins or ends.
    func schemaCacheTransactionDidBeginOrEnd() {
        schemaCache.isValidForTransaction = false
        if schemaCache.hasSchemaChangeInTransaction {
            // Rolled back, maybe by SQLite after an error: whatever was
            // read inside is no longer true.
            schemaCache.hasSchemaChangeInTransaction = false
            clearSchemaCache()
        }
    }
}
