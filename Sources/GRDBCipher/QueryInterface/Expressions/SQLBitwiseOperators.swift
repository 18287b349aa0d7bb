// Bitwise operators of the query interface: `&`, `|`, `<<`, `>>` and `~`.
//
// ```swift
// Item.filter(Column("flags") & 4 != 0)
// // SELECT * FROM "item" WHERE ("flags" & ?) <> ?
// ```

extension SQLSpecificExpressible {
    /// `lhs & rhs`: bitwise AND.
    public static func & (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .associative(.bitwiseAnd, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs & rhs`: bitwise AND.
    public static func & (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .associative(.bitwiseAnd, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs & rhs`: bitwise AND.
    public static func & (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.bitwiseAnd, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs | rhs`: bitwise OR.
    public static func | (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .associative(.bitwiseOr, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs | rhs`: bitwise OR.
    public static func | (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .associative(.bitwiseOr, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs | rhs`: bitwise OR.
    public static func | (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.bitwiseOr, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs << rhs`: left shift.
    public static func << (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .binary("<<", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs << rhs`: left shift.
    public static func << (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .binary("<<", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs << rhs`: left shift.
    public static func << (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .binary("<<", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs >> rhs`: right shift.
    public static func >> (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .binary(">>", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs >> rhs`: right shift.
    public static func >> (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .binary(">>", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs >> rhs`: right shift.
    public static func >> (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .binary(">>", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `~value`: the bitwise complement.
    public static prefix func ~ (value: Self) -> SQLExpression {
        SQLExpression(.unary("~", value.sqlExpression))
    }
}
