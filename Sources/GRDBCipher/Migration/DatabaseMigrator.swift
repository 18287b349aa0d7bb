/// Registers migrations, and applies those a database lacks, in order, once
/// and only once.
///
/// Each migration has an identifier and a closure. The migrator records the
/// identifiers of applied migrations in the database itself, in the
/// `grdb_migrations` table that GRDB uses, so that a database migrated by a
/// GRDB app (on iOS with SQLCipher, say) goes on migrating here.
///
/// ```swift
/// var migrator = DatabaseMigrator()
/// migrator.registerMigration("createAuthor") { db in
///     try db.execute(sql: """
///         CREATE TABLE author (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL)
///         """)
/// }
/// migrator.registerMigration("createBook") { db in
///     try db.execute(sql: """
///         CREATE TABLE book (
///           id INTEGER PRIMARY KEY AUTOINCREMENT,
///           authorId INTEGER NOT NULL REFERENCES author(id) ON DELETE CASCADE,
///           title TEXT NOT NULL)
///         """)
/// }
///
/// let dbPool = try DatabasePool(path: "/var/lib/app/db.sqlite", configuration: config)
/// try migrator.migrate(dbPool)
/// ```
///
/// Each migration runs in its own `IMMEDIATE` transaction, which also
/// records its identifier: if it throws, the transaction is rolled back,
/// later migrations do not run, and the error is rethrown. By default a
/// migration runs with foreign keys off and checks them all before its
/// commit (see ``ForeignKeyChecks``).
///
/// Databases versioned with `PRAGMA user_version` (SQLite.swift and many
/// other tools) are adopted with
/// ``registerMigration(_:appliedIfUserVersionAtLeast:foreignKeyChecks:migrate:)``.
public struct DatabaseMigrator: Sendable {
    /// How a migration treats foreign key constraints.
    ///
    /// Both are ignored when the connection does not enforce foreign keys
    /// (``Configuration/foreignKeysEnabled`` is false): the migration then
    /// runs as it is, in its transaction.
    public enum ForeignKeyChecks: Sendable {
        /// The migration runs with foreign keys off, and all foreign keys of
        /// the database are checked right before its commit: a violation
        /// fails the migration with a ``DatabaseError`` whose extended code
        /// is `SQLITE_CONSTRAINT_FOREIGNKEY` and whose message names the
        /// table and the row:
        ///
        /// ```
        /// FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:1 authorId:2 title:"Moby-Dick"]
        /// ```
        ///
        /// This is what a migration that recreates a table needs (see
        /// <https://www.sqlite.org/lang_altertable.html#otheralter>).
        ///
        /// In a migrator made by ``DatabaseMigrator/disablingDeferredForeignKeyChecks()``,
        /// migrations registered afterwards with `.deferred` run with foreign
        /// keys off and are not checked; they can check what they need with
        /// ``Database/checkForeignKeys()`` or ``Database/checkForeignKeys(in:in:)``.
        case deferred

        /// The migration runs with foreign keys on: SQLite checks every
        /// statement. Faster on big databases, but it must not recreate
        /// tables, since dropping a referenced table would fail or cascade.
        case immediate
    }

    /// Whether the migrator erases the database and migrates it from
    /// scratch when it finds that migrations changed: a migration was
    /// removed or renamed, or the schema (the `sqlite_master` table) differs
    /// from the one the applied migrations create.
    ///
    /// - warning: This destroys the database content: every table, index,
    ///   view and trigger, with their rows, and sets `user_version` to 0.
    ///   It is meant for development only, while migrations are still being
    ///   written. Never ship it:
    ///
    /// ```swift
    /// var migrator = DatabaseMigrator()
    /// #if DEBUG
    /// migrator.eraseDatabaseOnSchemaChange = true
    /// #endif
    /// ```
    ///
    /// To compare schemas, the migrator runs the applied migrations on an
    /// empty in-memory database (see ``hasSchemaChanges(_:)``): no
    /// temporary file is written, so nothing is ever stored unencrypted.
    public var eraseDatabaseOnSchemaChange = false

    /// Whether migrations registered from now on with `.deferred` checks
    /// check foreign keys before their commit.
    private var defersForeignKeyChecks = true

    /// The registered migrations, in order.
    private(set) var registeredMigrations: [Migration] = []

    /// A migrator with no migration.
    public init() {}

