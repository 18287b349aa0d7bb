// What a database has applied, as a migrator sees it.

extension DatabaseMigrator {
    /// The identifiers of the registered migrations that the database has
    /// applied, in the order of registration.
    ///
    /// Migrations registered with
    /// ``registerMigration(_:appliedIfUserVersionAtLeast:foreignKeyChecks:migrate:)``
    /// count as applied when the database's `user_version` says so.
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails.
    public func appliedMigrations(_ db: Database) throws -> [String] {
        let applied = try appliedIdentifiers(db)
        return migrations.filter { applied.contains($0) }
    }

    /// The identifiers of all migrations the database has applied, including
    /// migrations this migrator does not know (applied by a newer version of
    /// the app).
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails.
    public func appliedIdentifiers(_ db: Database) throws -> Set<String> {
        let recorded = try recordedIdentifiers(db)
        return recorded.union(try adoptableIdentifiers(db, recorded: recorded))
    }

    /// The identifiers of the registered migrations that are completed, in
    /// the order of registration: a migration is completed when it and all
    /// the migrations registered before it are applied.
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails.
    public func completedMigrations(_ db: Database) throws -> [String] {
        let applied = try appliedIdentifiers(db)
        return Array(migrations.prefix { applied.contains($0) })
    }

    /// Whether the database has applied all registered migrations. As in
    /// GRDB, migrations this migrator does not know do not change the
    /// answer: ask ``hasBeenSuperseded(_:)`` for them.
    ///
    /// ```swift
    /// try dbPool.read { db in
    ///     if try !migrator.hasCompletedMigrations(db) { /* database too old */ }
    ///     if try migrator.hasBeenSuperseded(db) { /* database too new */ }
    /// }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails.
    public func hasCompletedMigrations(_ db: Database) throws -> Bool {
        try completedMigrations(db).last == migrations.last
    }

    /// Whether the database has applied migrations this migrator does not
    /// know: a newer version of the app has likely migrated it.
    ///
    /// ```swift
    /// if try dbPool.read(migrator.hasBeenSuperseded) {
    ///     // The database is too new for this version of the app.
    /// }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails.
    public func hasBeenSuperseded(_ db: Database) throws -> Bool {
        let known = Set(migrations)
        return try !recordedIdentifiers(db).isSubset(of: known)
    }

    /// The identifiers in `grdb_migrations`; empty when the table does not exist.
    func recordedIdentifiers(_ db: Database) throws -> Set<String> {
        guard try db.tableExists("grdb_migrations") else { return [] }
        return try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations")
    }

    /// The registered migrations that `user_version` marks as applied and
    /// that `grdb_migrations` does not record, in the order of registration.
    func adoptableIdentifiers(_ db: Database, recorded: Set<String>) throws -> [String] {
        let candidates = registeredMigrations.filter {
            $0.adoptedFromUserVersion != nil && !recorded.contains($0.identifier)
        }
        if candidates.isEmpty { return [] }
        let userVersion = try db.userVersion()
        return candidates.compactMap { migration in
            guard let version = migration.adoptedFromUserVersion, version <= userVersion else { return nil }
            return migration.identifier
        }
    }
}
