// Logical, equality and identity operators on association aggregates,
// between two aggregates or an aggregate and a value, in either order.
// The result has no name, as in GRDB: give it one with `forKey(_:)` to
// select it under a name.
//
//     Team.having(Team.players.count >= 2 && Team.players.max(Column("score")) < 1000)
//     Team.annotated(with: (Team.players.count == Team.coaches.count).forKey("isBalanced"))
//
// The comparisons `<`, `<=`, `>`, `>=` are in AssociationAggregate+Comparison.swift.

extension AssociationAggregate {
    /// `NOT aggregate`, or the negated operator when there is one:
    /// `!Team.players.isEmpty` is `COUNT(...) > 0`, `!(Team.players.count > 2)`
    /// is `COUNT(...) <= 2`.
    ///
    /// ```swift
    /// let teamsWithPlayers = Team.having(!Team.players.isEmpty)
    /// ```
    public static prefix func ! (aggregate: Self) -> Self {
        let prepare = aggregate.prepare
        return AssociationAggregate(key: nil) { relation in
            let prepared = prepare(&relation)
            if let negation = prepared.negation {
                return AggregateExpression(expression: negation, negation: prepared.expression)
            }
            return AggregateExpression(expression: !prepared.expression, negation: nil)
        }
    }

    // MARK: - AND, OR

