extension DatabaseFunction {
    /// A call of the function in the query interface: `name(arguments)`.
    ///
    /// ```swift
    /// let square = DatabaseFunction("square", argumentCount: 1, pure: true) { values in
    ///     Int.fromDatabaseValue(values[0]).map { $0 * $0 }
    /// }
    /// db.add(function: square)
    /// let squares = try Player.select(square(Column("score")), as: Int.self).fetchAll(db)
    /// // SELECT square("score") FROM "player"
    /// ```
    public func callAsFunction(_ arguments: any SQLExpressible...) -> SQLExpression {
        let expressions = arguments.map({ $0.sqlExpression })
        switch kind {
        case .function: return SQLExpression(.function(name, expressions))
        case .aggregate: return .aggregate(name, expressions)
        }
    }
}
