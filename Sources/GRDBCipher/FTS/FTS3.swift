/// The FTS3 full-text engine: a ``VirtualTableModule`` for
/// ``Database/create(virtualTable:options:using:_:)``.
///
/// ```swift
/// // CREATE VIRTUAL TABLE "document" USING fts3(content)
/// try db.create(virtualTable: "document", using: FTS3()) { t in
///     t.column("content")
/// }
/// ```
///
/// Full-text tables of an encrypted database are encrypted like any other
/// table: their index lives in ordinary pages of the file.
public struct FTS3 {
    /// How the `unicode61` tokenizer treats diacritics.
    public enum Diacritics: Sendable {
        /// Diacritics are kept: "jérôme" does not match "jerome".
        case keep
        /// Diacritics are removed from Latin characters that carry one
        /// (SQLite's `remove_diacritics=1`, the default).
        case removeLegacy
        /// Diacritics are removed from all Latin characters
        /// (`remove_diacritics=2`, SQLite 3.27+).
        case remove
    }

    /// The FTS3 module.
    public init() { }

    /// The tokens SQLite's FTS3 tokenizer makes of a string, in order.
    ///
    /// ```swift
    /// try FTS3.tokenize("SQLite database")                      // ["sqlite", "database"]
    /// try FTS3.tokenize("SQLite database", withTokenizer: .porter) // ["sqlite", "databas"]
    /// ```
    ///
    /// The string is tokenized in a private in-memory database (SQLite's
    /// `fts3tokenize` table), shared by the process; nothing is written to
    /// disk.
    ///
    /// - throws: A ``DatabaseError`` if SQLite does not know the tokenizer
    ///   or refuses its arguments.
    public static func tokenize(
        _ string: String,
        withTokenizer tokenizer: FTS3TokenizerDescriptor = .simple) throws -> [String]
    {
        if let tokens = FullTextScratch.shared?.fts3Tokens(string, tokenizer: tokenizer) {
            return tokens
        }
        // GRDB's statements, in a fresh database: its errors are GRDB's.
        return try DatabaseQueue().inDatabase { db in
            let tokenizerArguments = ([tokenizer.name] + tokenizer.arguments.map { "\"\($0)\"" })
                .joined(separator: ", ")
            try db.execute(sql: "CREATE VIRTUAL TABLE tokens USING fts3tokenize(\(tokenizerArguments))")
            return try String.fetchAll(
                db,
                sql: "SELECT token FROM tokens WHERE input = ? ORDER BY position",
                arguments: [string])
        }
    }
}

extension FTS3: VirtualTableModule {
    /// `fts3`.
    public var moduleName: String { "fts3" }

    /// A new definition of an FTS3 table.
    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS3TableDefinition {
        FTS3TableDefinition()
    }

    /// The columns, then `tokenize=...`.
    public func moduleArguments(for definition: FTS3TableDefinition, in db: Database) -> [String] {
        var arguments = definition.columns
        if let tokenizer = definition.tokenizer {
            arguments.append(tokenizer.moduleArgument)
        }
        return arguments
    }

    /// Does nothing: an FTS3 table needs nothing more.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS3TableDefinition) { }
}

/// The definition of an FTS3 table, filled in by the body of
/// ``Database/create(virtualTable:options:using:_:)``.
///
/// ```swift
/// try db.create(virtualTable: "document", using: FTS3()) { t in
///     t.tokenizer = .porter
///     t.column("content")
/// }
/// ```
public final class FTS3TableDefinition {
    /// The column names, in order.
    var columns: [String] = []

    /// The tokenizer; nil uses SQLite's default, `simple`.
    public var tokenizer: FTS3TokenizerDescriptor?

    init() { }

    /// Adds a column. Full-text columns have no type: they hold text.
    public func column(_ name: String) {
        columns.append(name)
    }
}

@available(*, unavailable)
extension FTS3TableDefinition: Sendable { }
