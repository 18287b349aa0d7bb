/// A value a request can be ordered by: a column, an expression, or an
/// ordering built from one (`Column("name").desc`).
public protocol SQLOrderingTerm {
    /// The value as an ordering.
    var sqlOrdering: SQLOrdering { get }
}

/// An ordering of a request's rows.
public struct SQLOrdering: Sendable, SQLOrderingTerm {
    enum Impl: Sendable {
        case expression(SQLExpression)
        case asc(SQLExpression)
        case desc(SQLExpression)
        case ascNullsLast(SQLExpression)
        case descNullsFirst(SQLExpression)
        case literal(SQL)
        /// An ordering whose columns belong to the table of an alias.
        indirect case qualified(SQLOrdering, TableAliasBase)
        /// Terms that need the schema (a table's primary key), resolved
        /// when the SQL is generated.
        case deferred(@Sendable (Database) throws -> [SQLOrdering])
    }

    let impl: Impl

    init(_ impl: Impl) {
        self.impl = impl
    }

    /// Literal SQL, used as written.
    public init(literal sqlLiteral: SQL) {
        self.init(.literal(sqlLiteral))
    }

    /// The ordering itself.
    public var sqlOrdering: SQLOrdering { self }

    /// The opposite ordering, for ``QueryInterfaceRequest/reversed()``.
    /// Literal SQL cannot be reversed: nil.
    var reversed: SQLOrdering? {
        switch impl {
        case .expression(let expression), .asc(let expression): return SQLOrdering(.desc(expression))
        case .desc(let expression): return SQLOrdering(.asc(expression))
        case .ascNullsLast(let expression): return SQLOrdering(.descNullsFirst(expression))
        case .descNullsFirst(let expression): return SQLOrdering(.ascNullsLast(expression))
        case .literal: return nil
        case .qualified(let ordering, let alias): return ordering.reversed.map { SQLOrdering(.qualified($0, alias)) }
        case .deferred(let resolve):
            return SQLOrdering(.deferred { db in try resolve(db).map { try $0.reversedOrThrow() } })
        }
    }

    /// The opposite ordering.
    ///
    /// - throws: A ``DatabaseError`` for literal SQL, which cannot be reversed.
    func reversedOrThrow() throws -> SQLOrdering {
        guard let reversed else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "ordering literals can't be reversed: order by SQL(...).sqlExpression instead")
        }
        return reversed
    }

    /// Whether the ordering is known only when the request runs.
    var isDeferred: Bool {
        switch impl {
        case .deferred: true
        case .qualified(let ordering, _): ordering.isDeferred
        default: false
        }
    }

    /// The orderings, with the deferred ones resolved.
    func resolved(_ db: Database) throws -> [SQLOrdering] {
        switch impl {
        case .deferred(let resolve):
            return try resolve(db).flatMap { try $0.resolved(db) }
        case .qualified(let ordering, let alias):
            return try ordering.resolved(db).map { SQLOrdering(.qualified($0, alias)) }
        default:
            return [self]
        }
    }

    var sql: SQL {
        switch impl {
        case .expression(let expression): return expression.sql
        case .asc(let expression): return expression.sql + SQL(sql: " ASC")
        case .desc(let expression): return expression.sql + SQL(sql: " DESC")
        case .ascNullsLast(let expression): return expression.sql + SQL(sql: " ASC NULLS LAST")
        case .descNullsFirst(let expression): return expression.sql + SQL(sql: " DESC NULLS FIRST")
        case .literal(let literal): return literal
        case .qualified(let ordering, let alias): return SQL(element: .qualified(ordering.sql, alias))
        case .deferred(let resolve):
            return SQL(element: .deferred { db in try resolve(db).map({ $0.sql }).joined(separator: ", ") })
        }
    }
}

extension SQLSpecificExpressible {
    /// Ascending order: `expression ASC`.
    public var asc: SQLOrdering { SQLOrdering(.asc(sqlExpression)) }

    /// Descending order: `expression DESC`.
    public var desc: SQLOrdering { SQLOrdering(.desc(sqlExpression)) }

    /// Ascending order, NULLs last: `expression ASC NULLS LAST`.
    public var ascNullsLast: SQLOrdering { SQLOrdering(.ascNullsLast(sqlExpression)) }

    /// Descending order, NULLs first: `expression DESC NULLS FIRST`.
    public var descNullsFirst: SQLOrdering { SQLOrdering(.descNullsFirst(sqlExpression)) }
}
