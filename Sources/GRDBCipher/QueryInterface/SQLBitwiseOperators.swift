// Bitwise operators of the query interface: `&`, `|`, `<<`, `>>` and `~`.
//
// ```swift
// Item.filter(Column("flags") & 4 != 0)
// // SELECT * FROM "item" WHERE ("flags" & ?) <> ?
// ```

/// `lhs & rhs`: bitwise AND.
public func & (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .associative(.bitwiseAnd, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs & rhs`: bitwise AND.
public func & (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.bitwiseAnd, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs & rhs`: bitwise AND.
public func & (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.bitwiseAnd, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs | rhs`: bitwise OR.
public func | (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .associative(.bitwiseOr, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs | rhs`: bitwise OR.
public func | (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.bitwiseOr, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs | rhs`: bitwise OR.
public func | (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .associative(.bitwiseOr, [lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs << rhs`: left shift.
public func << (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .binary("<<", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs << rhs`: left shift.
public func << (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .binary("<<", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs << rhs`: left shift.
public func << (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .binary("<<", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs >> rhs`: right shift.
public func >> (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .binary(">>", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs >> rhs`: right shift.
public func >> (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .binary(">>", lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs >> rhs`: right shift.
public func >> (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    .binary(">>", lhs.sqlExpression, rhs.sqlExpression)
}

/// `~value`: the bitwise complement.
public prefix func ~ (value: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.unary("~", value.sqlExpression))
}
