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
/// A literal can also hold values of the query interface: columns,
/// expressions, orderings, requests (as subqueries), the columns of a record
/// type. Those are turned into SQL when the literal is built against a
/// database (``build(_:)``, `execute(literal:)`, a request that uses it), so
/// that a column is qualified with its table alias when the request needs it:
///
/// ```swift
/// let query: SQL = "SELECT \(columnsOf: Player.self) FROM player WHERE \(Column("score") > 1000)"
/// // SELECT "player".* FROM player WHERE "score" > ?
/// ```
///
/// Interpolate a ``Column`` or `identifier:` for a quoted identifier, a
/// sequence of values for an `IN` list, or `sql:` for raw SQL you trust. See
/// ``SQLInterpolation`` for every interpolation, and extend it to add yours.
public struct SQL: Sendable {
    /// A part of a literal that is not raw text: it is turned into SQL when
    /// the literal is built, by an ``SQLGenerationContext``.
    enum Element: Sendable {
        /// Raw SQL and its arguments.
        case sql(String, StatementArguments)
        /// A column of the table the context generates SQL for, qualified
        /// with its alias when the request needs one.
        case column(String)
        /// `*`, or every column but the excluded ones (names compared
        /// case-insensitively), of the context's table.
        case allColumns(excluding: Set<String>)
        /// The name of the context's table, as the request names it: its
        /// alias name, or the table name.
        case tableName
        /// SQL whose columns belong to the table of an alias.
        case qualified(SQL, TableAliasBase)
        /// A request, as the text of its `SELECT` statement (no parentheses).
        case subquery(SQLSubquery)
        /// SQL that needs the schema (a table's primary key), built from the
        /// database when the literal is written.
        case deferred(@Sendable (Database) throws -> SQL)
    }

    // A literal is `leadingElements` followed by raw text and its arguments.
    // Raw text is concatenated in place, as it comes: a literal made of raw
    // text only (the usual `execute(literal:)`) has no element at all and
    // builds to its text and arguments as they are. `leadingElements` is
    // empty, or holds at least one element that is not raw text.

    /// What comes before the raw text at the end.
    private(set) var leadingElements: [Element]
    /// The raw text at the end.
    private var trailingSQL: String
    /// The arguments of the raw text at the end.
    private var trailingArguments: StatementArguments

