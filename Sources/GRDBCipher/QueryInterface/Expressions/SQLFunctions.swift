// SQLite functions of the query interface, under GRDB's Swift names.
//
// ```swift
// Player.select(max(Column("score")), average(Column("score")))
// // SELECT MAX("score"), AVG("score") FROM "player"
// ```

/// `ABS(value)`.
///
/// ```swift
/// abs(Column("amount"))   // ABS("amount")
/// ```
public func abs(_ value: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.function("ABS", [value.sqlExpression]))
}

/// `AVG(value)`, the aggregate average, optionally of the rows that match
/// `filter`: `AVG(value) FILTER (WHERE filter)`.
///
/// ```swift
/// average(Column("score"))                             // AVG("score")
/// average(Column("score"), filter: Column("score") > 0) // AVG("score") FILTER (WHERE "score" > ?)
/// ```
public func average(
    _ value: some SQLSpecificExpressible,
    filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression
{
    .aggregate("AVG", [value.sqlExpression], filter: filter?.sqlExpression)
}

/// `CAST(expression AS storageClass)`.
///
/// ```swift
/// cast(Column("value"), as: .real)   // CAST("value" AS REAL)
/// ```
public func cast(_ expression: some SQLSpecificExpressible, as storageClass: Database.StorageClass) -> SQLExpression {
    SQLExpression(.cast(expression.sqlExpression, storageClass))
}

/// `COALESCE(values...)`: the first value that is not NULL.
///
/// Unlike SQLite's function, it accepts any number of values: none gives
/// `NULL`, one gives the value itself, `COALESCE` is used from two values.
///
/// ```swift
/// coalesce([Column("nickname"), Column("name")])   // COALESCE("nickname", "name")
/// ```
public func coalesce(_ values: some Collection<any SQLSpecificExpressible>) -> SQLExpression {
    switch values.count {
    case 0: return .null
    case 1: return values.first!.sqlExpression
    default: return SQLExpression(.function("COALESCE", values.map({ $0.sqlExpression })))
    }
}

/// `COUNT(value)`: the number of rows where the value is not NULL.
///
/// ```swift
/// count(Column("email"))   // COUNT("email")
/// ```
public func count(_ counted: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("COUNT", [counted.sqlExpression])
}

/// `COUNT(DISTINCT value)`: the number of distinct values that are not NULL.
///
/// ```swift
/// count(distinct: Column("email"))   // COUNT(DISTINCT "email")
/// ```
public func count(distinct value: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("COUNT", [value.sqlExpression], distinct: true)
}

extension SQLSpecificExpressible {
    /// `IFNULL(lhs, rhs)`: `lhs`, or `rhs` when `lhs` is NULL.
    ///
    /// ```swift
    /// Column("name") ?? "Anonymous"   // IFNULL("name", ?)
    /// ```
    public static func ?? (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        SQLExpression(.function("IFNULL", [lhs.sqlExpression, rhs.sqlExpression]))
    }
}

// Inside the library, an optional expression with a fallback is unwrapped
// by Swift: the code that writes `expression ?? .null` means the Swift
// operator, not `IFNULL`, which an optional expression, being an expression
// too, would otherwise get. Internal: users get GRDB's `IFNULL`.
func ?? (lhs: SQLExpression?, rhs: @autoclosure () throws -> SQLExpression) rethrows -> SQLExpression {
    if let lhs { return lhs }
    return try rhs()
}

/// `LENGTH(value)`: the number of characters of a string, of bytes of a
/// blob.
///
/// ```swift
/// length(Column("name"))   // LENGTH("name")
/// ```
public func length(_ value: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.function("LENGTH", [value.sqlExpression]))
}

/// `MAX(value1, value2, ...)`: the largest of several values (not an
/// aggregate).
///
/// ```swift
/// max(Column("score"), 1000)   // MAX("score", ?)
/// ```
public func max(
    _ value1: any SQLSpecificExpressible,
    _ value2: any SQLExpressible,
    _ values: any SQLExpressible...) -> SQLExpression
{
    SQLExpression(.function("MAX", [value1.sqlExpression, value2.sqlExpression] + values.map({ $0.sqlExpression })))
}

