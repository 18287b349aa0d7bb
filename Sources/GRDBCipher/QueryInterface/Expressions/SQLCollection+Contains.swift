// `contains` over Swift collections and ranges, as SQL: `IN`, `BETWEEN`, or
// two comparisons for a half-open range.
//
// ```swift
// Player.filter([1, 2, 3].contains(Column("id")))     // "id" IN (?, ?, ?)
// Player.filter((1...10).contains(Column("score")))   // "score" BETWEEN ? AND ?
// Player.filter((1..<10).contains(Column("score")))   // ("score" >= ?) AND ("score" < ?)
// ```

extension Sequence where Element: SQLExpressible {
    /// `expression IN (values)`: whether the sequence contains the value of
    /// the expression. One value is written `expression = value` (still
    /// false for NULL, as `IN (NULL)`); an empty sequence gives false.
    ///
    /// ```swift
    /// let request = Player.filter([1, 2, 3].contains(Column("id")))
    /// // SELECT * FROM "player" WHERE "id" IN (?, ?, ?)
    /// ```
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        .inList(element.sqlExpression, map { $0.sqlExpression })
    }
}

extension Sequence where Element == any SQLExpressible {
    /// `expression IN (values)`, for values of mixed types (see the version
    /// for a homogeneous sequence).
    ///
    /// ```swift
    /// let values: [any SQLExpressible] = [1, "one", Column("other")]
    /// Player.filter(values.contains(Column("code")))
    /// ```
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        .inList(element.sqlExpression, map { $0.sqlExpression })
    }
}

extension ClosedRange where Bound: SQLExpressible {
    /// `expression BETWEEN lowerBound AND upperBound`.
    ///
    /// ```swift
    /// // "initial" BETWEEN 'A' AND 'B'
    /// ("A"..."B").contains(Column("initial"))
    /// ```
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        .between(element.sqlExpression, lowerBound.sqlExpression, upperBound.sqlExpression)
    }
}

extension CountableClosedRange where Bound: SQLExpressible {
    /// `expression BETWEEN lowerBound AND upperBound`.
    ///
    /// ```swift
    /// // "score" BETWEEN 1 AND 10
    /// (1...10).contains(Column("score"))
    /// ```
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        .between(element.sqlExpression, lowerBound.sqlExpression, upperBound.sqlExpression)
    }
}

extension Range where Bound: SQLExpressible {
    /// `(expression >= lowerBound) AND (expression < upperBound)`.
    ///
    /// ```swift
    /// // ("email" >= 'A') AND ("email" < 'B')
    /// ("A"..<"B").contains(Column("email"))
    /// ```
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        let expression = element.sqlExpression
        return .associative(.and, [
            .binary(">=", expression, lowerBound.sqlExpression),
            .binary("<", expression, upperBound.sqlExpression),
        ])
    }
}

extension CountableRange where Bound: SQLExpressible {
    /// `(expression >= lowerBound) AND (expression < upperBound)`.
    ///
    /// ```swift
    /// // ("id" >= 1) AND ("id" < 10)
    /// (1..<10).contains(Column("id"))
    /// ```
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        let expression = element.sqlExpression
        return .associative(.and, [
            .binary(">=", expression, lowerBound.sqlExpression),
            .binary("<", expression, upperBound.sqlExpression),
        ])
    }
}