    /// The identifiers of the registered migrations, in the order of
    /// registration.
    public var migrations: [String] {
        registeredMigrations.map(\.identifier)
    }

    /// Returns a migrator whose migrations registered from now on with
    /// `.deferred` foreign key checks run with foreign keys off, and are
    /// not checked before their commit. Migrations registered before, and
    /// migrations registered with `.immediate`, keep their checks.
    ///
    /// ```swift
    /// var migrator = DatabaseMigrator()
    /// migrator.registerMigration("A") { db in ... }  // checked before commit
    /// migrator = migrator.disablingDeferredForeignKeyChecks()
    /// migrator.registerMigration("B") { db in ... }  // not checked
    /// migrator.registerMigration("C", foreignKeyChecks: .immediate) { db in ... } // checked by SQLite
    /// ```
    ///
    /// - warning: Such migrations can commit rows that break foreign keys.
    ///   It is then up to them to call ``Database/checkForeignKeys()`` or
    ///   ``Database/checkForeignKeys(in:in:)``. It makes migrations of huge
    ///   databases faster.
    public func disablingDeferredForeignKeyChecks() -> DatabaseMigrator {
        var migrator = self
        migrator.defersForeignKeyChecks = false
        return migrator
    }

    /// Registers a migration, to run after the migrations registered before.
    ///
    /// ```swift
    /// migrator.registerMigration("createPlayer") { db in
    ///     try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    /// }
    /// ```
    ///
    /// The closure runs on the writer's connection, in a transaction (see
    /// ``DatabaseMigrator``). The `Database` it gets is only valid during
    /// the call.
    ///
    /// - parameters:
    ///   - identifier: The identifier, recorded in `grdb_migrations`. Never
    ///     rename a migration that shipped.
    ///   - foreignKeyChecks: How the migration treats foreign keys. Default
    ///     `.deferred`: off during the migration, checked before its commit.
    ///   - migrate: The migration.
    /// - precondition: No migration with this identifier is registered yet.
    public mutating func registerMigration(
        _ identifier: String,
        foreignKeyChecks: ForeignKeyChecks = .deferred,
        migrate: @escaping @Sendable (Database) throws -> Void)
    {
        register(Migration(
            identifier: identifier, mergedIdentifiers: [], foreignKeyMode: foreignKeyMode(foreignKeyChecks),
            adoptedFromUserVersion: nil, body: { db, _ in try migrate(db) }))
    }

    /// Registers a migration that replaces older ones, to run after the
    /// migrations registered before.
    ///
    /// An app that squashes migrations "v1", "v2" and "v3" into one keeps
    /// databases that already applied some of them working: the closure
    /// gets the merged identifiers the database has applied, and does only
    /// what is missing. Once it has run (or, if the database had already
    /// applied it, at the next migration), the merged identifiers are
    /// removed from `grdb_migrations`.
    ///
    /// ```swift
    /// migrator.registerMigration("v3", merging: ["v1", "v2"]) { db, appliedIdentifiers in
    ///     if !appliedIdentifiers.contains("v1") { /* schema version 1 */ }
    ///     if !appliedIdentifiers.contains("v2") { /* schema version 2 */ }
    ///     // schema version 3
    /// }
    /// ```
    ///
    /// The merged migration may take the identifier of one of the migrations
    /// it merges (usually the last one): that identifier is not counted
    /// among the merged ones.
    ///
    /// - parameters:
    ///   - identifier: The identifier, recorded in `grdb_migrations`.
    ///   - foreignKeyChecks: How the migration treats foreign keys. Default `.deferred`.
    ///   - mergedIdentifiers: The identifiers of the migrations it replaces.
    ///   - migrate: The migration, and the merged identifiers the database
    ///     has applied.
    /// - precondition: No migration with this identifier is registered yet.
    public mutating func registerMigration(
        _ identifier: String,
        foreignKeyChecks: ForeignKeyChecks = .deferred,
        merging mergedIdentifiers: Set<String> = [],
        migrate: @escaping @Sendable (_ db: Database, _ appliedIdentifiers: Set<String>) throws -> Void)
    {
        // A migration that lists itself among those it merges would delete
        // its own record once applied, and run again: it merges the others.
        var mergedIdentifiers = mergedIdentifiers
        mergedIdentifiers.remove(identifier)
        register(Migration(
            identifier: identifier, mergedIdentifiers: mergedIdentifiers,
            foreignKeyMode: foreignKeyMode(foreignKeyChecks), adoptedFromUserVersion: nil, body: migrate))
    }

