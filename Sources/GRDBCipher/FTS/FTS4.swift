/// The FTS4 full-text engine: a ``VirtualTableModule`` for
/// ``Database/create(virtualTable:options:using:_:)``.
///
/// ```swift
/// // CREATE VIRTUAL TABLE "book" USING fts4(title, author, body, tokenize=porter)
/// try db.create(virtualTable: "book", using: FTS4()) { t in
///     t.tokenizer = .porter
///     t.column("title")
///     t.column("author")
///     t.column("body")
/// }
/// ```
public struct FTS4 {
    /// The FTS4 module.
    public init() { }
}

extension FTS4: VirtualTableModule {
    /// `fts4`.
    public var moduleName: String { "fts4" }

    /// A new definition of an FTS4 table.
    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS4TableDefinition {
        FTS4TableDefinition(configuration: configuration)
    }

    /// The columns (with `notindexed=` and `languageid=`), then the
    /// tokenizer, `content`, `compress`, `uncompress`, `matchinfo` and
    /// `prefix` options.
    public func moduleArguments(for definition: FTS4TableDefinition, in db: Database) -> [String] {
        var arguments: [String] = []
        for column in definition.columns {
            if column.isLanguageId {
                arguments.append("languageid=\"\(column.name)\"")
                continue
            }
            arguments.append(column.name)
            if !column.isIndexed {
                arguments.append("notindexed=\(column.name)")
            }
        }
        if let tokenizer = definition.tokenizer {
            arguments.append(tokenizer.moduleArgument)
        }
        if let content = definition.content {
            arguments.append("content=\"\(content)\"")
        }
        if let compress = definition.compress {
            arguments.append("compress=\"\(compress)\"")
        }
        if let uncompress = definition.uncompress {
            arguments.append("uncompress=\"\(uncompress)\"")
        }
        if let matchinfo = definition.matchinfo {
            arguments.append("matchinfo=\"\(matchinfo)\"")
        }
        if let prefixes = definition.prefixes {
            arguments.append("prefix=\"\(prefixes.sorted().map(String.init).joined(separator: ","))\"")
        }
        return arguments
    }

    /// For a table synchronized with a content table: the triggers that
    /// keep the index up to date, then the indexing of the rows already in
    /// the content table.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS4TableDefinition) throws {
        guard let contentTable = definition.synchronizedTable else { return }
        let sync = try FullTextSynchronization(
            db, engine: "FTS4", ftsTable: tableName, contentTable: contentTable,
            columns: definition.columns.map(\.name), configuration: definition.configuration)
        let old = sync.rowID(of: "old")
        let ftsColumns = sync.ftsColumns(rowID: "docid")
        let values = sync.values(of: "new")
        try db.execute(sql: """
            \(sync.createTrigger(suffix: "bu", "BEFORE UPDATE")) BEGIN
                DELETE FROM \(sync.fts) WHERE docid=\(old);
            END;
            \(sync.createTrigger(suffix: "bd", "BEFORE DELETE")) BEGIN
                DELETE FROM \(sync.fts) WHERE docid=\(old);
            END;
            \(sync.createTrigger(suffix: "au", "AFTER UPDATE")) BEGIN
                INSERT INTO \(sync.fts)(\(ftsColumns)) VALUES(\(values));
            END;
            \(sync.createTrigger(suffix: "ai", "AFTER INSERT")) BEGIN
                INSERT INTO \(sync.fts)(\(ftsColumns)) VALUES(\(values));
            END;
            """)
        try sync.rebuild()
    }
}

/// The definition of an FTS4 table, filled in by the body of
/// ``Database/create(virtualTable:options:using:_:)``.
///
/// ```swift
/// try db.create(virtualTable: "document", using: FTS4()) { t in
///     t.prefixes = [2, 4]
///     t.column("content")
///     t.column("uuid").notIndexed()
///     t.column("lid").asLanguageId()
/// }
/// ```
///
/// See <https://www.sqlite.org/fts3.html#fts4_options> for the options.
public final class FTS4TableDefinition {
    let configuration: VirtualTableConfiguration
    /// The columns, in order.
    var columns: [FTS4ColumnDefinition] = []
    /// The content table that ``synchronize(withTable:)`` named.
    var synchronizedTable: String?
    private var rawContent: String?

