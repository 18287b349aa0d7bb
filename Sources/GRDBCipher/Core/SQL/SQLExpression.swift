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
        /// `lhs op rhs`, for the operators that are neither associative nor
        /// equality tests: `<`, `<=`, `>`, `>=`, `-`, `/`, `<<`, `>>`.
        case binary(String, SQLExpression, SQLExpression)
        /// `lhs = rhs`, `lhs <> rhs`, `lhs IS rhs`, `lhs IS NOT rhs`.
        case compare(EqualityOperator, SQLExpression, SQLExpression)
        /// `a op b op c`, two operands or more (see ``SQLExpression/associative(_:_:)``).
        case associative(AssociativeBinaryOperator, [SQLExpression])
        /// `-x`, `~x`.
        case unary(String, SQLExpression)
        /// `NOT expression`.
        case not(SQLExpression)
        /// `x [NOT] BETWEEN lower AND upper`.
        case between(SQLExpression, lower: SQLExpression, upper: SQLExpression, negated: Bool)
        /// `x [NOT] LIKE pattern [ESCAPE escape]`.
        case like(SQLExpression, pattern: SQLExpression, escape: SQLExpression?, negated: Bool)
        /// `expression [NOT] IN (values)`, two values or more (see
        /// ``SQLExpression/inList(_:_:)``).
        case inList(SQLExpression, [SQLExpression], negated: Bool)
        /// `expression COLLATE name`.
        case collated(SQLExpression, Database.CollationName)
        /// `CAST(expression AS storageClass)`.
        case cast(SQLExpression, Database.StorageClass)
        /// `name(arguments)`, a function that is not an aggregate.
        case function(String, [SQLExpression])
        /// `name([DISTINCT] arguments [ORDER BY ordering]) [FILTER (WHERE filter)]`.
        case aggregate(String, [SQLExpression], distinct: Bool, ordering: SQLOrdering?, filter: SQLExpression?)
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
        /// `"table" MATCH pattern`: a full-text search in the table of an
        /// alias, named as the request names it.
        case tableMatch(TableAliasBase, SQLExpression)
        /// Whether the table of an alias has a row: its rowid (or primary
        /// key, or columns) `IS NOT NULL`, or `IS NULL` when negated. The
        /// columns come from the schema when the SQL is generated (see
        /// ``TableAlias/exists``).
        case qualifiedExists(TableAliasBase, negated: Bool)
    }

    /// `=`, `<>`, `IS` and `IS NOT`: the operators that `!` turns into
    /// each other.
    enum EqualityOperator: String, Sendable {
        case equal = "="
        case notEqual = "<>"
        case `is` = "IS"
        case isNot = "IS NOT"

        var negated: EqualityOperator {
            switch self {
            case .equal: .notEqual
            case .notEqual: .equal
            case .is: .isNot
            case .isNot: .is
            }
        }
    }

    /// How an expression reads as an argument of a function that builds JSON.
    enum JSONInterpretation: Sendable {
        /// As SQLite reads it: a string is a JSON string, unless it comes
        /// from a function that returns JSON.
        /// `JSON_ARRAY('[1]')` is `["[1]"]`.
        case deferredToSQLite
        /// As a JSON value, parsed: `JSON_ARRAY(JSONB('[1]'))` is `[[1]]`.
        case jsonValue
    }

    let impl: Impl

    /// How the expression reads as an argument of a function that builds
    /// JSON (`JSON_ARRAY`, `JSON_OBJECT`...): as SQLite decides, or parsed
    /// as JSON (``JSONColumn``, ``SQLSpecificExpressible/asJSON``).
    var preferredJSONInterpretation = JSONInterpretation.deferredToSQLite

    init(_ impl: Impl) {
        self.impl = impl
    }

    static func column(_ name: String) -> SQLExpression { SQLExpression(.column(name)) }
    static func value(_ dbValue: DatabaseValue) -> SQLExpression { SQLExpression(.value(dbValue)) }
    static let null = SQLExpression.value(.null)

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
            return SQL(bound: dbValue)
        case .literal(let literal):
            return literal
        case .binary(let op, let lhs, let rhs):
            return lhs.operandSQL + SQL(sql: " \(op) ") + rhs.operandSQL
        case .compare(let op, let lhs, let rhs):
            return lhs.operandSQL + SQL(sql: " \(op.rawValue) ") + rhs.operandSQL
        case .associative(let op, let operands):
            switch operands.count {
            case 0: return SQL(bound: op.neutralValue)
            case 1: return operands[0].sql
            default: return operands.map({ $0.operandSQL }).joined(separator: " \(op.sql) ")
            }
        case .unary(let op, let operand):
            return SQL(sql: op) + operand.operandSQL
        case .not(let operand):
            // Negated subquery tests read as GRDB writes them: `NOT EXISTS`, `NOT IN`.
            switch operand.impl {
            case .exists(let subquery, let negated):
                return SQLExpression(.exists(subquery, negated: !negated)).sql
            case .inCollection(let value, let collection, let negated):
                return SQLExpression(.inCollection(value, collection, negated: !negated)).sql
            case .qualifiedExists(let alias, let negated):
                return SQLExpression(.qualifiedExists(alias, negated: !negated)).sql
            default:
                return SQL(sql: "NOT ") + operand.operandSQL
            }
        case .between(let operand, let lower, let upper, let negated):
            return operand.operandSQL + SQL(sql: negated ? " NOT BETWEEN " : " BETWEEN ")
                + lower.operandSQL + SQL(sql: " AND ") + upper.operandSQL
        case .like(let operand, let pattern, let escape, let negated):
            var result = operand.operandSQL + SQL(sql: negated ? " NOT LIKE " : " LIKE ") + pattern.operandSQL
            if let escape { result += SQL(sql: " ESCAPE ") + escape.operandSQL }
            return result
        case .inList(let operand, let values, let negated):
            return operand.operandSQL + SQL(sql: negated ? " NOT IN (" : " IN (")
                + values.map({ $0.sql }).joined(separator: ", ") + SQL(sql: ")")
        case .collated(let operand, let collation):
            return operand.sql + SQL(sql: " COLLATE \(collation.rawValue)")
        case .cast(let operand, let storageClass):
            return SQL(sql: "CAST(") + operand.sql + SQL(sql: " AS \(storageClass.rawValue))")
        case .function(let name, let arguments):
            return SQL(sql: "\(name)(") + arguments.map({ $0.sql }).joined(separator: ", ") + SQL(sql: ")")
        case .aggregate(let name, let arguments, let distinct, let ordering, let filter):
            var result = SQL(sql: distinct ? "\(name)(DISTINCT " : "\(name)(")
                + arguments.map({ $0.sql }).joined(separator: ", ")
            if let ordering { result += SQL(sql: " ORDER BY ") + ordering.sql }
            result += SQL(sql: ")")
            if let filter { result += SQL(sql: " FILTER (WHERE ") + filter.sql + SQL(sql: ")") }
            return result
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
        case .tableMatch(let alias, let pattern):
            return SQL(element: .qualified(SQL(element: .tableName), alias)) + SQL(sql: " MATCH ") + pattern.operandSQL
        case .qualifiedExists(let alias, let negated):
            // The context knows the table of the alias, and writes the test.
            let test = SQLSubquery(.existenceTest(negated: negated))
            return SQL(element: .qualified(SQL(element: .subquery(test)), alias))
        }
    }

    /// The SQL of the expression as the operand of an operator:
    /// parenthesized unless it is a column, a value, a cast or a function
    /// call (an aggregate with a `FILTER` clause is parenthesized).
    var operandSQL: SQL {
        switch impl {
        case .column, .value, .function, .countAll, .cast, .subquery:
            return sql
        case .aggregate(_, _, _, _, .none):
            return sql
        case .associative(_, let operands) where operands.count <= 1:
            return operands.first?.operandSQL ?? sql
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

// A DatabaseValue can be selected, ordered by, and joined with expressions
// (`[Column("score"), 1000.databaseValue].joined(operator: .add)`), as in GRDB.
extension DatabaseValue: SQLSpecificExpressible { }
