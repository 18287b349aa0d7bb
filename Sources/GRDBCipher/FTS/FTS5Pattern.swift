/// A valid FTS5 search pattern: the right-hand side of `MATCH`.
///
/// ```swift
/// let pattern = FTS5Pattern(matchingAllTokensIn: userInput)
/// let books = try Book.matching(pattern).order(Column.rank).fetchAll(db)
/// ```
///
/// The initializers that take user input never fail on it: they keep its
/// tokens (as the `ascii` tokenizer reads them) and drop the rest. Raw
/// patterns are checked by SQLite, against the columns of their table,
/// with ``Database/makeFTS5Pattern(rawPattern:forTable:)``.
public struct FTS5Pattern: Sendable {
    /// The pattern, as SQLite reads it.
    public let rawPattern: String

    /// A pattern that matches documents that contain any token of the
    /// string, or nil if the string has no token.
    ///
    /// ```swift
    /// FTS5Pattern(matchingAnyTokenIn: "SQLite database")?.rawPattern // "sqlite OR database"
    /// ```
    public init?(matchingAnyTokenIn string: String) {
        guard let tokens = Self.tokens(in: string) else { return nil }
        try? self.init(rawPattern: tokens.joined(separator: " OR "))
    }

    /// A pattern that matches documents that contain all tokens of the
    /// string, or nil if the string has no token.
    public init?(matchingAllTokensIn string: String) {
        guard let tokens = Self.tokens(in: string) else { return nil }
        try? self.init(rawPattern: tokens.joined(separator: " "))
    }

    /// A pattern that matches documents that contain a word starting with
    /// each token of the string, or nil if the string has no token.
    public init?(matchingAllPrefixesIn string: String) {
        guard let tokens = Self.tokens(in: string) else { return nil }
        try? self.init(rawPattern: tokens.map { $0 + "*" }.joined(separator: " "))
    }

    /// A pattern that matches documents that contain the tokens of the
    /// string in a row, or nil if the string has no token.
    public init?(matchingPhrase string: String) {
        guard let tokens = Self.tokens(in: string) else { return nil }
        try? self.init(rawPattern: "\"" + tokens.joined(separator: " ") + "\"")
    }

    /// A pattern that matches documents whose column starts with the
    /// tokens of the string in a row, or nil if the string has no token.
    public init?(matchingPrefixPhrase string: String) {
        guard let tokens = Self.tokens(in: string) else { return nil }
        try? self.init(rawPattern: "^\"" + tokens.joined(separator: " ") + "\"")
    }

    /// A raw pattern, checked by SQLite on a table with the given columns
    /// (one column when empty), in a private in-memory database. Prefer
    /// ``Database/makeFTS5Pattern(rawPattern:forTable:)``, which takes the
    /// columns of the table the pattern will search.
    ///
    /// ```swift
    /// let pattern = try FTS5Pattern(rawPattern: "title: sqlite", allowedColumns: ["title", "body"])
    /// ```
    ///
    /// - throws: A ``DatabaseError`` with SQLite's message and no SQL, if
    ///   the pattern is invalid.
    public init(rawPattern: String, allowedColumns: [String] = []) throws {
        let columns = allowedColumns.isEmpty ? ["__grdb__"] : allowedColumns
        if FullTextScratch.shared?.acceptsFTS5Pattern(rawPattern, columns: columns) == true {
            self.rawPattern = rawPattern
            return
        }
        // GRDB's statements, in a fresh database: its errors are GRDB's.
        do {
            try DatabaseQueue().inDatabase { db in
                try db.create(virtualTable: "document", using: FTS5()) { t in
                    for column in columns {
                        t.column(column)
                    }
                }
                // An invalid pattern fails when the statement first steps.
                _ = try Row.fetchOne(db, sql: "SELECT * FROM document WHERE document MATCH ?", arguments: [rawPattern])
            }
        } catch let error as DatabaseError {
            // The statement and its argument are ours, not the caller's.
            throw DatabaseError(resultCode: error.extendedResultCode, message: error.message)
        }
        self.rawPattern = rawPattern
    }

    /// The query tokens of the `ascii` tokenizer, or nil if there are none.
    private static func tokens(in string: String) -> [String]? {
        guard let tokens = try? FTS5.tokenize(query: string), !tokens.isEmpty else { return nil }
        return tokens
    }
}

extension Database {
    /// A raw FTS5 pattern, checked by SQLite against the syntax and the
    /// columns of a full-text table.
    ///
    /// ```swift
    /// let pattern = try db.makeFTS5Pattern(rawPattern: "title: sqlite", forTable: "book")
    /// // DatabaseError: no such column: missing
    /// _ = try db.makeFTS5Pattern(rawPattern: "missing: sqlite", forTable: "book")
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the table does not exist or the
    ///   pattern is invalid (SQLite's message, no SQL).
    public func makeFTS5Pattern(rawPattern: String, forTable table: String) throws -> FTS5Pattern {
        try FTS5Pattern(rawPattern: rawPattern, allowedColumns: columns(in: table).map(\.name))
    }
}

extension FTS5Pattern: DatabaseValueConvertible {
    /// The raw pattern, as text.
    public var databaseValue: DatabaseValue {
        rawPattern.databaseValue
    }

    /// A pattern from text that is a valid pattern; nil otherwise.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS5Pattern? {
        String.fromDatabaseValue(dbValue).flatMap { try? FTS5Pattern(rawPattern: $0) }
    }
}
