// A `RawRepresentable` wrapper whose raw value is a query-interface value is
// one too, with nothing to implement: it is its raw value in SQL. This is
// what GRDB's documented `Tagged` recipe relies on:
//
//     extension Tagged: SQLExpressible where RawValue: SQLExpressible { }
//     let request = Player.filter(Column("id") == playerID)   // playerID: Tagged<Player, Int64>

extension SQLExpressible where Self: RawRepresentable, Self.RawValue: SQLExpressible {
    /// The raw value, as an SQL expression.
    ///
    /// ```swift
    /// struct PlayerID: RawRepresentable, SQLExpressible { var rawValue: Int64 }
    /// // SELECT * FROM "player" WHERE "id" = 1
    /// let request = Player.filter(Column("id") == PlayerID(rawValue: 1))
    /// ```
    public var sqlExpression: SQLExpression { rawValue.sqlExpression }
}

extension SQLSelectable where Self: RawRepresentable, Self.RawValue: SQLSelectable {
    /// The raw value, as a selection.
    public var sqlSelection: SQLSelection { rawValue.sqlSelection }
}

extension SQLOrderingTerm where Self: RawRepresentable, Self.RawValue: SQLOrderingTerm {
    /// The raw value, as an ordering.
    public var sqlOrdering: SQLOrdering { rawValue.sqlOrdering }
}
