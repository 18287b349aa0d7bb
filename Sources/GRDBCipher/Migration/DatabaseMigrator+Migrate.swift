// Applying migrations to a database.

extension DatabaseMigrator {
    /// Runs the registered migrations the database has not applied, in the
    /// order of registration, each in its own transaction.
    ///
    /// ```swift
    /// let dbPool = try DatabasePool(path: path, configuration: config)
    /// try migrator.migrate(dbPool)
    /// ```
    ///
    /// The migrations run in a barrier of the writer: on a ``DatabasePool``,
    /// reads wait until all migrations are done, and no read starts
    /// meanwhile, so readers see the schema from before or from after, never
    /// a part of the migrations. Migrations the database applied but this
    /// migrator does not know (see ``hasBeenSuperseded(_:)``) are ignored.
    ///
    /// In an `async` function, this call blocks its thread until the
    /// migrations are done; ``asyncMigrate(_:completion:)`` does not.
    ///
    /// - throws: The error of the first migration that fails (the migrations
    ///   before it stay applied, it and those after it are not), or a
    ///   ``DatabaseError``.
    public func migrate(_ writer: any DatabaseWriter) throws {
        guard let last = registeredMigrations.last else { return }
        try migrate(writer, upTo: last.identifier)
    }

    /// Runs the registered migrations the database has not applied, in the
    /// order of registration, up to and including `targetIdentifier`.
    ///
    /// ```swift
    /// try migrator.migrate(dbQueue, upTo: "v2")
    /// ```
    ///
    /// Migrations only run forward: asking for a migration the database
    /// has gone beyond is a programming error, as in GRDB.
    ///
    /// - precondition: `targetIdentifier` is a registered migration, and the
    ///   database has not applied a migration registered after it. Both
    ///   trap: "undefined migration: \"v9\"", and "database is already
    ///   migrated beyond migration \"v1\"".
    /// - throws: The error of the first migration that fails, or a ``DatabaseError``.
    public func migrate(_ writer: any DatabaseWriter, upTo targetIdentifier: String) throws {
        try writer.barrierWriteWithoutTransaction { db in
            try migrate(db, upTo: targetIdentifier)
        }
    }

    /// Runs the registered migrations the database has not applied, in the
    /// background, and calls `completion` on the writer's connection when
    /// they are done or one fails.
    ///
    /// ```swift
    /// migrator.asyncMigrate(dbPool) { result in
    ///     switch result {
    ///     case let .success(db): // the migrated database, valid during the call
    ///     case let .failure(error): ...
    ///     }
    /// }
    /// ```
    ///
    /// - parameter completion: Gets the writer's connection, or the error
    ///   that stopped the migrations.
    /// - parameter writer: The database to migrate.
    public func asyncMigrate(
        _ writer: any DatabaseWriter,
        completion: @escaping @Sendable (Result<Database, any Error>) -> Void)
    {
        writer.asyncBarrierWriteWithoutTransaction { result in
            do {
                let db = try result.get()
                if let last = registeredMigrations.last {
                    try migrate(db, upTo: last.identifier)
                }
                completion(.success(db))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Erases the database first if ``eraseDatabaseOnSchemaChange`` asks
    /// for it and the schema changed, then migrates up to the target.
    private func migrate(_ db: Database, upTo targetIdentifier: String) throws {
        // Checked before anything is written.
        guard let targetIndex = registeredMigrations.firstIndex(where: { $0.identifier == targetIdentifier }) else {
            fatalError("undefined migration: \(String(reflecting: targetIdentifier))")
        }
        if eraseDatabaseOnSchemaChange {
            var needsErase = false
            try db.inTransaction(.deferred) {
                needsErase = try hasSchemaChanges(db)
                return .commit
            }
            if needsErase {
                try db.erase()
                // A fresh start: migrations adopted from user_version must run.
                try db.setUserVersion(0)
            }
        }
        try runMigrations(db, upTo: targetIndex)
    }

    /// Creates `grdb_migrations` if needed, records the migrations adopted
    /// from `user_version`, and runs the missing ones up to `targetIndex`.
    func runMigrations(_ db: Database, upTo targetIndex: Int) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        try recordAdoptedMigrations(db)
        // The table is read twice, as GRDB reads it (the same statements in
        // traces): once to check the target, once to pick the migrations to
        // run. Both reads see the same rows, inside the same write access.
        let appliedBeforeTarget = try recordedIdentifiers(db)
        if let lastApplied = registeredMigrations.lastIndex(where: { appliedBeforeTarget.contains($0.identifier) }),
           lastApplied > targetIndex
        {
            let target = registeredMigrations[targetIndex].identifier
            fatalError("database is already migrated beyond migration \(String(reflecting: target))")
        }
        let applied = try recordedIdentifiers(db)
        for migration in registeredMigrations[...targetIndex] {
            if applied.contains(migration.identifier) {
                // Applied before its merged migrations were squashed into it:
                // forget them now.
                // forget them now, in one statement (atomic on its own).
                if !migration.mergedIdentifiers.isDisjoint(with: applied) {
                    try migration.deleteMergedIdentifiers(db)
                }
            } else {
                try migration.run(db, appliedMergedIdentifiers: migration.mergedIdentifiers.intersection(applied))
            }
        }
    }

    /// Records in `grdb_migrations`, in one transaction, the migrations
    /// that the database's `user_version` marks as applied.
    private func recordAdoptedMigrations(_ db: Database) throws {
        guard registeredMigrations.contains(where: { $0.adoptedFromUserVersion != nil }) else { return }
        try db.inTransaction(.immediate) {
            let recorded = try recordedIdentifiers(db)
            for identifier in try adoptableIdentifiers(db, recorded: recorded) {
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [identifier])
            }
            return .commit
        }
    }
}
