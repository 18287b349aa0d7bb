extension TableRequest where Self: FilteredRequest {
    /// Keeps the rows of a full-text table that match the pattern:
    /// `WHERE "table" MATCH ?` (no row for a nil pattern).
    ///
    /// ```swift
    /// // SELECT * FROM "book" WHERE "book" MATCH 'sqlite database'
    /// let books = try Book.all().matching(FTS3Pattern(matchingAllTokensIn: "SQLite database")).fetchAll(db)
    /// ```
    public func matching(_ pattern: FTS3Pattern?) -> Self {
        matching(pattern?.databaseValue)
    }

    /// Keeps the rows of an FTS5 table that match the pattern:
    /// `WHERE "table" MATCH ?` (no row for a nil pattern).
    ///
    /// ```swift
    /// // SELECT * FROM "book" WHERE "book" MATCH 'sqlite' ORDER BY "rank"
    /// let books = try Book.all().matching(FTS5Pattern(matchingAnyTokenIn: "SQLite")).order(Column.rank).fetchAll(db)
    /// ```
    public func matching(_ pattern: FTS5Pattern?) -> Self {
        matching(pattern?.databaseValue)
    }

    /// `WHERE "table" MATCH pattern`, the table named as the request names
    /// it (its alias, if it has one).
    private func matching(_ pattern: DatabaseValue?) -> Self {
        guard let pattern else { return none() }
        let alias = TableAlias()
        return _aliased(alias).filter(SQLExpression(.tableMatch(alias, pattern.sqlExpression)))
    }
}

extension TableRecord {
    /// The rows of the record's full-text table that match the pattern
    /// (none for a nil pattern).
    ///
    /// ```swift
    /// let books = try Book.matching(FTS3Pattern(matchingPhrase: "Moby Dick")).fetchAll(db)
    /// ```
    public static func matching(_ pattern: FTS3Pattern?) -> QueryInterfaceRequest<Self> {
        all().matching(pattern)
    }

    /// The rows of the record's FTS5 table that match the pattern (none
    /// for a nil pattern).
    ///
    /// ```swift
    /// let books = try Book.matching(FTS5Pattern(matchingPhrase: "Moby Dick")).fetchAll(db)
    /// ```
    public static func matching(_ pattern: FTS5Pattern?) -> QueryInterfaceRequest<Self> {
        all().matching(pattern)
    }
}

extension ColumnExpression {
    /// `column MATCH pattern`: a full-text search in one column of an FTS3
    /// or FTS4 table (`column MATCH NULL`, which matches nothing, for a nil
    /// pattern).
    ///
    /// ```swift
    /// let books = try Book.filter(Column("title").match(pattern)).fetchAll(db)
    /// ```
    public func match(_ pattern: FTS3Pattern?) -> SQLExpression {
        // No `??` here: on expressions, it is SQL's IFNULL.
        let rhs: DatabaseValue
        if let pattern { rhs = pattern.databaseValue } else { rhs = .null }
        return SQLExpression(.binary("MATCH", sqlExpression, rhs.sqlExpression))
    }

    /// `column MATCH pattern`: a full-text search in one column of an FTS5
    /// table.
    public func match(_ pattern: FTS5Pattern) -> SQLExpression {
        SQLExpression(.binary("MATCH", sqlExpression, pattern.databaseValue.sqlExpression))
    }
}
