/// A value that can be selected by a request: a column, an expression, or
/// all columns (``AllColumns``).
public protocol SQLSelectable {
    /// The value as a selection.
    var sqlSelection: SQLSelection { get }
}

/// What a request selects: an expression, possibly aliased, or `*`.
public struct SQLSelection: Sendable, SQLSelectable {
    enum Impl: Sendable {
        /// `*`, or every column but the excluded ones (names compared
        /// case-insensitively).
        case allColumns(excluding: Set<String>)
        case expression(SQLExpression)
        case aliased(SQLExpression, String)
        case literal(SQL)
        /// A selection whose columns belong to the table of an alias.
        indirect case qualified(SQLSelection, TableAliasBase)
        /// Selections known when the request runs (``SelectionRequest/selectWhenConnected(_:)``).
        case deferred(@Sendable (Database) throws -> [SQLSelection])
    }

    let impl: Impl

    init(_ impl: Impl) {
        self.impl = impl
    }

    /// Literal SQL, selected as written.
    public init(literal sqlLiteral: SQL) {
        self.init(.literal(sqlLiteral))
    }

    /// The selection itself.
    public var sqlSelection: SQLSelection { self }

    /// The selection as SQL: `*` and excluded columns are resolved when the
    /// SQL is built, against the table of the request.
    var sql: SQL {
        switch impl {
        case .allColumns(let excluded):
            return SQL(element: .allColumns(excluding: excluded))
        case .expression(let expression):
            return expression.sql
        case .aliased(let expression, let name):
            return expression.sql + SQL(sql: " AS \(name.quotedDatabaseIdentifier)")
        case .literal(let literal):
            return literal
        case .qualified(let selection, let alias):
            return SQL(element: .qualified(selection.sql, alias))
        case .deferred(let selections):
            return SQL(element: .deferred { db in try selections(db).map(\.sql).joined(separator: ", ") })
        }
    }

    /// Whether the selection is known only when the request runs.
    var isDeferred: Bool {
        switch impl {
        case .deferred: true
        case .qualified(let selection, _): selection.isDeferred
        default: false
        }
    }

    /// The selections, with the deferred ones resolved.
    func resolved(_ db: Database) throws -> [SQLSelection] {
        switch impl {
        case .deferred(let selections):
            return try selections(db).flatMap { try $0.resolved(db) }
        case .qualified(let selection, let alias):
            return try selection.resolved(db).map { SQLSelection(.qualified($0, alias)) }
        default:
            return [self]
        }
    }

    /// The selection as raw SQL, resolved against a table: for the
    /// `RETURNING` clause of statements on that table.
    func sql(_ db: Database, tableName: String) throws -> SQL {
        let context = SQLGenerationContext(db, source: SQLSource(tableName: tableName))
        let text = try context.sql(sql)
        return SQL(sql: text, arguments: context.arguments)
    }

    /// The selected expression, if the selection is one (for counts).
    var expression: SQLExpression? {
        switch impl {
        case .expression(let expression), .aliased(let expression, _): return expression
        case .qualified(let selection, let alias): return selection.expression.map { SQLExpression(.qualified($0, alias)) }
        case .allColumns, .literal, .deferred: return nil
        }
    }
}

/// All the columns of a table: `*`, or all but some.
///
/// ```swift
/// struct Player: TableRecord {
///     static var databaseSelection: [any SQLSelectable] { [.allColumns(excluding: ["secret"])] }
/// }
/// ```
public struct AllColumns: SQLSelectable, Sendable {
    let excluded: Set<String>

    /// All columns: `*`.
    public init() {
        excluded = []
    }

    /// All columns except these.
    public init(excluding excludedColumns: some Collection<String>) {
        excluded = Set(excludedColumns)
    }

    /// `*`, or the list of the columns that are not excluded.
    public var sqlSelection: SQLSelection { SQLSelection(.allColumns(excluding: excluded)) }
}

extension SQLSelectable where Self == AllColumns {
    /// All columns: `*`.
    public static var allColumns: AllColumns { AllColumns() }
}

extension SQLSpecificExpressible {
    /// The expression, selected under a name: `expression AS name`.
    public func forKey(_ key: String) -> SQLSelection {
        SQLSelection(.aliased(sqlExpression, key))
    }

    /// The expression, selected under a coding key's name.
    public func forKey(_ key: some CodingKey) -> SQLSelection {
        forKey(key.stringValue)
    }
}