    /// Registers a migration that counts as applied, without running, in a
    /// database that has no record of it in `grdb_migrations` and whose
    /// `PRAGMA user_version` is at least `userVersion`. A GRDBCipher
    /// extension, to adopt databases versioned with `user_version`, as
    /// SQLite.swift and many other tools do.
    ///
    /// Register one such migration per old version step, first, then the
    /// new migrations:
    ///
    /// ```swift
    /// // The SQLite.swift app ran step 1 at user_version 0, and set it to 1, etc.
    /// migrator.registerMigration("createUser", appliedIfUserVersionAtLeast: 1) { db in
    ///     try db.execute(sql: "CREATE TABLE user (id INTEGER PRIMARY KEY, email TEXT NOT NULL)")
    /// }
    /// migrator.registerMigration("addUserName", appliedIfUserVersionAtLeast: 2) { db in
    ///     try db.execute(sql: "ALTER TABLE user ADD COLUMN name TEXT")
    /// }
    /// migrator.registerMigration("createPost") { db in ... }
    /// try migrator.migrate(dbPool)
    /// ```
    ///
    /// A database at `user_version` 1 records "createUser" as applied and
    /// runs "addUserName" and "createPost"; a new database (version 0) runs
    /// them all. The adopted identifiers are recorded in `grdb_migrations`
    /// in one transaction, before the first migration runs; from then on
    /// `user_version` no longer matters to them. The migrator never writes
    /// `user_version`: a migration can, with ``Database/setUserVersion(_:)``.
    ///
    /// The query methods (``appliedMigrations(_:)``, ``hasCompletedMigrations(_:)``,
    /// ...) count such migrations as applied, even before a migration
    /// records them.
    ///
    /// The version lives next to the migration it describes (rather than in
    /// a table given to the migrator): a step cannot name a migration that
    /// does not exist, and the order of the steps is the order of
    /// registration.
    ///
    /// - parameters:
    ///   - identifier: The identifier, recorded in `grdb_migrations`.
    ///   - userVersion: The `user_version` the old tool set once this step
    ///     was done (greater than 0).
    ///   - foreignKeyChecks: How the migration treats foreign keys when it
    ///     runs. Default `.deferred`.
    ///   - migrate: The migration, for databases that lack this step.
    /// - precondition: No migration with this identifier is registered yet;
    ///   `userVersion` is greater than 0, and not smaller than the one of
    ///   the previous migration; every migration registered before was
    ///   registered with this method.
    public mutating func registerMigration(
        _ identifier: String,
        appliedIfUserVersionAtLeast userVersion: Int,
        foreignKeyChecks: ForeignKeyChecks = .deferred,
        migrate: @escaping @Sendable (Database) throws -> Void)
    {
        precondition(userVersion > 0, "user_version \(userVersion) of migration \(String(reflecting: identifier)) must be greater than 0")
        if let previous = registeredMigrations.last {
            guard let previousVersion = previous.adoptedFromUserVersion else {
                preconditionFailure(
                    "migration \(String(reflecting: identifier)) adopted from a user_version must be "
                        + "registered before \(String(reflecting: previous.identifier)), which is not")
            }
            precondition(
                previousVersion <= userVersion,
                "user_version \(userVersion) of migration \(String(reflecting: identifier)) is smaller "
                    + "than \(previousVersion), the one of \(String(reflecting: previous.identifier))")
        }
        register(Migration(
            identifier: identifier, mergedIdentifiers: [], foreignKeyMode: foreignKeyMode(foreignKeyChecks),
            adoptedFromUserVersion: userVersion, body: { db, _ in try migrate(db) }))
    }

    private func foreignKeyMode(_ checks: ForeignKeyChecks) -> Migration.ForeignKeyMode {
        switch checks {
        case .deferred: defersForeignKeyChecks ? .deferred : .unchecked
        case .immediate: .immediate
        }
    }

    private mutating func register(_ migration: Migration) {
        precondition(
            !registeredMigrations.contains { $0.identifier == migration.identifier },
            "already registered migration: \(String(reflecting: migration.identifier))")
        registeredMigrations.append(migration)
    }
}
