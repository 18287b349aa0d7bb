// Arithmetic operators on association aggregates, between two aggregates
// or an aggregate and a value, in either order. The result has no name,
// as in GRDB: give it one with `forKey(_:)` to select it under a name.
//
//     // SELECT "author".*, COUNT(DISTINCT "book"."id") + COUNT(DISTINCT "paper"."id") AS "workCount" ...
//     Author.annotated(with: (Author.books.count + Author.papers.count).forKey("workCount"))
//
//     // ... HAVING (COUNT(DISTINCT "book"."id") + COUNT(DISTINCT "paper"."id")) > ?
//     Author.having(Author.books.count + Author.papers.count > 3)

extension AssociationAggregate {
    /// `-aggregate`.
    ///
    /// ```swift
    /// Team.annotated(with: (-Team.players.min(Column("score"))).forKey("negatedMinScore"))
    /// ```
    public static prefix func - (aggregate: Self) -> Self {
        aggregate.map { -$0 }
    }

    /// `lhs + rhs`.
    ///
    /// ```swift
    /// Team.annotated(with: (Team.players.count + Team.coaches.count).forKey("value"))
    /// ```
    public static func + (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 + $1 } }

    /// `aggregate + value`.
    ///
    /// ```swift
    /// Team.annotated(with: (Team.players.count + 1).forKey("value"))
    /// ```
    public static func + (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.map { $0 + value }
    }

    /// `value + aggregate`.
    ///
    /// ```swift
    /// Team.annotated(with: (1 + Team.players.count).forKey("value"))
    /// ```
    public static func + (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.map { value + $0 }
    }

    /// `lhs - rhs`.
    ///
    /// ```swift
    /// Team.annotated(with: (Team.players.count - Team.coaches.count).forKey("value"))
    /// ```
    public static func - (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 - $1 } }

    /// `aggregate - value`.
    ///
    /// ```swift
    /// Team.annotated(with: (Team.players.count - 1).forKey("value"))
    /// ```
    public static func - (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.map { $0 - value }
    }

    /// `value - aggregate`.
    ///
    /// ```swift
    /// Team.annotated(with: (11 - Team.players.count).forKey("value"))
    /// ```
    public static func - (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.map { value - $0 }
    }

    /// `lhs * rhs`.
    ///
    /// ```swift
    /// Team.annotated(with: (Team.players.count * Team.players.average(Column("score"))).forKey("value"))
    /// ```
    public static func * (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 * $1 } }

    /// `aggregate * value`.
    ///
    /// ```swift
    /// Team.annotated(with: (Team.players.count * 2).forKey("value"))
    /// ```
    public static func * (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.map { $0 * value }
    }

    /// `value * aggregate`.
    ///
    /// ```swift
    /// Team.annotated(with: (2 * Team.players.count).forKey("value"))
    /// ```
    public static func * (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.map { value * $0 }
    }

    /// `lhs / rhs`.
    ///
    /// ```swift
    /// Team.annotated(with: (Team.players.sum(Column("score")) / Team.players.count).forKey("value"))
    /// ```
    public static func / (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 / $1 } }

    /// `aggregate / value`.
    ///
    /// ```swift
    /// Team.annotated(with: (Team.players.total(Column("score")) / 2).forKey("value"))
    /// ```
    public static func / (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.map { $0 / value }
    }

    /// `value / aggregate`.
    ///
    /// ```swift
    /// Team.annotated(with: (1000 / Team.players.count).forKey("value"))
    /// ```
    public static func / (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.map { value / $0 }
    }
}
