import Foundation

/// SQL text with its arguments, built with string interpolation.
///
/// Interpolated values become bound arguments (`?`), never text spliced into
/// the SQL, so they cannot inject SQL:
///
/// ```swift
/// let name = "O'Brien"
/// try db.execute(literal: "INSERT INTO player (name, score) VALUES (\(name), \(1000))")
/// // INSERT INTO player (name, score) VALUES (?, ?) with arguments ["O'Brien", 1000]
/// ```
///
/// Interpolate a ``Column`` for a quoted identifier, a sequence of values for
/// an `IN` list, or `sql:` for raw SQL you trust.
public struct SQL: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The SQL text, with a `?` for each interpolated value.
    public private(set) var sql: String

    /// The arguments of the interpolated values, in order.
    public private(set) var arguments: StatementArguments

    /// Creates SQL from raw text and arguments.
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        self.sql = sql
        self.arguments = arguments
    }

    /// Creates SQL that is one bound value: `?`.
    public init(_ value: (some DatabaseValueConvertible)?) {
        self.init(sql: "?", arguments: StatementArguments([value?.databaseValue ?? .null]))
    }

    /// Creates SQL from a literal without interpolation.
    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    /// Creates SQL from an interpolated literal.
    public init(stringInterpolation: StringInterpolation) {
        self = stringInterpolation.result
    }

    /// Appends SQL and its arguments.
    public mutating func append(literal other: SQL) {
        sql += other.sql
        arguments += other.arguments
    }

    /// Appends raw SQL and its arguments.
    public mutating func append(sql: String, arguments: StatementArguments = StatementArguments()) {
        append(literal: SQL(sql: sql, arguments: arguments))
    }

    /// Concatenates two pieces of SQL.
    public static func + (lhs: SQL, rhs: SQL) -> SQL {
        var result = lhs
        result.append(literal: rhs)
        return result
    }

    /// Builds ``SQL`` from literal text and interpolated values.
    public struct StringInterpolation: StringInterpolationProtocol {
        var result = SQL(sql: "")

        /// Creates an empty interpolation.
        public init(literalCapacity: Int, interpolationCount: Int) {
            result.sql.reserveCapacity(literalCapacity + interpolationCount)
        }

        /// Appends literal SQL text.
        public mutating func appendLiteral(_ literal: String) {
            result.sql += literal
        }

        /// Appends a bound value: `?`. nil binds NULL.
        public mutating func appendInterpolation(_ value: (some DatabaseValueConvertible)?) {
            result.append(literal: SQL(value))
        }

        /// Appends a quoted column name: `"name"`.
        public mutating func appendInterpolation(_ column: Column) {
            result.sql += column.name.quotedDatabaseIdentifier
        }

        /// Appends one bound value that is also a sequence, such as `Data`: `?`.
        /// (Without this, `Data` would bind as a list of bytes.)
        public mutating func appendInterpolation<S>(_ value: S)
        where S: DatabaseValueConvertible & Sequence, S.Element: DatabaseValueConvertible {
            result.append(literal: SQL(value))
        }

        /// Appends a parenthesized list of bound values, for `IN`: `(?, ?, ?)`.
        /// An empty sequence gives `()`, which SQLite accepts as an empty list.
        public mutating func appendInterpolation<S: Sequence>(_ values: S) where S.Element: DatabaseValueConvertible {
            let values = values.map(\.databaseValue)
            result.sql += "(" + Array(repeating: "?", count: values.count).joined(separator: ", ") + ")"
            result.arguments += StatementArguments(values)
        }

        /// Appends another piece of SQL and its arguments.
        public mutating func appendInterpolation(literal sqlLiteral: SQL) {
            result.append(literal: sqlLiteral)
        }

        /// Appends another piece of SQL and its arguments.
        public mutating func appendInterpolation(_ sqlLiteral: SQL) {
            result.append(literal: sqlLiteral)
        }

        /// Appends raw SQL, which you must trust, and its arguments.
        public mutating func appendInterpolation(sql: String, arguments: StatementArguments = StatementArguments()) {
            result.append(sql: sql, arguments: arguments)
        }
    }
}

/// A column, by name: for ``Row`` subscripts and SQL interpolation.
///
/// ```swift
/// let nameColumn = Column("name")
/// let name: String = row[nameColumn]
/// try db.execute(literal: "UPDATE player SET \(nameColumn) = \(newName)")
/// ```
public struct Column: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The column name.
    public let name: String

    /// Creates a column.
    public init(_ name: String) {
        self.name = name
    }

    /// Creates a column from a string literal.
    public init(stringLiteral name: String) {
        self.name = name
    }

    /// The column name.
    public var description: String { name }
}

extension String {
    /// The string as a quoted SQL identifier: `"name"`, with inner quotes doubled.
    public var quotedDatabaseIdentifier: String {
        "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