    /// Creates SQL from raw text and arguments.
    ///
    /// ```swift
    /// let query = SQL(sql: "UPDATE player SET name = ? WHERE id = ?", arguments: [name, id])
    /// ```
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        leadingElements = []
        trailingSQL = sql
        trailingArguments = arguments
    }

    /// Creates SQL that is one value: `?` bound to the value, or `NULL`.
    public init(_ value: (some DatabaseValueConvertible)?) {
        self.init(bound: value?.databaseValue ?? .null)
    }

    /// SQL that is one value: `?` bound to the value, or `NULL`. (A
    /// ``DatabaseValue`` is also an expression: `SQL(dbValue)` would build
    /// it through ``init(_:)-(SQLSpecificExpressible)``, which ends here.)
    init(bound dbValue: DatabaseValue) {
        if dbValue.isNull {
            self.init(sql: "NULL")
        } else {
            self.init(sql: "?", arguments: StatementArguments(CollectionOfOne(dbValue)))
        }
    }

    /// Creates SQL from an expression of the query interface.
    ///
    /// ```swift
    /// let columnLiteral = SQL(Column("username"))
    /// let emailLiteral = [columnLiteral, SQL("@example.com".databaseValue)].joined(separator: " || ")
    /// let emails = try String.fetchAll(db, User.select(emailLiteral.sqlExpression))
    /// ```
    public init(_ expression: some SQLSpecificExpressible) {
        self = expression.sqlExpression.sql
    }

    /// A literal made of one element.
    init(element: Element) {
        self.init(sql: "")
        append(element: element)
    }

    /// Whether the SQL text is empty (arguments alone do not count). A
    /// value of the query interface is never empty.
    ///
    /// ```swift
    /// SQL("").isEmpty           // true
    /// SQL("\(1)").isEmpty        // false: "?"
    /// ```
    public var isEmpty: Bool { leadingElements.isEmpty && trailingSQL.isEmpty }

    /// Whether the literal is raw text and arguments only, and needs no
    /// database to be built.
    var isRaw: Bool { leadingElements.isEmpty }

    /// The SQL text and its arguments, ready for `db.execute(sql:arguments:)`.
    ///
    /// ```swift
    /// let (sql, arguments) = try query.build(db)
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if a value of the query interface cannot
    ///   be turned into SQL: excluded columns of a table that does not exist,
    ///   a table alias that the request does not use, a request that needs
    ///   the schema.
    public func build(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        if leadingElements.isEmpty { return (trailingSQL, trailingArguments) }
        let context = SQLGenerationContext(db)
        let sql = try context.sql(self)
        return (sql, context.arguments)
    }

    /// Writes the literal into `sql`, its arguments into the context.
    func write(into sql: inout String, _ context: SQLGenerationContext) throws {
        for element in leadingElements {
            try context.write(element, into: &sql)
        }
        sql += trailingSQL
        context.append(arguments: trailingArguments)
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
        trailingSQL += sql
        if !arguments.isEmpty { trailingArguments += arguments }
    }

    /// Appends an element that is not raw text.
    mutating func append(element: Element) {
        if case .sql(let sql, let arguments) = element {
            append(sql: sql, arguments: arguments)
            return
        }
        flushTrailingText()
        leadingElements.append(element)
    }

    /// Moves the raw text at the end into the elements.
    private mutating func flushTrailingText() {
        if trailingSQL.isEmpty && trailingArguments.isEmpty { return }
        leadingElements.append(.sql(trailingSQL, trailingArguments))
        trailingSQL = ""
        trailingArguments = StatementArguments()
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
        if !rhs.leadingElements.isEmpty {
            lhs.flushTrailingText()
            lhs.leadingElements.append(contentsOf: rhs.leadingElements)
        }
        lhs.append(sql: rhs.trailingSQL, arguments: rhs.trailingArguments)
    }
}

extension SQL {
    // Raw text and arguments without a database, for literals that need
    // none: tests, and SQL built by the library from raw parts.

    /// The SQL text of a literal that needs no database.
    var sql: String { resolvedWithoutDatabase.sql }

    /// The arguments of a literal that needs no database.
    var arguments: StatementArguments { resolvedWithoutDatabase.arguments }

    private var resolvedWithoutDatabase: (sql: String, arguments: StatementArguments) {
        if leadingElements.isEmpty { return (trailingSQL, trailingArguments) }
        let context = SQLGenerationContext(nil)
        do {
            let sql = try context.sql(self)
            return (sql, context.arguments)
        } catch {
            preconditionFailure("this SQL literal needs a database: use build(db)")
        }
    }
}

extension SQL: SQLSpecificExpressible {
    /// The literal as an expression, parenthesized when it is an operand.
    ///
    /// ```swift
    /// func date(_ value: some SQLExpressible) -> SQLExpression {
    ///     SQL("DATE(\(value))").sqlExpression
    /// }
    /// // SELECT * FROM "player" WHERE DATE("createdAt") = ?
    /// let request = Player.filter(date(Column("createdAt")) == "2020-01-23")
    /// ```
    public var sqlExpression: SQLExpression { SQLExpression(literal: self) }

    /// The literal as a selection, written as it is:
    /// `SQL("firstName AS givenName, lastName AS familyName").sqlSelection`.
    public var sqlSelection: SQLSelection { SQLSelection(literal: self) }

    /// The literal as one ordering term, written as it is:
    /// `SQL("name DESC").sqlOrdering`. It cannot be reversed.
    public var sqlOrdering: SQLOrdering { SQLOrdering(literal: self) }
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
        // Most names have no quote to double: skip Foundation's search and
        // replace, which costs thousands of instructions per call.
        if !utf8.contains(UInt8(ascii: "\"")) { return "\"" + self + "\"" }
        return "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
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
