extension SQL: SQLSpecificExpressible {
    /// The literal as an expression, parenthesized when it is an operand.
    ///
    /// ```swift
    /// let createdAt = Column("createdAt")
    /// Player.filter(SQL("DATE(\(createdAt))").sqlExpression == "2020-01-23")
    /// // SELECT * FROM "player" WHERE (DATE("createdAt")) = ?
    /// ```
    public var sqlExpression: SQLExpression { SQLExpression(literal: self) }

    /// The literal as a selection, written as is: it may select several
    /// columns (`SQL("a, b AS c")`).
    public var sqlSelection: SQLSelection { SQLSelection(literal: self) }

    /// The literal as one ordering term, written as is (`SQL("name DESC")`).
    public var sqlOrdering: SQLOrdering { SQLOrdering(literal: self) }
}
