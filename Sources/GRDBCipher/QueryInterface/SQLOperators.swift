// Comparison and logical operators of the query interface. A comparison with
// a NULL value becomes `IS NULL` or `IS NOT NULL`, as in GRDB, so that
// `Column("email") == nil` finds the rows without an email.

extension SQLExpression {
    static func equality(_ lhs: SQLExpression, _ rhs: SQLExpression, negated: Bool) -> SQLExpression {
        if case .value(let value) = rhs.impl, value.isNull { return SQLExpression(.isNull(lhs, negated: negated)) }
        if case .value(let value) = lhs.impl, value.isNull { return SQLExpression(.isNull(rhs, negated: negated)) }
        return SQLExpression(.binary(negated ? "<>" : "=", lhs, rhs))
    }
}

/// `lhs = rhs`, or `lhs IS NULL` when `rhs` is nil or NULL.
public func == (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
    .equality(lhs.sqlExpression, rhs?.sqlExpression ?? .value(.null), negated: false)
}

/// `lhs = rhs`, or `rhs IS NULL` when `lhs` is nil or NULL.
public func == (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .equality(lhs?.sqlExpression ?? .value(.null), rhs.sqlExpression, negated: false)
}

/// `lhs = rhs`.
public func == (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .equality(lhs.sqlExpression, rhs.sqlExpression, negated: false)
}

/// `lhs <> rhs`, or `lhs IS NOT NULL` when `rhs` is nil or NULL.
public func != (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
    .equality(lhs.sqlExpression, rhs?.sqlExpression ?? .value(.null), negated: true)
}

/// `lhs <> rhs`, or `rhs IS NOT NULL` when `lhs` is nil or NULL.
public func != (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .equality(lhs?.sqlExpression ?? .value(.null), rhs.sqlExpression, negated: true)
}

/// `lhs <> rhs`.
public func != (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .equality(lhs.sqlExpression, rhs.sqlExpression, negated: true)
}

/// `lhs < rhs`.
public func < (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary("<", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs < rhs`.
public func < (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.binary("<", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs < rhs`.
public func < (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.binary("<", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs <= rhs`.
public func <= (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary("<=", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs <= rhs`.
public func <= (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.binary("<=", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs <= rhs`.
public func <= (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.binary("<=", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs > rhs`.
public func > (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary(">", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs > rhs`.
public func > (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.binary(">", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs > rhs`.
public func > (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.binary(">", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs >= rhs`.
public func >= (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary(">=", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs >= rhs`.
public func >= (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.binary(">=", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs >= rhs`.
public func >= (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.binary(">=", lhs.sqlExpression, rhs.sqlExpression))
}

/// `lhs AND rhs`.
public func && (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    [lhs.sqlExpression, rhs.sqlExpression].joined(operator: .and)
}

/// `lhs AND rhs`.
public func && (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    [lhs.sqlExpression, rhs.sqlExpression].joined(operator: .and)
}

/// `lhs AND rhs`.
public func && (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    [lhs.sqlExpression, rhs.sqlExpression].joined(operator: .and)
}

/// `lhs OR rhs`.
public func || (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    [lhs.sqlExpression, rhs.sqlExpression].joined(operator: .or)
}

/// `lhs OR rhs`.
public func || (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    [lhs.sqlExpression, rhs.sqlExpression].joined(operator: .or)
}

/// `lhs OR rhs`.
public func || (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    [lhs.sqlExpression, rhs.sqlExpression].joined(operator: .or)
}

/// `NOT value`.
public prefix func ! (value: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.not(value.sqlExpression))
}

/// An operator that joins expressions: `AND` or `OR`.
public struct SQLExpressionOperator: Sendable, Hashable {
    let sql: String

    /// `AND`: true when every operand is; true for no operand.
    public static let and = SQLExpressionOperator(sql: "AND")
    /// `OR`: true when an operand is; false for no operand.
    public static let or = SQLExpressionOperator(sql: "OR")
}

extension Sequence where Element == SQLExpression {
    /// The expressions joined with `AND` or `OR`; `AND` of nothing is true,
    /// `OR` of nothing is false. Nested joins with the same operator are
    /// flattened: `(a AND b) AND c` is `a AND b AND c`.
    ///
    /// ```swift
    /// let condition = [Column("a") == 1, Column("b") == 2].joined(operator: .and)
    /// ```
    public func joined(operator op: SQLExpressionOperator) -> SQLExpression {
        var operands: [SQLExpression] = []
        for expression in self {
            if case .associative(let inner, let innerOperands) = expression.impl, inner == op.sql {
                operands.append(contentsOf: innerOperands)
            } else {
                operands.append(expression)
            }
        }
        return SQLExpression(.associative(op.sql, operands))
    }
}

extension Sequence where Element: SQLExpressible {
    /// `expression IN (values)`: whether the sequence contains the value of
    /// the expression. An empty sequence gives false.
    ///
    /// ```swift
    /// let request = Player.filter([1, 2, 3].contains(Column("id")))
    /// // SELECT * FROM "player" WHERE "id" IN (?, ?, ?)
    /// ```
    public func contains(_ value: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(.inList(value.sqlExpression, map(\.sqlExpression), negated: false))
    }
}