    /// `lhs AND rhs`.
    ///
    /// ```swift
    /// Team.having(Team.players.count > 2 && Team.coaches.count > 0)
    /// ```
    public static func && (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 && $1 } }

    /// `aggregate AND value`.
    ///
    /// ```swift
    /// Team.having(Team.players.count > 2 && Column("isActive"))
    /// ```
    public static func && (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.map { $0 && value }
    }

    /// `value AND aggregate`.
    ///
    /// ```swift
    /// Team.having(Column("isActive") && Team.players.count > 2)
    /// ```
    public static func && (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.map { value && $0 }
    }

    /// `lhs OR rhs`.
    ///
    /// ```swift
    /// Team.having(Team.players.isEmpty || Team.coaches.isEmpty)
    /// ```
    public static func || (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 || $1 } }

    /// `aggregate OR value`.
    ///
    /// ```swift
    /// Team.having(Team.players.count > 2 || Column("isActive"))
    /// ```
    public static func || (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.map { $0 || value }
    }

    /// `value OR aggregate`.
    ///
    /// ```swift
    /// Team.having(Column("isActive") || Team.players.count > 2)
    /// ```
    public static func || (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.map { value || $0 }
    }

    // MARK: - =, <>

    /// `lhs = rhs`.
    ///
    /// ```swift
    /// Team.having(Team.players.count == Team.coaches.count)
    /// ```
    public static func == (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 == $1 } }

    /// `aggregate = value`, `aggregate IS NULL` for nil.
    ///
    /// ```swift
    /// Team.having(Team.players.count == 11)
    /// ```
    public static func == (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        let value = rhs?.sqlExpression
        return lhs.map { $0 == value }
    }

    /// `value = aggregate`, `aggregate IS NULL` for nil.
    ///
    /// ```swift
    /// Team.having(11 == Team.players.count)
    /// ```
    public static func == (lhs: (any SQLExpressible)?, rhs: Self) -> Self {
        let value = lhs?.sqlExpression
        return rhs.map { value == $0 }
    }

    /// The aggregate tested as a boolean: `isEmpty == true` is `isEmpty`,
    /// `isEmpty == false` is `!isEmpty`; other aggregates are compared
    /// with 1 or 0.
    ///
    /// ```swift
    /// // ... HAVING COUNT(DISTINCT "player"."id") > 0
    /// Team.having(Team.players.isEmpty == false)
    /// ```
    public static func == (lhs: Self, rhs: Bool) -> Self { lhs.tested(rhs) }

    /// The aggregate tested as a boolean: `true == isEmpty` is `isEmpty`.
    ///
    /// ```swift
    /// Team.having(false == Team.players.isEmpty)
    /// ```
    public static func == (lhs: Bool, rhs: Self) -> Self { rhs.tested(lhs) }

    /// `lhs <> rhs`.
    ///
    /// ```swift
    /// Team.having(Team.players.count != Team.coaches.count)
    /// ```
    public static func != (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 != $1 } }

    /// `aggregate <> value`, `aggregate IS NOT NULL` for nil.
    ///
    /// ```swift
    /// Team.having(Team.players.count != 11)
    /// ```
    public static func != (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        let value = rhs?.sqlExpression
        return lhs.map { $0 != value }
    }

    /// `value <> aggregate`, `aggregate IS NOT NULL` for nil.
    ///
    /// ```swift
    /// Team.having(11 != Team.players.count)
    /// ```
    public static func != (lhs: (any SQLExpressible)?, rhs: Self) -> Self {
        let value = lhs?.sqlExpression
        return rhs.map { value != $0 }
    }

    /// The negated boolean test: `isEmpty != true` is `!isEmpty`.
    ///
    /// ```swift
    /// // ... HAVING COUNT(DISTINCT "player"."id") > 0
    /// Team.having(Team.players.isEmpty != true)
    /// ```
    public static func != (lhs: Self, rhs: Bool) -> Self { !lhs.tested(rhs) }

    /// The negated boolean test: `true != isEmpty` is `!isEmpty`.
    ///
    /// ```swift
    /// Team.having(true != Team.players.isEmpty)
    /// ```
    public static func != (lhs: Bool, rhs: Self) -> Self { !rhs.tested(lhs) }

    // MARK: - IS, IS NOT

    /// `lhs IS rhs`: equality where NULL equals NULL.
    ///
    /// ```swift
    /// Team.having(Team.players.max(Column("score")) === Team.coaches.max(Column("score")))
    /// ```
    public static func === (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 === $1 } }

    /// `aggregate IS value`.
    ///
    /// ```swift
    /// Team.having(Team.players.max(Column("score")) === nil)
    /// ```
    public static func === (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        let value = rhs?.sqlExpression
        return lhs.map { $0 === value }
    }

    /// `value IS aggregate`, `aggregate IS NULL` for nil.
    ///
    /// ```swift
    /// Team.having(1000 === Team.players.max(Column("score")))
    /// ```
    public static func === (lhs: (any SQLExpressible)?, rhs: Self) -> Self {
        let value = lhs?.sqlExpression
        return rhs.map { value === $0 }
    }

    /// `lhs IS NOT rhs`: inequality where NULL equals NULL.
    ///
    /// ```swift
    /// Team.having(Team.players.max(Column("score")) !== Team.coaches.max(Column("score")))
    /// ```
    public static func !== (lhs: Self, rhs: Self) -> Self { combine(lhs, rhs) { $0 !== $1 } }

    /// `aggregate IS NOT value`.
    ///
    /// ```swift
    /// Team.having(Team.players.max(Column("score")) !== nil)
    /// ```
    public static func !== (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        let value = rhs?.sqlExpression
        return lhs.map { $0 !== value }
    }

    /// `value IS NOT aggregate`, `aggregate IS NOT NULL` for nil.
    ///
    /// ```swift
    /// Team.having(1000 !== Team.players.max(Column("score")))
    /// ```
    public static func !== (lhs: (any SQLExpressible)?, rhs: Self) -> Self {
        let value = lhs?.sqlExpression
        return rhs.map { value !== $0 }
    }

    /// The aggregate tested as a boolean, as GRDB does it: an aggregate
    /// that knows its negation (`isEmpty`) is itself when tested true and
    /// its negation when tested false; another is compared with 1 or 0.
    private func tested(_ value: Bool) -> Self {
        let prepare = self.prepare
        return AssociationAggregate(key: nil) { relation in
            let prepared = prepare(&relation)
            guard let negation = prepared.negation else {
                return AggregateExpression(expression: prepared.expression == value, negation: nil)
            }
            if value { return prepared }
            return AggregateExpression(expression: negation, negation: prepared.expression)
        }
    }
}
