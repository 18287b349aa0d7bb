// An optional of a query-interface value is that value, or NULL when nil:
// an optional column can be filtered on, selected and ordered by.

extension Optional: SQLExpressible where Wrapped: SQLExpressible {
    /// The wrapped expression, or NULL.
    ///
    /// ```swift
    /// let bonus: Int? = nil
    /// // SELECT "score" + NULL FROM "player"
    /// let request = Player.select(Column("score") + bonus)
    /// ```
    public var sqlExpression: SQLExpression {
        self?.sqlExpression ?? .null
    }
}

extension Optional: SQLSelectable where Wrapped: SQLSelectable {
    /// The wrapped selection, or NULL.
    ///
    /// ```swift
    /// let extra: Column? = Column("score")
    /// // SELECT "name", "score" FROM "player"
    /// let request = Player.select(Column("name"), extra)
    /// ```
    public var sqlSelection: SQLSelection {
        self?.sqlSelection ?? SQLSelection(.expression(.null))
    }
}

extension Optional: SQLOrderingTerm where Wrapped: SQLOrderingTerm {
    /// The wrapped ordering, or NULL (which leaves the order unchanged).
    ///
    /// ```swift
    /// let tieBreaker: Column? = Column("name")
    /// // SELECT * FROM "player" ORDER BY "score" DESC, "name"
    /// let request = Player.order(Column("score").desc, tieBreaker)
    /// ```
    public var sqlOrdering: SQLOrdering {
        self?.sqlOrdering ?? SQLOrdering(.expression(.null))
    }
}

/// An optional expression is an expression: it has the operators, the
/// functions and the orderings of the wrapped one.
///
/// ```swift
/// let column: Column? = Column("name")
/// // SELECT * FROM "player" WHERE "name" LIKE ? ORDER BY "name" DESC
/// let request = Player.filter(column.like("a%")).order(column.desc)
/// ```
extension Optional: SQLSpecificExpressible where Wrapped: SQLSpecificExpressible { }
