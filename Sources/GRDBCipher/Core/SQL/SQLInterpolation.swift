/// Builds an ``SQL`` literal from literal text and interpolated values: the
/// `StringInterpolation` of ``SQL``.
///
/// A value becomes a `?` and a bound argument (`NULL` stays literal text);
/// identifiers are quoted; raw SQL goes in only through `sql:` and `literal:`.
/// Values of the query interface (columns, expressions, orderings,
/// requests, record types) are interpolated too, and turned into SQL when
/// the literal is built against a database.
///
/// ```swift
/// let query: SQL = """
///     SELECT * FROM \(identifier: "player")
///     WHERE name = \(name) AND id IN \(ids) AND \(sql: "score > ?", arguments: [1000])
///     """
/// ```
///
/// Extend it to interpolate your own types, in terms of the methods below:
///
/// ```swift
/// extension SQLInterpolation {
///     mutating func appendInterpolation(point: Point) {
///         appendInterpolation(sql: "MakePoint(?, ?)", arguments: [point.x, point.y])
///     }
/// }
/// let query: SQL = "SELECT \(point: origin)"
/// ```
public struct SQLInterpolation: StringInterpolationProtocol, Sendable {
    /// The SQL built so far.
    var result: SQL

    /// Creates an empty interpolation.
    public init(literalCapacity: Int, interpolationCount: Int) {
        // One character per interpolation: most become `?`.
        var text = ""
        text.reserveCapacity(literalCapacity + interpolationCount)
        result = SQL(sql: text)
    }

    /// Appends literal SQL text.
    public mutating func appendLiteral(_ sql: String) {
        result.append(sql: sql)
    }

    // MARK: - Raw SQL

    /// Appends raw SQL, which you must trust, and its arguments.
    ///
    /// ```swift
    /// let query: SQL = "SELECT * FROM \(sql: "player") WHERE \(sql: "name = ?", arguments: [name])"
    /// ```
    public mutating func appendInterpolation(sql: String, arguments: StatementArguments = StatementArguments()) {
        result.append(sql: sql, arguments: arguments)
    }

    /// Appends another piece of SQL and its arguments.
    ///
    /// ```swift
    /// let condition: SQL = "name = \(name)"
    /// let query: SQL = "SELECT * FROM player WHERE \(condition)"
    /// ```
    public mutating func appendInterpolation(_ sqlLiteral: SQL) {
        result += sqlLiteral
    }

    /// Appends another piece of SQL and its arguments.
    ///
    /// ```swift
    /// let query: SQL = "SELECT * FROM player WHERE \(literal: "name = \(name)")"
    /// ```
    public mutating func appendInterpolation(literal sqlLiteral: SQL) {
        result += sqlLiteral
    }

    // MARK: - Identifiers

    /// Appends a quoted identifier: `"group"`.
    ///
    /// ```swift
    /// let query: SQL = "INSERT INTO \(identifier: "group") DEFAULT VALUES"
    /// ```
    public mutating func appendInterpolation(identifier: String) {
        result.append(sql: identifier.quotedDatabaseIdentifier)
    }

    /// Appends the column named after a coding key: `"name"`, qualified
    /// with its table when a request needs it.
    ///
    /// ```swift
    /// let query: SQL = "SELECT \(CodingKeys.name) FROM player"
    /// ```
    public mutating func appendInterpolation(_ key: some CodingKey) {
        result.append(element: .column(key.stringValue))
    }

    /// Appends the column named after a coding key that is also an
    /// expression: `"name"`.
    public mutating func appendInterpolation(_ key: some CodingKey & SQLExpressible & SQLSelectable & SQLOrderingTerm) {
        result.append(element: .column(key.stringValue))
    }

    /// Appends the column named after a coding key: `"name"`.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ key: any CodingKey) {
        result.append(element: .column(key.stringValue))
    }

    /// Appends the name of a collation.
    ///
    /// ```swift
    /// let query: SQL = "SELECT * FROM player ORDER BY name COLLATE \(collation)"
    /// ```
    public mutating func appendInterpolation(_ collation: DatabaseCollation) {
        result.append(sql: collation.name)
    }

    // MARK: - Values

    /// Appends a value: `?` bound to it, or `NULL` for nil and NULL.
    ///
    /// ```swift
    /// let query: SQL = "SELECT * FROM player WHERE score > \(minimumScore)"
    /// ```
    public mutating func appendInterpolation(_ value: (some DatabaseValueConvertible)?) {
        result += SQL(value)
    }

    /// Appends a value of unknown type: `?` bound to it, or `NULL` for nil
    /// and NULL.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ value: (any DatabaseValueConvertible)?) {
        result += SQL(value?.databaseValue)
    }

    /// Appends a text or substring: `?` bound to it.
    ///
    /// ```swift
    /// let query: SQL = "SELECT * FROM player WHERE name = \(name)"
    /// ```
    public mutating func appendInterpolation<S: StringProtocol>(_ string: S) {
        result += SQL(String(string))
    }

    /// Appends one value that is also a sequence of values, such as `Data`:
    /// `?`, not a list of its elements.
    public mutating func appendInterpolation<S>(_ value: S)
    where S: DatabaseValueConvertible & Sequence, S.Element: DatabaseValueConvertible {
        result += SQL(value)
    }

    // MARK: - Lists

    /// Appends a parenthesized list of values, for `IN`: `(?,?,?)`, with
    /// `NULL` for each nil. An empty sequence gives `(SELECT NULL WHERE NULL)`,
    /// which matches nothing.
    ///
    /// ```swift
    /// let query: SQL = "SELECT * FROM player WHERE id IN \(ids)"
    /// ```
    public mutating func appendInterpolation<S: Sequence>(_ values: S) where S.Element: DatabaseValueConvertible {
        appendList(values.lazy.map { $0.databaseValue })
    }

    /// Appends a parenthesized list of values of unknown types, for `IN`:
    /// `(?,?,?)`, or `(SELECT NULL WHERE NULL)` for an empty sequence.
    public mutating func appendInterpolation(_ values: some Sequence<any DatabaseValueConvertible>) {
        appendList(values.lazy.map { $0.databaseValue })
    }

    private mutating func appendList(_ values: some Sequence<DatabaseValue>) {
        var isEmpty = true
        for dbValue in values {
            result.append(sql: isEmpty ? "(" : ",")
            isEmpty = false
            result += SQL(dbValue)
        }
        result.append(sql: isEmpty ? "(SELECT NULL WHERE NULL)" : ")")
    }
}
