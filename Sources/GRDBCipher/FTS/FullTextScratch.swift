/// The private in-memory database where strings are tokenized and patterns
/// checked, shared by the process: its tables (one per tokenizer, one per
/// set of pattern columns) are created once, where a fresh database for each
/// pattern costs ten times more (about 0.7 ms in a debug build, against
/// 0.05 ms).
///
/// A failure in the shared database is never reported from it: callers then
/// run GRDB's own statements in a fresh database, so that errors (and their
/// SQL) are GRDB's.
final class FullTextScratch: @unchecked Sendable {
    // Safe: the tables dictionaries are only touched inside an access of
    // `dbQueue`, which is serial.
    private let dbQueue: DatabaseQueue
    private var tokenTables: [String: String] = [:]
    private var patternTables: [[String]: String] = [:]
    private var asciiTokenizer: (any FTS5Tokenizer)?
    private var hasDocumentsTable = false
    private var createdTableCount = 0

    /// At most this many tables of each kind; then they are all dropped.
    private static let maximumTableCount = 32

    static let shared: FullTextScratch? = try? FullTextScratch()

    private init() throws {
        var configuration = Configuration()
        configuration.label = "GRDBCipher.FullTextScratch"
        dbQueue = try DatabaseQueue(configuration: configuration)
    }

    /// The tokens of an FTS3 tokenizer, or nil if it failed.
    func fts3Tokens(_ string: String, tokenizer: FTS3TokenizerDescriptor) -> [String]? {
        try? dbQueue.inDatabase { db in
            let arguments = ([tokenizer.name] + tokenizer.arguments.map { "\"\($0)\"" }).joined(separator: ", ")
            let table = try table(for: arguments, in: &tokenTables, db) { name in
                "CREATE VIRTUAL TABLE \(name) USING fts3tokenize(\(arguments))"
            }
            return try String.fetchAll(
                db, sql: "SELECT token FROM \(table) WHERE input = ? ORDER BY position", arguments: [string])
        }
    }

    /// The query tokens of FTS5's `ascii` tokenizer, without colocated
    /// ones, or nil if it failed.
    func fts5QueryTokens(_ string: String) -> [String]? {
        try? dbQueue.inDatabase { db in
            let tokenizer = try asciiTokenizer ?? db.makeTokenizer(.ascii())
            asciiTokenizer = tokenizer
            return try tokenizer.tokenize(query: string).compactMap { token, flags in
                flags.contains(.colocated) ? nil : token
            }
        }
    }

    /// Whether SQLite accepts an FTS3 pattern; false if the check failed.
    func acceptsFTS3Pattern(_ pattern: String) -> Bool {
        (try? dbQueue.inDatabase { db in
            // GRDB's table and column names, which a pattern may name.
            if !hasDocumentsTable {
                try db.execute(sql: "CREATE VIRTUAL TABLE documents USING fts3()")
                hasDocumentsTable = true
            }
            _ = try Row.fetchOne(db, sql: "SELECT * FROM documents WHERE content MATCH ?", arguments: [pattern])
            return true
        }) ?? false
    }

    /// Whether SQLite accepts an FTS5 pattern on a table with these columns;
    /// false if the check failed.
    func acceptsFTS5Pattern(_ pattern: String, columns: [String]) -> Bool {
        // GRDB checks on a table named "document", which SQLite cannot
        // create with a column of that name: leave that case to GRDB's way.
        if columns.contains(where: { $0.lowercased() == "document" }) { return false }
        return (try? dbQueue.inDatabase { db in
            let table = try self.table(for: columns, in: &patternTables, db) { name in
                // Column names as GRDB writes them, unquoted.
                "CREATE VIRTUAL TABLE \(name) USING fts5(\(columns.joined(separator: ", ")))"
            }
            _ = try Row.fetchOne(db, sql: "SELECT * FROM \(table) WHERE \(table) MATCH ?", arguments: [pattern])
            return true
        }) ?? false
    }

    /// The name of the table for `key`, created by `sql(name)` the first time.
    private func table<Key: Hashable>(
        for key: Key,
        in tables: inout [Key: String],
        _ db: Database,
        sql: (String) -> String) throws -> String
    {
        if let name = tables[key] { return name }
        if tables.count >= Self.maximumTableCount {
            for name in tables.values { try db.execute(sql: "DROP TABLE \(name)") }
            tables.removeAll()
        }
        // A counter, not the dictionaries' sizes: `tables` is one of them,
        // and is being modified.
        createdTableCount += 1
        let name = "t\(createdTableCount)"
        try db.execute(sql: sql(name))
        tables[key] = name
        return name
    }
}
