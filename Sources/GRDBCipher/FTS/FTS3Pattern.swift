/// A valid FTS3 or FTS4 search pattern: the right-hand side of `MATCH`.
///
/// ```swift
/// let pattern = FTS3Pattern(matchingAllTokensIn: userInput)
/// let books = try Book.matching(pattern).fetchAll(db)
/// ```
///
/// A pattern is checked by SQLite (in a private in-memory database) when it
/// is made, so a query that uses it does not fail on its syntax. The
/// initializers that take user input never fail on it: they keep its
/// tokens and drop the rest (operators, quotes, stars).
public struct FTS3Pattern: Sendable {
    /// The pattern, as SQLite reads it.
    public let rawPattern: String

    /// A pattern written in the FTS3 query syntax, checked by SQLite.
    ///
    /// ```swift
    /// let pattern = try FTS3Pattern(rawPattern: "sqlite AND database")
    /// ```
    ///
    /// - throws: A ``DatabaseError`` with SQLite's message ("malformed
    ///   MATCH expression: [AND]") and no SQL, if the pattern is invalid.
    public init(rawPattern: String) throws {
        if FullTextScratch.shared?.acceptsFTS3Pattern(rawPattern) == true {
            self.rawPattern = rawPattern
            return
        }
        // GRDB's statements, in a fresh database: its errors are GRDB's.
        do {
            try DatabaseQueue().inDatabase { db in
                try db.execute(sql: "CREATE VIRTUAL TABLE documents USING fts3()")
                _ = try Row.fetchOne(
                    db,
                    sql: "SELECT * FROM documents WHERE content MATCH ?",
                    arguments: [rawPattern])
            }
        } catch let error as DatabaseError {
            // The statement and its argument are ours, not the caller's.
            throw DatabaseError(resultCode: error.extendedResultCode, message: error.message)
        }
        self.rawPattern = rawPattern
    }

    /// A pattern that matches documents that contain any token of the
    /// string, or nil if the string has no token.
    ///
    /// ```swift
    /// FTS3Pattern(matchingAnyTokenIn: "SQLite database")?.rawPattern // "sqlite OR database"
    /// ```
    public init?(matchingAnyTokenIn string: String) {
        guard let tokens = Self.tokens(in: string) else { return nil }
        try? self.init(rawPattern: tokens.joined(separator: " OR "))
    }

    /// A pattern that matches documents that contain all tokens of the
    /// string, or nil if the string has no token.
    ///
    /// ```swift
    /// FTS3Pattern(matchingAllTokensIn: "SQLite database")?.rawPattern // "sqlite database"
    /// ```
    public init?(matchingAllTokensIn string: String) {
        guard let tokens = Self.tokens(in: string) else { return nil }
        try? self.init(rawPattern: tokens.joined(separator: " "))
    }

    /// A pattern that matches documents that contain a word starting with
    /// each token of the string, or nil if the string has no token.
    ///
    /// ```swift
    /// FTS3Pattern(matchingAllPrefixesIn: "SQLite data")?.rawPattern // "sqlite* data*"
    /// ```
    public init?(matchingAllPrefixesIn string: String) {
        guard let tokens = Self.tokens(in: string) else { return nil }
        try? self.init(rawPattern: tokens.map { $0 + "*" }.joined(separator: " "))
    }

    /// A pattern that matches documents that contain the tokens of the
    /// string in a row, or nil if the string has no token.
    ///
    /// ```swift
    /// FTS3Pattern(matchingPhrase: "SQLite database")?.rawPattern // "\"sqlite database\""
    /// ```
    public init?(matchingPhrase string: String) {
        guard let tokens = Self.tokens(in: string) else { return nil }
        try? self.init(rawPattern: "\"" + tokens.joined(separator: " ") + "\"")
    }

    /// The tokens of the `simple` tokenizer, or nil if there are none.
    private static func tokens(in string: String) -> [String]? {
        guard let tokens = try? FTS3.tokenize(string, withTokenizer: .simple), !tokens.isEmpty else {
            return nil
        }
        return tokens
    }
}

extension FTS3Pattern: DatabaseValueConvertible {
    /// The raw pattern, as text.
    public var databaseValue: DatabaseValue {
        rawPattern.databaseValue
    }

    /// A pattern from text that is a valid pattern; nil otherwise.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS3Pattern? {
        String.fromDatabaseValue(dbValue).flatMap { try? FTS3Pattern(rawPattern: $0) }
    }
}
