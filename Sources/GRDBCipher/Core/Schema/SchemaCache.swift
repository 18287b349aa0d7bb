/// What one connection knows of the database schema, so that code that
/// asks for a table's primary key on every insert does not run pragmas
/// every time.
///
/// The cache is only trusted when it is known to match the database; see
/// `Database+SchemaCache.swift` for when it is checked and cleared.
struct SchemaCache {
    /// A cached answer: a value, or the knowledge that the table is missing.
    enum Lookup<Value> {
        case found(Value)
        case missing

        var value: Value? {
            switch self {
            case .found(let value): value
            case .missing: nil
            }
        }
    }

    /// A schema object by type (`table`, `view`, `trigger`, `index`) and
    /// lowercased name: SQLite names are case-insensitive.
    struct ObjectKey: Hashable {
        var type: String
        var lowercasedName: String
    }

    /// What is known of one schema. Tables are keyed by lowercased name.
    struct Entries {
        /// The objects of the schema table, with their names as written.
        var objects: [ObjectKey: String]?
        var columns: [String: Lookup<[ColumnInfo]>] = [:]
        var primaryKeys: [String: Lookup<PrimaryKeyInfo>] = [:]
        var indexes: [String: Lookup<[IndexInfo]>] = [:]
        var foreignKeys: [String: Lookup<[ForeignKeyInfo]>] = [:]
    }

    /// The schemas, in SQLite's order of name resolution: temp, main, then
    /// attached databases.
    var schemaIDs: [DatabaseSchemaID]?

    /// What is known of each schema.
    var entries: [DatabaseSchemaID: Entries] = [:]

    /// The `schema_version` of each schema (main, and attached databases)
    /// when its entries were read. The temp schema is left out: only this
    /// connection can change it.
    var versions: [DatabaseSchemaID: Int32] = [:]

    /// Whether the cache was checked against the database inside the
    /// current transaction: until it ends, only this connection can change
    /// the schema, and it clears the cache when it does.
    var isValidForTransaction = false

    /// Whether this connection changed the schema inside the current
    /// transaction: a rollback undoes these changes, and the cache must
    /// forget what it read since.
    var hasSchemaChangeInTransaction = false

    /// What the layers above compiled from the schema (the statements of
    /// records, their lookups by key): kept here so that it goes whenever
    /// the schema is forgotten. The schema cache never looks inside.
    var compiledPlans: (any SchemaCompiledPlans)?

    /// Incremented each time the cache is cleared: SQL generated from what
    /// the cache knew holds while the generation is the same.
    private(set) var generation = 0

    /// Forgets everything read from the database.
    mutating func removeAll() {
        generation &+= 1
        schemaIDs = nil
        entries.removeAll()
        versions.removeAll()
        compiledPlans = nil
        isValidForTransaction = false
    }
}

/// Plans that layers above the schema cache compile from the schema, and
/// keep in ``SchemaCache/compiledPlans`` so that they are forgotten with it.
protocol SchemaCompiledPlans: AnyObject {}
