// Comparison operators on association aggregates, between two aggregates
// or an aggregate and a value, in either order. The result has no name,
// as in GRDB.
//
//     // ... HAVING (COUNT(DISTINCT "player"."id") >= ?) AND (? > MAX("player"."score"))
//     Team.having(Team.players.count >= 2 && 1000 > Team.players.max(Column("score")))

extension AssociationAggregate {
    /// `lhs < rhs`.
    ///
    /// ```swift
    /// Team.having(Team.players.count < Team.coaches.count)
    /// ```
    public static func < (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 < $1 } }

    /// `aggregate < value`.
    ///
    /// ```swift
    /// Team.having(Team.players.max(Column("score")) < 1000)
    /// ```
    public static func < (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.map { $0 < value }
    }

    /// `value < aggregate`.
    ///
    /// ```swift
    /// Team.having(2 < Team.players.count)
    /// ```
    public static func < (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.map { value < $0 }
    }

    /// `lhs <= rhs`.
    ///
    /// ```swift
    /// Team.having(Team.players.count <= Team.coaches.count)
    /// ```
    public static func <= (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 <= $1 } }

    /// `aggregate <= value`.
    ///
    /// ```swift
    /// Team.having(Team.players.count <= 11)
    /// ```
    public static func <= (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.map { $0 <= value }
    }

    /// `value <= aggregate`.
    ///
    /// ```swift
    /// Team.having(2 <= Team.players.count)
    /// ```
    public static func <= (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.map { value <= $0 }
    }

    /// `lhs > rhs`.
    ///
    /// ```swift
    /// Team.having(Team.players.count > Team.coaches.count)
    /// ```
    public static func > (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 > $1 } }

    /// `aggregate > value`.
    ///
    /// ```swift
    /// Team.having(Team.players.count > 2)
    /// ```
    public static func > (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.map { $0 > value }
    }

    /// `value > aggregate`.
    ///
    /// ```swift
    /// Team.having(1000 > Team.players.max(Column("score")))
    /// ```
    public static func > (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.map { value > $0 }
    }

    /// `lhs >= rhs`.
    ///
    /// ```swift
    /// Team.having(Team.players.count >= Team.coaches.count)
    /// ```
    public static func >= (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 >= $1 } }

    /// `aggregate >= value`.
    ///
    /// ```swift
    /// Team.having(Team.players.count >= 2)
    /// ```
    public static func >= (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.map { $0 >= value }
    }

    /// `value >= aggregate`.
    ///
    /// ```swift
    /// Team.having(11 >= Team.players.count)
    /// ```
    public static func >= (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.map { value >= $0 }
    }
}
