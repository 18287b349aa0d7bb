import CSQLCipher

/// The FTS5 full-text engine: a ``VirtualTableModule`` for
/// ``Database/create(virtualTable:options:using:_:)``. SQLCipher 4.6.1
/// is built with FTS5.
///
/// ```swift
/// // CREATE VIRTUAL TABLE "book" USING fts5(title, author, body, tokenize='porter')
/// try db.create(virtualTable: "book", using: FTS5()) { t in
///     t.tokenizer = .porter()
///     t.column("title")
///     t.column("author")
///     t.column("body")
/// }
/// ```
public struct FTS5 {
    /// How the `unicode61` tokenizer treats diacritics.
    public enum Diacritics: Sendable {
        /// Diacritics are kept: "jérôme" does not match "jerome".
        case keep
        /// Diacritics are removed from Latin characters that carry one
        /// (SQLite's `remove_diacritics 1`, the default).
        case removeLegacy
        /// Diacritics are removed from all Latin characters
        /// (`remove_diacritics 2`).
        case remove
    }

    /// The FTS5 module.
    public init() { }

    /// The tokens of a query string for the `ascii` tokenizer, without
    /// colocated tokens, tokenized in a private in-memory database.
    static func tokenize(query string: String) throws -> [String] {
        if let tokens = FullTextScratch.shared?.fts5QueryTokens(string) { return tokens }
        return try DatabaseQueue().inDatabase { db in
            try db.makeTokenizer(.ascii()).tokenize(query: string).compactMap { token, flags in
                flags.contains(.colocated) ? nil : token
            }
        }
    }

    /// The FTS5 C API of a connection (`fts5_api`), for custom tokenizers
    /// and auxiliary functions written against SQLite's C interface.
    ///
    /// ```swift
    /// let api = FTS5.api(db)
    /// ```
    ///
    /// - precondition: SQLite was built with FTS5 (SQLCipher 4.6.1 is).
    public static func api(_ db: Database) -> UnsafePointer<fts5_api> {
        guard let api = fts5API(db.sqliteConnection) else {
            fatalError("FTS5 is not available")
        }
        return api
    }

    /// The type of the pointer that `fts5()` fills in.
    private static let fts5APIPointerType: StaticString = "fts5_api_ptr"

    /// The pointer that `SELECT fts5(?)` gives to the pointer bound as
    /// `fts5_api_ptr`, or nil.
    private static func fts5API(_ connection: SQLiteConnection?) -> UnsafePointer<fts5_api>? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, "SELECT fts5(?)", -1, &statement, nil) == SQLITE_OK else {
            return nil
        }
        defer { sqlite3_finalize(statement) }
        var api: UnsafeMutablePointer<fts5_api>?
        // fts5() writes the pointer when the statement steps: bind and step
        // while `api` is pinned. SQLite keeps the type name's pointer too:
        // a static string.
        withUnsafeMutablePointer(to: &api) { apiPointer in
            let bound = fts5APIPointerType.utf8Start.withMemoryRebound(
                to: CChar.self, capacity: fts5APIPointerType.utf8CodeUnitCount + 1)
            { name in
                sqlite3_bind_pointer(statement, 1, apiPointer, name, nil)
            }
            if bound == SQLITE_OK { _ = sqlite3_step(statement) }
        }
        return api.map { UnsafePointer($0) }
    }
}

extension FTS5: VirtualTableModule {
    /// `fts5`.
    public var moduleName: String { "fts5" }

    /// A new definition of an FTS5 table.
    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS5TableDefinition {
        FTS5TableDefinition(configuration: configuration)
    }

    /// The columns (`UNINDEXED` ones too), then the `tokenize`, `content`,
    /// `content_rowid`, `prefix`, `columnSize` and `detail` options, with
    /// strings written as SQL string literals.
    ///
    /// - precondition: The table has at least one column (a trap, as in GRDB).
    public func moduleArguments(for definition: FTS5TableDefinition, in db: Database) throws -> [String] {
        precondition(!definition.columns.isEmpty, "FTS5 virtual table requires at least one column.")
        var arguments = definition.columns.map { column in
            column.isIndexed ? column.name : "\(column.name) UNINDEXED"
        }
        // Strings are quoted by SQLite's QUOTE(), one statement each, as GRDB
        // quotes them.
        func quoted(_ string: String) throws -> String { try db.quotedSQL(string.databaseValue) }
        if let tokenizer = definition.tokenizer {
            let components = try tokenizer.components.map(quoted).joined(separator: " ")
            arguments.append("tokenize=\(try quoted(components))")
        }
        if let contentTable = definition.synchronizedTable {
            arguments.append("content=\(try quoted(contentTable))")
            if let rowIDColumn = try db.primaryKey(contentTable).rowIDColumn {
                arguments.append("content_rowid=\(try quoted(rowIDColumn))")
            }
        } else {
            if let content = definition.content {
                arguments.append("content=\(try quoted(content))")
            }
            if let contentRowID = definition.contentRowID {
                arguments.append("content_rowid=\(try quoted(contentRowID))")
            }
        }
        if let prefixes = definition.prefixes {
            arguments.append("prefix=\(try quoted(prefixes.sorted().map(String.init).joined(separator: " ")))")
        }
        if let columnSize = definition.columnSize {
            arguments.append("columnSize=\(columnSize)")
        }
        if let detail = definition.detail {
            arguments.append("detail=\(detail)")
        }
        return arguments
    }