/// `MAX(value)`, the aggregate maximum, optionally of the rows that match
/// `filter`.
///
/// ```swift
/// max(Column("score"))   // MAX("score")
/// ```
public func max(
    _ value: some SQLSpecificExpressible,
    filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression
{
    .aggregate("MAX", [value.sqlExpression], filter: filter?.sqlExpression)
}

/// `MIN(value1, value2, ...)`: the smallest of several values (not an
/// aggregate).
///
/// ```swift
/// min(Column("score"), 1000)   // MIN("score", ?)
/// ```
public func min(
    _ value1: any SQLSpecificExpressible,
    _ value2: any SQLExpressible,
    _ values: any SQLExpressible...) -> SQLExpression
{
    SQLExpression(.function("MIN", [value1.sqlExpression, value2.sqlExpression] + values.map({ $0.sqlExpression })))
}

/// `MIN(value)`, the aggregate minimum, optionally of the rows that match
/// `filter`.
///
/// ```swift
/// min(Column("score"))   // MIN("score")
/// ```
public func min(
    _ value: some SQLSpecificExpressible,
    filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression
{
    .aggregate("MIN", [value.sqlExpression], filter: filter?.sqlExpression)
}

/// `SUM(value)`, the aggregate sum: NULL when there is no row (see
/// ``total(_:orderBy:filter:)`` for 0.0 instead). `orderBy` orders the
/// summed values (`SUM(value ORDER BY ...)`), `filter` selects the rows.
///
/// ```swift
/// sum(Column("amount"))                                  // SUM("amount")
/// sum(Column("amount"), filter: Column("amount") > 0)    // SUM("amount") FILTER (WHERE "amount" > ?)
/// ```
public func sum(
    _ value: some SQLSpecificExpressible,
    orderBy ordering: (any SQLOrderingTerm)? = nil,
    filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression
{
    .aggregate("SUM", [value.sqlExpression], ordering: ordering?.sqlOrdering, filter: filter?.sqlExpression)
}

/// `TOTAL(value)`, the aggregate sum as a floating point value: 0.0 when
/// there is no row. `orderBy` and `filter` as in ``sum(_:orderBy:filter:)``.
///
/// ```swift
/// total(Column("amount"))   // TOTAL("amount")
/// ```
public func total(
    _ value: some SQLSpecificExpressible,
    orderBy ordering: (any SQLOrderingTerm)? = nil,
    filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression
{
    .aggregate("TOTAL", [value.sqlExpression], ordering: ordering?.sqlOrdering, filter: filter?.sqlExpression)
}

extension SQLSpecificExpressible {
    /// `swiftCapitalizedString(value)`: Swift's `String.capitalized`, through
    /// the function every connection has (``DatabaseFunction/capitalize``).
    public var capitalized: SQLExpression { DatabaseFunction.capitalize(sqlExpression) }

    /// `swiftLowercaseString(value)`: Swift's `String.lowercased()`, Unicode
    /// aware, unlike SQLite's `LOWER` (``DatabaseFunction/lowercase``).
    ///
    /// ```swift
    /// Player.order(Column("name").lowercased)   // ORDER BY swiftLowercaseString("name")
    /// ```
    public var lowercased: SQLExpression { DatabaseFunction.lowercase(sqlExpression) }

    /// `swiftUppercaseString(value)`: Swift's `String.uppercased()`, Unicode
    /// aware, unlike SQLite's `UPPER` (``DatabaseFunction/uppercase``).
    public var uppercased: SQLExpression { DatabaseFunction.uppercase(sqlExpression) }

    /// `swiftLocalizedCapitalizedString(value)`: Foundation's
    /// `String.localizedCapitalized` (``DatabaseFunction/localizedCapitalize``).
    public var localizedCapitalized: SQLExpression { DatabaseFunction.localizedCapitalize(sqlExpression) }

    /// `swiftLocalizedLowercaseString(value)`: Foundation's
    /// `String.localizedLowercase` (``DatabaseFunction/localizedLowercase``).
    public var localizedLowercased: SQLExpression { DatabaseFunction.localizedLowercase(sqlExpression) }

    /// `swiftLocalizedUppercaseString(value)`: Foundation's
    /// `String.localizedUppercase` (``DatabaseFunction/localizedUppercase``).
    public var localizedUppercased: SQLExpression { DatabaseFunction.localizedUppercase(sqlExpression) }
}

extension SQLExpression {
    /// An aggregate function call.
    static func aggregate(
        _ name: String,
        _ arguments: [SQLExpression],
        distinct: Bool = false,
        ordering: SQLOrdering? = nil,
        filter: SQLExpression? = nil) -> SQLExpression
    {
        SQLExpression(.aggregate(name, arguments, distinct: distinct, ordering: ordering, filter: filter))
    }
}
