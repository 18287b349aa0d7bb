// Arithmetic operators of the query interface: `+`, `-`, `*`, `/` and
// unary `-`, between expressions and values in either order. As in GRDB,
// `a + b + c` is written `("a" + "b") + "c"`: `+` and `*` are not flattened,
// since SQLite's floating point addition is not associative.
//
// ```swift
// Player.select(Column("score") * 2 + Column("bonus"))
// // SELECT ("score" * ?) + "bonus" FROM "player"
// ```

extension SQLSpecificExpressible {
    /// `lhs * rhs`: multiplication.
    public static func * (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .associative(.multiply, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs * rhs`: multiplication.
    public static func * (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .associative(.multiply, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs * rhs`: multiplication.
    public static func * (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.multiply, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs / rhs`: division.
    public static func / (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .binary("/", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs / rhs`: division.
    public static func / (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .binary("/", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs / rhs`: division.
    public static func / (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .binary("/", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs + rhs`: addition (numeric: SQLite does not add strings, use `.concat` for that).
    public static func + (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .associative(.add, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs + rhs`: addition (numeric: SQLite does not add strings, use `.concat` for that).
    public static func + (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .associative(.add, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs + rhs`: addition (numeric: SQLite does not add strings, use `.concat` for that).
    public static func + (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.add, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs - rhs`: subtraction.
    public static func - (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .binary("-", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs - rhs`: subtraction.
    public static func - (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .binary("-", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs - rhs`: subtraction.
    public static func - (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .binary("-", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `-value`: the opposite.
    public static prefix func - (value: Self) -> SQLExpression {
        SQLExpression(.unary("-", value.sqlExpression))
    }
}
