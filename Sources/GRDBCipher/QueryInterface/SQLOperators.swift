// Comparison and logical operators of the query interface. A comparison with
// a NULL value becomes `IS NULL` or `IS NOT NULL`, as in GRDB, so that
// `Column("email") == nil` finds the rows without an email. `!=` and `!==`
// are the negations of `==` and `===`, as `!` writes them.

/// `lhs = rhs`, or `lhs IS NULL` when `rhs` is nil or NULL.
public func == (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
    .equal(lhs.sqlExpression, rhs?.sqlExpression ?? .null)
}

/// `lhs = rhs`, or `rhs IS NULL` when `lhs` is nil or NULL.
public func == (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .equal(lhs?.sqlExpression ?? .null, rhs.sqlExpression)
}

/// `lhs = rhs`.
public func == (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .equal(lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs <> rhs`, or `lhs IS NOT NULL` when `rhs` is nil or NULL.
public func != (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
    SQLExpression.equal(lhs.sqlExpression, rhs?.sqlExpression ?? .null).is(.falsey)
}

/// `lhs <> rhs`, or `rhs IS NOT NULL` when `lhs` is nil or NULL.
public func != (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression.equal(lhs?.sqlExpression ?? .null, rhs.sqlExpression).is(.falsey)
}

/// `lhs <> rhs`.
public func != (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression.equal(lhs.sqlExpression, rhs.sqlExpression).is(.falsey)
}

/// `lhs < rhs`.
public func < (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .binary("<", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs < rhs`.
public func < (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .binary("<", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs < rhs`.
public func < (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .binary("<", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs <= rhs`.
public func <= (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .binary("<=", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs <= rhs`.
public func <= (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .binary("<=", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs <= rhs`.
public func <= (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .binary("<=", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs > rhs`.
public func > (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .binary(">", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs > rhs`.
public func > (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .binary(">", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs > rhs`.
public func > (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .binary(">", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs >= rhs`.
public func >= (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .binary(">=", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs >= rhs`.
public func >= (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .binary(">=", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs >= rhs`.
public func >= (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .binary(">=", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs AND rhs`.
public func && (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .associative(.and, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs AND rhs`.
public func && (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.and, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs AND rhs`.
public func && (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.and, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs OR rhs`.
public func || (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .associative(.or, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs OR rhs`.
public func || (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.or, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs OR rhs`.
public func || (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.or, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `NOT value`, or the negated operator when there is one:
/// `!(Column("a") == 1)` is `"a" <> ?`, `![1, 2].contains(Column("id"))` is
/// `"id" NOT IN (?, ?)`, `!(Column("a") == nil)` is `"a" IS NOT NULL`.
public prefix func ! (value: some SQLSpecificExpressible) -> SQLExpression {
    value.sqlExpression.is(.falsey)
}

/// `lhs = 1` or `lhs = 0`, as GRDB writes a comparison with a boolean.
///
/// ```swift
/// Player.filter(Column("isActive") == true)
/// // SELECT * FROM "player" WHERE "isActive" = ?   -- 1
/// ```
public func == (lhs: some SQLSpecificExpressible, rhs: Bool) -> SQLExpression {
    lhs.sqlExpression.is(rhs ? .true : .false)
}

/// `rhs = 1` or `rhs = 0`.
public func == (lhs: Bool, rhs: some SQLSpecificExpressible) -> SQLExpression {
    rhs.sqlExpression.is(lhs ? .true : .false)
}

/// `lhs <> 1` or `lhs <> 0`.
public func != (lhs: some SQLSpecificExpressible, rhs: Bool) -> SQLExpression {
    (lhs == rhs).is(.falsey)
}

/// `rhs <> 1` or `rhs <> 0`.
public func != (lhs: Bool, rhs: some SQLSpecificExpressible) -> SQLExpression {
    (lhs == rhs).is(.falsey)
}

/// `lhs IS rhs`: equality where NULL equals NULL.
///
/// ```swift
/// Player.filter(Column("team") === team)   // "team" IS ?  (or IS NULL)
/// ```
public func === (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
    .compare(.is, lhs.sqlExpression, rhs?.sqlExpression ?? .null)
}

/// `lhs IS rhs`, or `rhs IS NULL` when `lhs` is nil.
public func === (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    if let lhs { return .compare(.is, lhs.sqlExpression, rhs.sqlExpression) }
    return .compare(.is, rhs.sqlExpression, .null)
}

/// `lhs IS rhs`.
public func === (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .compare(.is, lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs IS NOT rhs`: inequality where NULL equals NULL.
public func !== (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
    (lhs === rhs).is(.falsey)
}

/// `lhs IS NOT rhs`, or `rhs IS NOT NULL` when `lhs` is nil.
public func !== (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    (lhs === rhs).is(.falsey)
}

/// `lhs IS NOT rhs`.
public func !== (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    (lhs === rhs).is(.falsey)
}
