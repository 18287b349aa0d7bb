// Operators on association aggregates: comparisons with values or other
// aggregates, and logical operators.
//
//     Team.having(Team.players.count >= 2 && Team.players.max(Column("score")) < 1000)

extension AssociationAggregate {
    /// The negated aggregate: `!Team.players.isEmpty` is `COUNT(...) > 0`.
    public static prefix func ! (aggregate: Self) -> Self {
        let prepare = aggregate.prepare
        return AssociationAggregate(key: nil) { relation in
            let prepared = prepare(&relation)
            return AggregateExpression(expression: prepared.negation ?? !prepared.expression, negation: prepared.expression)
        }
    }

    /// `lhs AND rhs`.
    public static func && (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 && $1 } }

    /// `lhs OR rhs`.
    public static func || (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 || $1 } }

    /// `lhs = rhs`.
    public static func == (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 == $1 } }

    /// `lhs <> rhs`.
    public static func != (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 != $1 } }

    /// `lhs < rhs`.
    public static func < (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 < $1 } }

    /// `lhs <= rhs`.
    public static func <= (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 <= $1 } }

    /// `lhs > rhs`.
    public static func > (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 > $1 } }

    /// `lhs >= rhs`.
    public static func >= (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 >= $1 } }

    /// `aggregate = value` (`IS NULL` for nil).
    public static func == (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        let value = rhs?.sqlExpression
        return lhs.map { $0 == value }
    }

    /// `aggregate <> value` (`IS NOT NULL` for nil).
    public static func != (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        let value = rhs?.sqlExpression
        return lhs.map { $0 != value }
    }

    /// `aggregate < value`.
    public static func < (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.map { $0 < value }
    }

    /// `aggregate <= value`.
    public static func <= (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.map { $0 <= value }
    }

    /// `aggregate > value`.
    public static func > (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.map { $0 > value }
    }

    /// `aggregate >= value`.
    public static func >= (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.map { $0 >= value }
    }
}
