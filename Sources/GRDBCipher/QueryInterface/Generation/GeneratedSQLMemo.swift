/// The SQL a query-interface request generated, kept so that fetching the
/// same request again does not generate it again: its statement then comes
/// straight from the statement cache.
///
/// A request holds one memo, shared by its copies, and gets a new one
/// whenever its relation changes. Each entry remembers the connection it
/// was generated on, and the schema cache it may have read (a primary key,
/// the columns of `allColumns(excluding:)`): an entry is reused only on the
/// same connection, and, when its SQL read the schema, only while that
/// connection's schema cache has not been cleared since.
final class GeneratedSQLMemo: Sendable {
    /// The statements a request generates.
    enum Kind: Equatable {
        case select
        case selectForSingleResult
        case count
        case exists
    }

    private struct Entry {
        let kind: Kind
        weak var database: Database?
        /// The schema cache generation the SQL read, or nil when its
        /// generation read no schema.
        let schemaGeneration: Int?
        let sql: String
        let arguments: StatementArguments
        /// The adapter of the fetched rows (requests with associations).
        let adapter: (any RowAdapter)?
    }

    private let entries = LockedValue<[Entry]>([])

    /// Whether the memo keeps what it generates. A request with clauses of
    /// its user resolved when it runs (`filterWhenConnected`...) generates
    /// its SQL at each fetch, as GRDB calls those closures each time.
    private let keepsSQL: Bool

    init(keepsSQL: Bool = true) {
        self.keepsSQL = keepsSQL
    }

    /// How many times the memo had the SQL generated (for tests).
    var generationCount: Int { generations.withLock { $0 } }
    private let generations = LockedValue(0)

    /// The SQL and arguments of `kind`: the memo's, when they still hold on
    /// this connection, or those `generate` returns (and the memo keeps).
    func sql(
        _ db: Database, _ kind: Kind,
        generate: () throws -> (String, StatementArguments)) throws -> (String, StatementArguments)
    {
        let (sql, arguments, _) = try sqlAndAdapter(db, kind) {
            let (sql, arguments) = try generate()
            return (sql, arguments, nil)
        }
        return (sql, arguments)
    }

    /// The SQL, arguments and row adapter of `kind`: the memo's, when they
    /// still hold on this connection, or those `generate` returns (and the
    /// memo keeps).
    func sqlAndAdapter(
        _ db: Database, _ kind: Kind,
        generate: () throws -> (String, StatementArguments, (any RowAdapter)?))
    throws -> (String, StatementArguments, (any RowAdapter)?)
    {
        guard keepsSQL else {
            generations.withLock { $0 += 1 }
            return try generate()
        }
        let entry = entries.withLock { entries in entries.first { $0.kind == kind && $0.database === db } }
        if let entry {
            guard let generation = entry.schemaGeneration else {
                return (entry.sql, entry.arguments, entry.adapter)
            }
            try db.validateSchemaCache()
            if db.schemaCache.generation == generation {
                return (entry.sql, entry.arguments, entry.adapter)
            }
        }
        let validations = db.schemaCacheValidationCount
        let (sql, arguments, adapter) = try generate()
        generations.withLock { $0 += 1 }
        let readsSchema = db.schemaCacheValidationCount != validations
        let fresh = Entry(
            kind: kind, database: db, schemaGeneration: readsSchema ? db.schemaCache.generation : nil,
            sql: sql, arguments: arguments, adapter: adapter)
        entries.withLock { entries in
            // One entry per statement kind and live connection (a pool's
            // readers each have theirs).
            entries.removeAll { ($0.kind == kind && $0.database === db) || $0.database == nil }
            entries.append(fresh)
        }
        return (sql, arguments, adapter)
    }
}
