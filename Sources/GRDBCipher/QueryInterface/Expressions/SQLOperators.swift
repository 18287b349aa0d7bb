// Comparison and logical operators of the query interface. A comparison with
// a NULL value becomes `IS NULL` or `IS NOT NULL`, as in GRDB, so that
// `Column("email") == nil` finds the rows without an email. `!=` and `!==`
// are the negations of `==` and `===`, as `!` writes them.
//
// The operators are static members of `SQLSpecificExpressible`, declared with
// GRDB 7's parameter types, and not global functions: which overload Swift
// picks in an expression that the standard library could also read (its
// optional `== nil`, its `!` and `&&` on `Bool`) depends on how the
// candidates are declared. Declared as GRDB declares them, they are picked
// where GRDB's are: `!(Column("age") == nil)` is `"age" IS NOT NULL`, never
// the Swift `Bool` `true` bound as `?`.

extension SQLSpecificExpressible {
    // MARK: - Equality

    /// `lhs = rhs`, or `lhs IS NULL` when `rhs` is nil or NULL.
    ///
    /// ```swift
    /// Player.filter(Column("email") == nil)   // "email" IS NULL
    /// ```
    public static func == (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        .equal(lhs.sqlExpression, rhs?.sqlExpression ?? .null)
    }

    /// `lhs = 1` or `lhs = 0`, as GRDB writes a comparison with a boolean
    /// (`lhs` alone or `NOT lhs` when it is a boolean expression).
    ///
    /// ```swift
    /// Player.filter(Column("isActive") == true)   // "isActive" = 1
    /// ```
    public static func == (lhs: Self, rhs: Bool) -> SQLExpression {
        lhs.sqlExpression.is(rhs ? .true : .false)
    }

    /// `lhs = rhs`, or `rhs IS NULL` when `lhs` is nil or NULL.
    public static func == (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        .equal(lhs?.sqlExpression ?? .null, rhs.sqlExpression)
    }

    /// `rhs = 1` or `rhs = 0`.
    public static func == (lhs: Bool, rhs: Self) -> SQLExpression {
        rhs.sqlExpression.is(lhs ? .true : .false)
    }

    /// `lhs = rhs`.
    public static func == (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .equal(lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs <> rhs`, or `lhs IS NOT NULL` when `rhs` is nil or NULL.
    public static func != (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        SQLExpression.equal(lhs.sqlExpression, rhs?.sqlExpression ?? .null).is(.falsey)
    }

    /// `lhs <> 1` or `lhs <> 0`.
    public static func != (lhs: Self, rhs: Bool) -> SQLExpression {
        lhs.sqlExpression.is(rhs ? .true : .false).is(.falsey)
    }

    /// `lhs <> rhs`, or `rhs IS NOT NULL` when `lhs` is nil or NULL.
    public static func != (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        SQLExpression.equal(lhs?.sqlExpression ?? .null, rhs.sqlExpression).is(.falsey)
    }

    /// `rhs <> 1` or `rhs <> 0`.
    public static func != (lhs: Bool, rhs: Self) -> SQLExpression {
        rhs.sqlExpression.is(lhs ? .true : .false).is(.falsey)
    }

    /// `lhs <> rhs`.
    public static func != (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression.equal(lhs.sqlExpression, rhs.sqlExpression).is(.falsey)
    }

    // MARK: - Identity

    /// `lhs IS rhs`: equality where NULL equals NULL.
    ///
    /// ```swift
    /// Player.filter(Column("team") === team)   // "team" IS ?  (or IS NULL)
    /// ```
    public static func === (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        .compare(.is, lhs.sqlExpression, rhs?.sqlExpression ?? .null)
    }

    /// `lhs IS rhs`, or `rhs IS NULL` when `lhs` is nil.
    public static func === (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        if let lhs { return .compare(.is, lhs.sqlExpression, rhs.sqlExpression) }
        return .compare(.is, rhs.sqlExpression, .null)
    }

    /// `lhs IS rhs`.
    public static func === (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .compare(.is, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs IS NOT rhs`: inequality where NULL equals NULL.
    public static func !== (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        SQLExpression.compare(.is, lhs.sqlExpression, rhs?.sqlExpression ?? .null).is(.falsey)
    }

    /// `lhs IS NOT rhs`, or `rhs IS NOT NULL` when `lhs` is nil.
    public static func !== (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        (lhs === rhs).is(.falsey)
    }

    /// `lhs IS NOT rhs`.
    public static func !== (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression.compare(.is, lhs.sqlExpression, rhs.sqlExpression).is(.falsey)
    }

    // MARK: - Order

    /// `lhs < rhs`.
    public static func < (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .binary("<", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs < rhs`.
    public static func < (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .binary("<", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs < rhs`.
    public static func < (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .binary("<", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs <= rhs`.
    public static func <= (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .binary("<=", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs <= rhs`.
    public static func <= (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .binary("<=", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs <= rhs`.
    public static func <= (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .binary("<=", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs > rhs`.
    public static func > (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .binary(">", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs > rhs`.
    public static func > (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .binary(">", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs > rhs`.
    public static func > (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .binary(">", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs >= rhs`.
    public static func >= (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .binary(">=", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs >= rhs`.
    public static func >= (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .binary(">=", lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs >= rhs`.
    public static func >= (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .binary(">=", lhs.sqlExpression, rhs.sqlExpression)
    }

    // MARK: - Logic

    /// `lhs AND rhs`.
    ///
    /// ```swift
    /// Player.filter(Column("score") > 100 && Column("team") != nil)
    /// // "score" > ? AND "team" IS NOT NULL
    /// ```
    public static func && (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .associative(.and, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs AND rhs`.
    public static func && (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .associative(.and, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs AND rhs`.
    public static func && (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.and, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs OR rhs`.
    public static func || (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .associative(.or, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs OR rhs`.
    public static func || (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .associative(.or, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs OR rhs`.
    public static func || (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.or, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `NOT value`, or the negated operator when there is one:
    /// `!(Column("a") == 1)` is `"a" <> ?`, `![1, 2].contains(Column("id"))` is
    /// `"id" NOT IN (?, ?)`, `!(Column("a") == nil)` is `"a" IS NOT NULL`.
    public static prefix func ! (value: Self) -> SQLExpression {
        value.sqlExpression.is(.falsey)
    }
}
