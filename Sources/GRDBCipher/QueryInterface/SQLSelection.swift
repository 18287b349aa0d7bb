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

    /// The selection as SQL. Excluding columns needs the table's columns.
    func sql(_ db: Database, tableName: String) throws -> SQL {
        switch impl {
        case .allColumns(let excluded):
            if excluded.isEmpty { return SQL(sql: "*") }
            let excludedLowercased = Set(excluded.map { $0.lowercased() })
            let columns = try db.columns(in: tableName).map(\.name)
                .filter { !excludedLowercased.contains($0.lowercased()) }
            return SQL(sql: columns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))
        case .expression(let expression):
            return expression.sql
        case .aliased(let expression, let name):
            return expression.sql + SQL(sql: " AS \(name.quotedDatabaseIdentifier)")
        case .literal(let literal):
            return literal
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

    /// All columns except these (names compared case-insensitively).
    public static func allColumns(excluding excludedColumns: some Collection<String>) -> AllColumns {
        AllColumns(excluding: excludedColumns)
    }

    /// All columns except these.
    public static func allColumns(excluding excludedColumns: some Collection<any ColumnExpression>) -> AllColumns {
        AllColumns(excluding: excludedColumns.map(\.name))
    }
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
