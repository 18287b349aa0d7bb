// Arithmetic operators of the query interface: `+`, `-`, `*`, `/` and
// unary `-`, between expressions and values in either order. As in GRDB,
// `a + b + c` is written `("a" + "b") + "c"`: `+` and `*` are not flattened,
// since SQLite's floating point addition is not associative.
//
// ```swift
// Player.select(Column("score") * 2 + Column("bonus"))
// // SELECT ("score" * ?) + "bonus" FROM "player"
// ```

/// `lhs * rhs`: multiplication.
public func * (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .associative(.multiply, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs * rhs`: multiplication.
public func * (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.multiply, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs * rhs`: multiplication.
public func * (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.multiply, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs / rhs`: division.
public func / (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .binary("/", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs / rhs`: division.
public func / (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .binary("/", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs / rhs`: division.
public func / (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .binary("/", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs + rhs`: addition (numeric: SQLite does not add strings, use `.concat` for that).
public func + (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .associative(.add, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs + rhs`: addition (numeric: SQLite does not add strings, use `.concat` for that).
public func + (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.add, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs + rhs`: addition (numeric: SQLite does not add strings, use `.concat` for that).
public func + (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.add, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs - rhs`: subtraction.
public func - (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .binary("-", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs - rhs`: subtraction.
public func - (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .binary("-", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs - rhs`: subtraction.
public func - (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .binary("-", lhs.sqlExpression, rhs.sqlExpression)
}

/// `-value`: the opposite.
public prefix func - (value: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.unary("-", value.sqlExpression))
}
