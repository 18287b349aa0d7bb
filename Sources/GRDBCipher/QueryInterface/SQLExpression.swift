/// An SQL expression, built by the query interface: columns, values,
/// operators, functions, or literal SQL.
///
/// ```swift
/// let expression = Column("score") > 1000 && Column("name") != nil
/// let request = Player.filter(expression)
/// // SELECT * FROM "player" WHERE ("score" > ?) AND ("name" IS NOT NULL)
/// ```
///
/// Values are never spliced into the SQL: each one becomes a `?` with a
/// bound argument.
public struct SQLExpression: Sendable {
    indirect enum Impl: Sendable {
        /// A column of the queried table.
        case column(String)
        /// A value, bound as an argument (NULL is written as `NULL`).
        case value(DatabaseValue)
        /// Literal SQL, parenthesized when it is an operand.
        case literal(SQL)
        /// `lhs op rhs`, for comparison and arithmetic operators.
        case binary(String, SQLExpression, SQLExpression)
        /// `AND` or `OR` over operands: `TRUE` or `FALSE` when there is none.
        case associative(String, [SQLExpression])
        /// `NOT expression`.
        case not(SQLExpression)
        /// `expression IS [NOT] NULL`.
        case isNull(SQLExpression, negated: Bool)
        /// `expression [NOT] IN (values)`; no value is `0` (or `1` negated).
        case inList(SQLExpression, [SQLExpression], negated: Bool)
        /// `name(arguments)`.
        case function(String, [SQLExpression])
        /// `COUNT(*)`.
        case countAll
        /// An expression whose columns belong to the table of an alias.
        case qualified(SQLExpression, TableAliasBase)
        /// A request, parenthesized: `(SELECT ...)`.
        case subquery(SQLSubquery)
        /// `[NOT] EXISTS (SELECT ...)`.
        case exists(SQLSubquery, negated: Bool)
        /// `expression [NOT] IN collection`, where the collection is a
        /// parenthesized subquery or the name of a common table expression.
        case inCollection(SQLExpression, SQL, negated: Bool)
    }

    let impl: Impl

    init(_ impl: Impl) {
        self.impl = impl
    }

    static func column(_ name: String) -> SQLExpression { SQLExpression(.column(name)) }
    static func value(_ dbValue: DatabaseValue) -> SQLExpression { SQLExpression(.value(dbValue)) }

    /// An expression from literal SQL, with its arguments.
    ///
    /// ```swift
    /// let expression = SQLExpression(literal: "score + \(bonus)")
    /// ```
    public init(literal sqlLiteral: SQL) {
        self.init(.literal(sqlLiteral))
    }

    /// An expression from raw SQL and its arguments.
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        self.init(literal: SQL(sql: sql, arguments: arguments))
    }

    /// The expression as SQL with its arguments.
    var sql: SQL {
        switch impl {
        case .column(let name):
            return SQL(element: .column(name))
        case .value(let dbValue):
            return SQL(dbValue)
        case .literal(let literal):
            return literal
        case .binary(let op, let lhs, let rhs):
            return lhs.operandSQL + SQL(sql: " \(op) ") + rhs.operandSQL
        case .associative(let op, let operands):
            switch operands.count {
            case 0: return SQL(sql: op == "AND" ? "1" : "0")
            case 1: return operands[0].sql
            default: return operands.map(\.operandSQL).joined(separator: " \(op) ")
            }
        case .not(let operand):
            // Negated subquery tests read as GRDB writes them: `NOT EXISTS`, `NOT IN`.
            switch operand.impl {
            case .exists(let subquery, let negated):
                return SQLExpression(.exists(subquery, negated: !negated)).sql
            case .inCollection(let value, let collection, let negated):
                return SQLExpression(.inCollection(value, collection, negated: !negated)).sql
            default:
                return SQL(sql: "NOT ") + operand.operandSQL
            }
        case .isNull(let operand, let negated):
            return operand.operandSQL + SQL(sql: negated ? " IS NOT NULL" : " IS NULL")
        case .inList(let operand, let values, let negated):
            guard !values.isEmpty else { return SQL(sql: negated ? "1" : "0") }
            // One value is a comparison, as GRDB writes it: `=`, never `IS`,
            // so that `IN (NULL)` still matches nothing.
            if values.count == 1 { return SQLExpression(.binary(negated ? "<>" : "=", operand, values[0])).sql }
            return operand.operandSQL + SQL(sql: negated ? " NOT IN (" : " IN (")
                + values.map(\.sql).joined(separator: ", ") + SQL(sql: ")")
        case .function(let name, let arguments):
            return SQL(sql: "\(name)(") + arguments.map(\.sql).joined(separator: ", ") + SQL(sql: ")")
        case .countAll:
            return SQL(sql: "COUNT(*)")
        case .qualified(let expression, let alias):
            return SQL(element: .qualified(expression.sql, alias))
        case .subquery(let subquery):
            return SQL(sql: "(") + SQL(element: .subquery(subquery)) + SQL(sql: ")")
        case .exists(let subquery, let negated):
            return SQL(sql: negated ? "NOT EXISTS (" : "EXISTS (") + SQL(element: .subquery(subquery)) + SQL(sql: ")")
        case .inCollection(let value, let collection, let negated):
            return value.operandSQL + SQL(sql: negated ? " NOT IN " : " IN ") + collection
        }
    }

    /// The SQL of the expression as the operand of an operator:
    /// parenthesized unless it is a column, a value or a function call.
    var operandSQL: SQL {
        switch impl {
        case .column, .value, .function, .countAll, .subquery:
            return sql
        case .associative(_, let operands) where operands.count == 1:
            return operands[0].operandSQL
        case .qualified(let expression, let alias):
            return SQL(element: .qualified(expression.operandSQL, alias))
        default:
            return SQL(sql: "(") + sql + SQL(sql: ")")
        }
    }
}

/// A value that can be used in the query interface as an SQL expression:
/// columns, expressions, and every ``DatabaseValueConvertible`` value.
public protocol SQLExpressible {
    /// The value as an SQL expression.
    var sqlExpression: SQLExpression { get }
}

/// An SQL expression that is specific to the query interface, as opposed to
/// plain values: columns and built expressions. They can be selected and
/// ordered by.
public protocol SQLSpecificExpressible: SQLExpressible, SQLSelectable, SQLOrderingTerm { }

extension SQLSpecificExpressible {
    /// The expression, selected.
    public var sqlSelection: SQLSelection { SQLSelection(.expression(sqlExpression)) }

    /// The expression, in ascending order (SQLite's default).
    public var sqlOrdering: SQLOrdering { SQLOrdering(.expression(sqlExpression)) }
}

extension SQLExpression: SQLSpecificExpressible {
    /// The expression itself.
    public var sqlExpression: SQLExpression { self }
}

extension DatabaseValueConvertible {
    /// The value, bound as an argument.
    public var sqlExpression: SQLExpression { .value(databaseValue) }
}

extension Optional: SQLExpressible where Wrapped: SQLExpressible {
    /// The wrapped expression, or NULL.
    public var sqlExpression: SQLExpression {
        self?.sqlExpression ?? .value(.null)
    }
}
