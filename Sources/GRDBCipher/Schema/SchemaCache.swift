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

    /// The INSERT and UPDATE statements of records, by record type and
    /// shape: they depend on primary keys, so they go with the schema.
    /// A short list, searched linearly: comparing keys costs less than
    /// hashing one.
    var persistencePlans: [PersistencePlan] = []

    /// The compiled `fetchOne(_:key:)` of record types; a short list too.
    var keyLookupPlans: [KeyLookupPlan] = []

    /// Stores a plan, replacing the one of the same key.
    mutating func setPersistencePlan(_ plan: PersistencePlan) {
        if let index = persistencePlans.firstIndex(where: { $0.key == plan.key }) {
            persistencePlans[index] = plan
        } else {
            persistencePlans.append(plan)
        }
    }

    /// Incremented each time the cache is cleared: SQL generated from what
    /// the cache knew holds while the generation is the same.
    private(set) var generation = 0

    /// Forgets everything read from the database.
    mutating func removeAll() {
        generation &+= 1
        schemaIDs = nil
        entries.removeAll()
        versions.removeAll()
        persistencePlans.removeAll()
        keyLookupPlans.removeAll()
        isValidForTransaction = false
    }
}