    /// The tokenizer; nil uses SQLite's default, `simple`.
    public var tokenizer: FTS3TokenizerDescriptor?

    /// The `content` option: `""` for a contentless table, or the name of
    /// an external content table. Setting it undoes
    /// ``synchronize(withTable:)``.
    public var content: String? {
        get { synchronizedTable ?? rawContent }
        set {
            synchronizedTable = nil
            rawContent = newValue
        }
    }

    /// The `compress` option: the name of an SQL function that compresses
    /// the text.
    public var compress: String?

    /// The `uncompress` option: the name of an SQL function that
    /// uncompresses the text.
    public var uncompress: String?

    /// The `matchinfo` option (`"fts3"` for FTS3-compatible `matchinfo`).
    public var matchinfo: String?

    /// The `prefix` option: prefix lengths that get an index of their own.
    public var prefixes: Set<Int>?

    init(configuration: VirtualTableConfiguration) {
        self.configuration = configuration
    }

    /// Adds a column. Full-text columns have no type: they hold text.
    @discardableResult
    public func column(_ name: String) -> FTS4ColumnDefinition {
        let column = FTS4ColumnDefinition(name: name)
        columns.append(column)
        return column
    }

    /// Makes the table an external content table of `tableName`, kept up to
    /// date by triggers on that table; the rows it already has are indexed
    /// when the full-text table is created.
    ///
    /// ```swift
    /// try db.create(virtualTable: "book_ft", using: FTS4()) { t in
    ///     t.synchronize(withTable: "book")
    ///     t.column("title")
    /// }
    /// ```
    ///
    /// The triggers remain when the full-text table is dropped: drop them
    /// with ``Database/dropFTS4SynchronizationTriggers(forTable:)``.
    /// Temporary synchronized tables are not supported (a trap, as in GRDB).
    public func synchronize(withTable tableName: String) {
        synchronizedTable = tableName
    }
}

@available(*, unavailable)
extension FTS4TableDefinition: Sendable { }

/// A column of an FTS4 table.
public final class FTS4ColumnDefinition {
    let name: String
    var isIndexed = true
    var isLanguageId = false

    init(name: String) {
        self.name = name
    }

    /// The column is stored but not indexed: `notindexed=column`.
    @discardableResult
    public func notIndexed() -> Self {
        isIndexed = false
        return self
    }

    /// The column is the language id of each row: `languageid="column"`.
    @discardableResult
    public func asLanguageId() -> Self {
        isLanguageId = true
        return self
    }
}

@available(*, unavailable)
extension FTS4ColumnDefinition: Sendable { }

extension Database {
    /// Drops the triggers that kept a full-text table created with
    /// ``FTS4TableDefinition/synchronize(withTable:)`` up to date. SQLite
    /// drops them with the content table, but not with the full-text table:
    /// left behind, they make every write to the content table fail.
    ///
    /// ```swift
    /// try db.drop(table: "book_ft")
    /// try db.dropFTS4SynchronizationTriggers(forTable: "book_ft")
    /// ```
    ///
    /// - parameter tableName: The name of the full-text table.
    /// - throws: A ``DatabaseError``.
    public func dropFTS4SynchronizationTriggers(forTable tableName: String) throws {
        try dropSynchronizationTriggers(of: tableName, suffixes: ["bu", "bd", "au", "ai"])
    }

    /// `DROP TRIGGER IF EXISTS "__table_suffix"` for each suffix.
    func dropSynchronizationTriggers(of tableName: String, suffixes: [String]) throws {
        try execute(sql: suffixes
            .map { "DROP TRIGGER IF EXISTS \("__\(tableName)_\($0)".quotedDatabaseIdentifier);" }
            .joined(separator: "\n"))
    }
}
