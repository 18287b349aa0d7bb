/// A virtual table module, such as ``FTS3``, ``FTS4`` or ``FTS5``: what
/// `CREATE VIRTUAL TABLE ... USING module(arguments)` is made of.
///
/// ```swift
/// try db.create(virtualTable: "book", using: FTS4()) { t in
///     t.column("title")
/// }
/// ```
///
/// A module turns the definition that the body of
/// ``Database/create(virtualTable:options:using:_:)`` filled in into the
/// module arguments, and may complete the table once it exists (the
/// synchronization triggers of an external content full-text table).
public protocol VirtualTableModule {
    /// What the body of `create(virtualTable:using:)` defines.
    associatedtype TableDefinition

    /// The module name, after `USING`.
    var moduleName: String { get }

    /// A new, empty definition for a table about to be created.
    func makeTableDefinition(configuration: VirtualTableConfiguration) -> TableDefinition

    /// The arguments between the parentheses after the module name; none
    /// writes the module name alone.
    func moduleArguments(for definition: TableDefinition, in db: Database) throws -> [String]

    /// Completes a table that was just created, in the same savepoint.
    func database(_ db: Database, didCreate tableName: String, using definition: TableDefinition) throws
}

/// How a virtual table is created: the options given to
/// ``Database/create(virtualTable:options:using:_:)``.
public struct VirtualTableConfiguration {
    /// Whether the table is created with `IF NOT EXISTS`.
    var ifNotExists: Bool

    /// Whether the table is created in the `temp` schema.
    var temporary: Bool
}

/// Options of ``Database/create(virtualTable:options:using:_:)``.
public struct VirtualTableOptions: OptionSet, Sendable {
    /// The raw bits of the options.
    public let rawValue: Int

    /// Options from their raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Nothing happens when the table already exists: `IF NOT EXISTS`.
    public static let ifNotExists = VirtualTableOptions(rawValue: 1 << 0)

    /// The table is created in the `temp` schema, and is gone when the
    /// connection closes.
    public static let temporary = VirtualTableOptions(rawValue: 1 << 1)
}

extension Database {
    /// Creates a virtual table from a module name and its arguments, as
    /// written: `CREATE VIRTUAL TABLE "name" USING module`.
    ///
    /// ```swift
    /// // CREATE VIRTUAL TABLE "vocabulary" USING fts4vocab(book, row)
    /// try db.create(virtualTable: "vocabulary", using: "fts4vocab(book, row)")
    /// ```
    ///
    /// - parameters:
    ///     - name: The table name.
    ///     - options: `IF NOT EXISTS`, `temp`.
    ///     - module: The module and its arguments, written into the SQL
    ///       as they are.
    /// - throws: A ``DatabaseError`` if SQLite refuses the statement.
    public func create(
        virtualTable name: String,
        options: VirtualTableOptions = [],
        using module: String) throws
    {
        try execute(sql: Self.createVirtualTableSQL(name, options: options, module: module))
    }

    /// Creates a virtual table with a module that defines it:
    /// ``FTS3``, ``FTS4``, ``FTS5``.
    ///
    /// ```swift
    /// // CREATE VIRTUAL TABLE "book" USING fts4(title, author, body)
    /// try db.create(virtualTable: "book", using: FTS4()) { t in
    ///     t.column("title")
    ///     t.column("author")
    ///     t.column("body")
    /// }
    /// ```
    ///
    /// The table and whatever the module adds to it (the triggers of a
    /// synchronized full-text table) are created in one savepoint: a failure
    /// leaves nothing behind.
    ///
    /// - parameters:
    ///     - tableName: The table name.
    ///     - options: `IF NOT EXISTS`, `temp`.
    ///     - module: The module.
    ///     - body: A closure that defines the table, if the module needs it.
    /// - throws: The error of `body`, or a ``DatabaseError`` if SQLite
    ///   refuses a statement.
    public func create<Module: VirtualTableModule>(
        virtualTable tableName: String,
        options: VirtualTableOptions = [],
        using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)? = nil) throws
    {
        let configuration = VirtualTableConfiguration(
            ifNotExists: options.contains(.ifNotExists),
            temporary: options.contains(.temporary))
        let definition = module.makeTableDefinition(configuration: configuration)
        try body?(definition)
        let arguments = try module.moduleArguments(for: definition, in: self)
        let moduleSQL = arguments.isEmpty
            ? module.moduleName
            : "\(module.moduleName)(\(arguments.joined(separator: ", ")))"
        let sql = Self.createVirtualTableSQL(tableName, options: options, module: moduleSQL)
        try inSavepoint {
            try execute(sql: sql)
            try module.database(self, didCreate: tableName, using: definition)
            return .commit
        }
    }

    /// Creates a virtual table from a module name and its arguments, with
    /// `IF NOT EXISTS` given as a boolean: prefer
    /// ``create(virtualTable:options:using:)-(String,_,String)``.
    ///
    /// - throws: A ``DatabaseError`` if SQLite refuses the statement.
    @_disfavoredOverload
    public func create(virtualTable name: String, ifNotExists: Bool = false, using module: String) throws {
        try create(virtualTable: name, options: ifNotExists ? .ifNotExists : [], using: module)
    }

    /// Creates a virtual table with a module that defines it, with
    /// `IF NOT EXISTS` given as a boolean: prefer
    /// ``create(virtualTable:options:using:_:)``.
    ///
    /// - throws: The error of `body`, or a ``DatabaseError`` if SQLite
    ///   refuses a statement.
    @_disfavoredOverload
    public func create<Module: VirtualTableModule>(
        virtualTable tableName: String,
        ifNotExists: Bool = false,
        using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)? = nil) throws
    {
        try create(virtualTable: tableName, options: ifNotExists ? .ifNotExists : [], using: module, body)
    }

    /// `CREATE VIRTUAL TABLE [IF NOT EXISTS] ["temp".]"name" USING module`,
    /// with `temp.` unquoted as GRDB writes it.
    private static func createVirtualTableSQL(
        _ name: String,
        options: VirtualTableOptions,
        module: String) -> String
    {
        var sql = "CREATE VIRTUAL TABLE "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        if options.contains(.temporary) { sql += "temp." }
        return sql + name.quotedDatabaseIdentifier + " USING " + module
    }
}