    /// For a table synchronized with a content table: the triggers that
    /// keep the index up to date, then the indexing of the rows already in
    /// the content table.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS5TableDefinition) throws {
        guard let contentTable = definition.synchronizedTable else { return }
        let sync = try FullTextSynchronization(
            db, engine: "FTS5", ftsTable: tableName, contentTable: contentTable,
            columns: definition.columns.map(\.name), configuration: definition.configuration)
        let ftsColumns = sync.ftsColumns(rowID: "rowid")
        let newValues = sync.values(of: "new")
        let oldValues = sync.values(of: "old")
        try db.execute(sql: """
            \(sync.createTrigger(suffix: "ai", "AFTER INSERT")) BEGIN
                INSERT INTO \(sync.fts)(\(ftsColumns)) VALUES (\(newValues));
            END;
            \(sync.createTrigger(suffix: "ad", "AFTER DELETE")) BEGIN
                INSERT INTO \(sync.fts)(\(sync.fts), \(ftsColumns)) VALUES('delete', \(oldValues));
            END;
            \(sync.createTrigger(suffix: "au", "AFTER UPDATE")) BEGIN
                INSERT INTO \(sync.fts)(\(sync.fts), \(ftsColumns)) VALUES('delete', \(oldValues));
                INSERT INTO \(sync.fts)(\(ftsColumns)) VALUES (\(newValues));
            END;
            """)
        try sync.rebuild()
    }
}

/// The definition of an FTS5 table, filled in by the body of
/// ``Database/create(virtualTable:options:using:_:)``.
///
/// ```swift
/// try db.create(virtualTable: "document", using: FTS5()) { t in
///     t.column("content")
///     t.column("uuid").notIndexed()
///     t.prefixes = [2, 4]
///     t.detail = "column"
/// }
/// ```
///
/// See <https://www.sqlite.org/fts5.html#fts5_table_creation_and_initialization>
/// for the options.
public final class FTS5TableDefinition {
    let configuration: VirtualTableConfiguration
    /// The columns, in order.
    var columns: [FTS5ColumnDefinition] = []
    /// The content table that ``synchronize(withTable:)`` named.
    var synchronizedTable: String?
    private var rawContent: String?
    private var rawContentRowID: String?

    /// The tokenizer; nil uses SQLite's default, `unicode61`.
    public var tokenizer: FTS5TokenizerDescriptor?

    /// The `content` option: `""` for a contentless table, or the name of
    /// an external content table. Setting it undoes
    /// ``synchronize(withTable:)``.
    public var content: String? {
        get { synchronizedTable ?? rawContent }
        set {
            if synchronizedTable != nil { rawContentRowID = nil }
            synchronizedTable = nil
            rawContent = newValue
        }
    }

    /// The `content_rowid` option: the rowid column of the external content
    /// table. Setting it undoes ``synchronize(withTable:)``.
    public var contentRowID: String? {
        get { synchronizedTable == nil ? rawContentRowID : nil }
        set {
            if synchronizedTable != nil { rawContent = nil }
            synchronizedTable = nil
            rawContentRowID = newValue
        }
    }

    /// The `prefix` option: prefix lengths that get an index of their own.
    public var prefixes: Set<Int>?

    /// The `columnSize` option: 0 stores no column sizes.
    public var columnSize: Int?

    /// The `detail` option: `full`, `column` or `none`.
    public var detail: String?

    init(configuration: VirtualTableConfiguration) {
        self.configuration = configuration
    }

    /// Adds a column. Full-text columns have no type: they hold text.
    @discardableResult
    public func column(_ name: String) -> FTS5ColumnDefinition {
        let column = FTS5ColumnDefinition(name: name)
        columns.append(column)
        return column
    }

    /// Makes the table an external content table of `tableName`, kept up to
    /// date by triggers on that table; the rows it already has are indexed
    /// when the full-text table is created.
    ///
    /// ```swift
    /// try db.create(virtualTable: "book_ft", using: FTS5()) { t in
    ///     t.synchronize(withTable: "book")
    ///     t.column("title")
    /// }
    /// ```
    ///
    /// The triggers remain when the full-text table is dropped: drop them
    /// with ``Database/dropFTS5SynchronizationTriggers(forTable:)``.
    /// Temporary synchronized tables are not supported (a trap, as in GRDB).
    public func synchronize(withTable tableName: String) {
        synchronizedTable = tableName
    }
}

@available(*, unavailable)
extension FTS5TableDefinition: Sendable { }

/// A column of an FTS5 table.
public final class FTS5ColumnDefinition {
    let name: String
    var isIndexed = true

    init(name: String) {
        self.name = name
    }

    /// The column is stored but not indexed: `column UNINDEXED`.
    @discardableResult
    public func notIndexed() -> Self {
        isIndexed = false
        return self
    }
}

@available(*, unavailable)
extension FTS5ColumnDefinition: Sendable { }

extension Column {
    /// FTS5's hidden `rank` column: order by it for the most relevant
    /// results first.
    ///
    /// ```swift
    /// let books = try Book.matching(pattern).order(Column.rank).fetchAll(db)
    /// ```
    public static let rank = Column("rank")
}

extension Database {
    /// Drops the triggers that kept a full-text table created with
    /// ``FTS5TableDefinition/synchronize(withTable:)`` up to date. SQLite
    /// drops them with the content table, but not with the full-text table:
    /// left behind, they make every write to the content table fail.
    ///
    /// ```swift
    /// try db.drop(table: "book_ft")
    /// try db.dropFTS5SynchronizationTriggers(forTable: "book_ft")
    /// ```
    ///
    /// - parameter tableName: The name of the full-text table.
    /// - throws: A ``DatabaseError``.
    public func dropFTS5SynchronizationTriggers(forTable tableName: String) throws {
        try dropSynchronizationTriggers(of: tableName, suffixes: ["ai", "ad", "au"])
    }
}
