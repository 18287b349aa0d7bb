/// One registered migration: its identifier, how it treats foreign keys, and
/// its body. Running it is the only way to call the body, so every run gets
/// the same guarantees: one immediate transaction that also records the
/// identifier in `grdb_migrations`, and the foreign-key handling below.
struct Migration: Sendable {
    /// How the run treats foreign keys, once the migrator's settings are applied.
    enum ForeignKeyMode: Sendable {
        /// Foreign keys off during the run, `PRAGMA foreign_key_check` before commit.
        case deferred
        /// Foreign keys stay on: SQLite checks each statement.
        case immediate
        /// Foreign keys off during the run, and no check: the body checks what it wants.
        case unchecked
    }

    typealias Body = @Sendable (_ db: Database, _ appliedMergedIdentifiers: Set<String>) throws -> Void

    let identifier: String

    /// Identifiers of older migrations this one replaces (see
    /// ``DatabaseMigrator/registerMigration(_:foreignKeyChecks:merging:migrate:)``).
    let mergedIdentifiers: Set<String>

    let foreignKeyMode: ForeignKeyMode

    /// The `user_version` from which the migration counts as applied
    /// without running (a GRDBCipher extension), or nil.
    let adoptedFromUserVersion: Int?

    private let body: Body

    init(
        identifier: String,
        mergedIdentifiers: Set<String>,
        foreignKeyMode: ForeignKeyMode,
        adoptedFromUserVersion: Int?,
        body: @escaping Body)
    {
        self.identifier = identifier
        self.mergedIdentifiers = mergedIdentifiers
        self.foreignKeyMode = foreignKeyMode
        self.adoptedFromUserVersion = adoptedFromUserVersion
        self.body = body
    }

    /// Runs the body in its own immediate transaction, and records the
    /// migration in `grdb_migrations` (removing the merged identifiers) in
    /// the same transaction. On error the transaction is rolled back and the
    /// error rethrown.
    ///
    /// When the connection enforces foreign keys, `.deferred` and
    /// `.unchecked` turn them off for the run: SQLite ignores
    /// `PRAGMA foreign_keys` inside a transaction, so it is set before
    /// `BEGIN` and restored after `COMMIT` or `ROLLBACK`, whatever happened.
    func run(_ db: Database, appliedMergedIdentifiers: Set<String>) throws {
        // Migrations see the schema as SQLite writes it, whatever the
        // configuration's schema source says: what they do cannot change
        // with a source added later.
        try db.withSchemaSource(nil) {
            try runWithoutSchemaSource(db, appliedMergedIdentifiers: appliedMergedIdentifiers)
        }
    }

    private func runWithoutSchemaSource(_ db: Database, appliedMergedIdentifiers: Set<String>) throws {
        let foreignKeysEnabled = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
        guard foreignKeysEnabled, foreignKeyMode != .immediate else {
            try runInTransaction(db, appliedMergedIdentifiers: appliedMergedIdentifiers, checksForeignKeys: false)
            return
        }
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        do {
            try runInTransaction(
                db, appliedMergedIdentifiers: appliedMergedIdentifiers,
                checksForeignKeys: foreignKeyMode == .deferred)
        } catch {
            // The migration's error wins over a failure to restore.
            try? db.execute(sql: "PRAGMA foreign_keys = ON")
            throw error
        }
        try db.execute(sql: "PRAGMA foreign_keys = ON")
    }

    private func runInTransaction(
        _ db: Database, appliedMergedIdentifiers: Set<String>, checksForeignKeys: Bool) throws
    {
        try db.inTransaction(.immediate) {
            try body(db, appliedMergedIdentifiers)
            try deleteMergedIdentifiers(db)
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [identifier])
            if checksForeignKeys {
                // Throws the first violation, which names the table and the row.
                try db.checkForeignKeys()
            }
            return .commit
        }
    }

    /// Removes the rows of the merged migrations from `grdb_migrations`.
    /// One statement, `... IN (?,?)`, as GRDB deletes them; sorted, so that
    /// traces do not depend on the order of a set.
    func deleteMergedIdentifiers(_ db: Database) throws {
        if mergedIdentifiers.isEmpty { return }
        try db.execute(literal: "DELETE FROM grdb_migrations WHERE identifier IN \(mergedIdentifiers.sorted())")
    }
}
