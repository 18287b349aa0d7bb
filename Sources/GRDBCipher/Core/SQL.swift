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
/// Interpolate a ``Column`` or `identifier:` for a quoted identifier, a
/// sequence of values for an `IN` list, or `sql:` for raw SQL you trust. See
/// ``SQLInterpolation`` for every interpolation, and extend it to add yours.
public struct SQL: Sendable, Hashable {
    /// The SQL text, with a `?` for each interpolated value.
    public private(set) var sql: String

    /// The arguments of the interpolated values, in order.
    public private(set) var arguments: StatementArguments

    /// Creates SQL from raw text and arguments.
    ///
    /// ```swift
    /// let query = SQL(sql: "UPDATE player SET name = ? WHERE id = ?", arguments: [name, id])
    /// ```
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        self.sql = sql
        self.arguments = arguments
    }

    /// Creates SQL that is one value: `?` bound to the value, or `NULL`.
    public init(_ value: (some DatabaseValueConvertible)?) {
        let dbValue = value?.databaseValue ?? .null
        if dbValue.isNull {
            self.init(sql: "NULL")
        } else {
            self.init(sql: "?", arguments: StatementArguments(CollectionOfOne(dbValue)))
        }
    }

    /// Whether the SQL text is empty (arguments alone do not count).
    ///
    /// ```swift
    /// SQL("").isEmpty           // true
    /// SQL("\(1)").isEmpty        // false: "?"
    /// ```
    public var isEmpty: Bool { sql.isEmpty }

    /// The SQL text and its arguments, ready for `db.execute(sql:arguments:)`.
    ///
    /// ```swift
    /// let (sql, arguments) = try query.build(db)
    /// ```
    ///
    /// - throws: A ``DatabaseError``, never in practice: the text is built as
    ///   the literal is written.
    public func build(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        (sql, arguments)
    }

    /// Appends SQL and its arguments.
    ///
    /// ```swift
    /// var query: SQL = "SELECT * FROM player "
    /// query.append(literal: "WHERE name = \(name)")
    /// ```
    public mutating func append(literal other: SQL) {
        self += other
    }

    /// Appends raw SQL and its arguments.
    ///
    /// ```swift
    /// var query: SQL = "SELECT * FROM player "
    /// query.append(sql: "WHERE name = ?", arguments: [name])
    /// ```
    public mutating func append(sql: String, arguments: StatementArguments = StatementArguments()) {
        self += SQL(sql: sql, arguments: arguments)
    }

    /// Concatenates two pieces of SQL.
    ///
    /// ```swift
    /// let query: SQL = "SELECT * FROM player " + "WHERE name = \(name)"
    /// ```
    public static func + (lhs: SQL, rhs: SQL) -> SQL {
        var result = lhs
        result += rhs
        return result
    }

    /// Appends SQL and its arguments.
    ///
    /// ```swift
    /// var query: SQL = "SELECT * FROM player "
    /// query += "WHERE name = \(name)"
    /// ```
    public static func += (lhs: inout SQL, rhs: SQL) {
        lhs.sql += rhs.sql
        if !rhs.arguments.isEmpty { lhs.arguments += rhs.arguments }
    }
}

extension SQL: ExpressibleByStringInterpolation {
    /// Creates SQL from a literal without interpolation.
    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    /// Creates SQL from an interpolated literal.
    public init(stringInterpolation: SQLInterpolation) {
        self = stringInterpolation.result
    }
}

extension Sequence where Element == SQL {
    /// Concatenates the pieces of SQL and their arguments, with a raw SQL
    /// separator between each.
    ///
    /// ```swift
    /// let components: [SQL] = ["UPDATE player", "SET name = \(name)", "WHERE id = \(id)"]
    /// let query = components.joined(separator: " ")
    /// ```
    public func joined(separator: String = "") -> SQL {
        var result = SQL(sql: "")
        var isFirst = true
        for piece in self {
            if isFirst {
                isFirst = false
            } else {
                result.append(sql: separator)
            }
            result += piece
        }
        return result
    }
}

extension String {
    /// The string as a quoted SQL identifier: `"name"`, with inner quotes doubled.
    public var quotedDatabaseIdentifier: String {
        "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// `count` question marks separated by commas, for SQL placeholders.
///
/// ```swift
/// databaseQuestionMarks(count: 3)  // "?,?,?"
/// ```
public func databaseQuestionMarks(count: Int) -> String {
    repeatElement("?", count: count).joined(separator: ",")
}
