extension SQLSpecificExpressible {
    /// `expression LIKE pattern [ESCAPE escape]`; `!` gives `NOT LIKE`.
    ///
    /// ```swift
    /// Column("email").like("%@example.com")          // "email" LIKE ?
    /// Column("title").like("%10\\%%", escape: "\\")  // "title" LIKE ? ESCAPE ?
    /// ```
    public func like(_ pattern: some SQLExpressible, escape: (any SQLExpressible)? = nil) -> SQLExpression {
        SQLExpression(.like(sqlExpression, pattern: pattern.sqlExpression, escape: escape?.sqlExpression, negated: false))
    }

    /// The expression with a collation: `expression COLLATE name`.
    ///
    /// In a comparison, the collation is written after it, as GRDB does:
    ///
    /// ```swift
    /// Player.filter(Column("email").collating(.nocase) == "a@example.com")
    /// // SELECT * FROM "player" WHERE "email" = ? COLLATE NOCASE
    /// Player.order(Column("name").collating(.nocase).desc)
    /// // SELECT * FROM "player" ORDER BY "name" COLLATE NOCASE DESC
    /// ```
    public func collating(_ collation: Database.CollationName) -> SQLExpression {
        .collated(sqlExpression, collation)
    }

    /// The expression with a custom collation, by its name (the collation
    /// must be added to the connection, as the built-in ones of
    /// ``DatabaseCollation`` are).
    ///
    /// ```swift
    /// Player.order(Column("name").collating(.localizedCaseInsensitiveCompare))
    /// // ORDER BY "name" COLLATE swiftLocalizedCaseInsensitiveCompare
    /// ```
    public func collating(_ collation: DatabaseCollation) -> SQLExpression {
        .collated(sqlExpression, Database.CollationName(rawValue: collation.name))
    }
}
