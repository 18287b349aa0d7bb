// Interpolation of query-interface values in SQL literals. Tables become
// quoted names at once; columns, expressions, selections, orderings and
// requests stay values until the literal is built, so that they are
// qualified with their table alias when a request needs it.

extension SQLInterpolation {
    // MARK: - Tables

    /// Appends the quoted table name of a record type.
    ///
    /// ```swift
    /// let request: SQLRequest<Player> = "SELECT * FROM \(Player.self)"   // SELECT * FROM "player"
    /// ```
    public mutating func appendInterpolation(_ table: (some TableRecord).Type) {
        result.append(sql: table.databaseTableName.quotedDatabaseIdentifier)
    }

    /// Appends the quoted table name of a record type.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ table: any TableRecord.Type) {
        result.append(sql: table.databaseTableName.quotedDatabaseIdentifier)
    }

    /// Appends the quoted name of a table.
    ///
    /// ```swift
    /// let request: SQLRequest<Row> = "SELECT * FROM \(Table("player"))"
    /// ```
    @_disfavoredOverload
    public mutating func appendInterpolation<T>(_ table: Table<T>) {
        result.append(sql: table.tableName.quotedDatabaseIdentifier)
    }

    /// Appends the quoted table name of a record.
    ///
    /// ```swift
    /// try db.execute(literal: "DELETE FROM \(tableOf: player) WHERE id = \(player.id)")
    /// ```
    public mutating func appendInterpolation(tableOf record: some TableRecord) {
        appendInterpolation(type(of: record))
    }

    /// Appends the quoted table name of a record.
    @_disfavoredOverload
    public mutating func appendInterpolation(tableOf record: any TableRecord) {
        appendInterpolation(type(of: record))
    }

    /// Appends the columns a record type selects, qualified with its table
    /// name or with `tableAlias`.
    ///
    /// ```swift
    /// // SELECT "p".* FROM player p
    /// let request: SQLRequest<Player> = "SELECT \(columnsOf: Player.self, tableAlias: "p") FROM player p"
    /// ```
    public mutating func appendInterpolation(columnsOf recordType: (some TableRecord).Type, tableAlias: String? = nil) {
        let tableName = recordType.databaseTableName
        let alias = TableAliasBase(name: tableAlias ?? tableName, tableName: tableName)
        let selection = recordType.databaseSelection.map({ $0.sqlSelection.sql }).joined(separator: ", ")
        result.append(element: .qualified(selection, alias))
    }

    // MARK: - Expressions, selections, orderings

    /// Appends an expression: a column, an operation, a function call.
    ///
    /// ```swift
    /// let request: SQLRequest<Int> = "SELECT \(Column("score") + 1) FROM player"   // SELECT "score" + ? ...
    /// ```
    public mutating func appendInterpolation(_ expressible: some SQLExpressible & SQLSelectable & SQLOrderingTerm) {
        result += expressible.sqlExpression.sql
    }

    /// Appends an expression, or `NULL` for nil.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ expressible: (any SQLExpressible)?) {
        if let expressible {
            result += expressible.sqlExpression.sql
        } else {
            result.append(sql: "NULL")
        }
    }

    /// Appends a selection: `*`, an aliased expression.
    ///
    /// ```swift
    /// let request: SQLRequest<Row> = "SELECT \(AllColumns()) FROM player"   // SELECT * ...
    /// ```
    public mutating func appendInterpolation(_ selection: some SQLSelectable) {
        result += selection.sqlSelection.sql
    }

    /// Appends a selection, or `NULL` for nil.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ selection: (any SQLSelectable)?) {
        if let selection {
            result += selection.sqlSelection.sql
        } else {
            result.append(sql: "NULL")
        }
    }

    /// Appends an ordering term.
    ///
    /// ```swift
    /// let request: SQLRequest<Player> = "SELECT * FROM player ORDER BY \(Column("score").desc)"
    /// ```
    public mutating func appendInterpolation(_ orderingTerm: some SQLOrderingTerm) {
        result += orderingTerm.sqlOrdering.sql
    }

    /// Appends an ordering term.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ orderingTerm: any SQLOrderingTerm) {
        result += orderingTerm.sqlOrdering.sql
    }

    // MARK: - Requests

    /// Appends the SQL of a request, without parentheses: write them around.
    ///
    /// ```swift
    /// let maxScore = Player.select(max(Column("score")))
    /// // SELECT * FROM player WHERE score = (SELECT MAX("score") FROM "player")
    /// let request: SQLRequest<Player> = "SELECT * FROM player WHERE score = (\(maxScore))"
    /// ```
    public mutating func appendInterpolation(_ subquery: some SQLSubqueryable & SQLExpressible & SQLSelectable & SQLOrderingTerm) {
        result.append(element: .subquery(subquery.sqlSubquery))
    }

    // MARK: - Lists of expressions

    /// Appends a parenthesized list of expressions, for `IN`: `("a",? + "b")`,
    /// or `(SELECT NULL WHERE NULL)` for an empty sequence.
    public mutating func appendInterpolation<S: Sequence>(_ expressions: S) where S.Element: SQLSpecificExpressible {
        appendExpressionList(expressions.lazy.map({ $0.sqlExpression }))
    }

    /// Appends a parenthesized list of expressions of unknown types, for
    /// `IN`, or `(SELECT NULL WHERE NULL)` for an empty sequence.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ expressions: some Sequence<any SQLExpressible>) {
        appendExpressionList(expressions.lazy.map({ $0.sqlExpression }))
    }

    /// Appends a parenthesized list of expressions of any kind (values,
    /// columns, optionals), for `IN`, or `(SELECT NULL WHERE NULL)` for an
    /// empty sequence.
    ///
    /// ```swift
    /// func players(scoring list: [some SQLExpressible]) -> SQLRequest<Player> {
    ///     "SELECT * FROM player WHERE score IN \(list)"
    /// }
    /// // SELECT * FROM player WHERE score IN (?,"bonus")
    /// let request = players(scoring: [1000.sqlExpression, Column("bonus").sqlExpression])
    /// ```
    public mutating func appendInterpolation(_ expressions: some Sequence<some SQLExpressible>) {
        appendExpressionList(expressions.lazy.map({ $0.sqlExpression }))
    }

    /// Appends one expression that is also a sequence of expressions: the
    /// expression, not a list of its elements.
    public mutating func appendInterpolation<S>(_ expressible: S)
    where S: SQLExpressible & Sequence, S.Element: SQLExpressible
    {
        result += expressible.sqlExpression.sql
    }

    private mutating func appendExpressionList(_ expressions: some Sequence<SQLExpression>) {
        var isEmpty = true
        for expression in expressions {
            result.append(sql: isEmpty ? "(" : ",")
            isEmpty = false
            result += expression.sql
        }
        result.append(sql: isEmpty ? "(SELECT NULL WHERE NULL)" : ")")
    }

    // MARK: - Common table expressions

    /// Appends the quoted name of a common table expression.
    ///
    /// ```swift
    /// // WITH "cte" AS (...) SELECT * FROM "cte"
    /// let request: SQLRequest<Row> = "WITH \(definitionFor: cte) SELECT * FROM \(cte)"
    /// ```
    public mutating func appendInterpolation(_ cte: CommonTableExpression<some Any>) {
        result.append(sql: cte.tableName.quotedDatabaseIdentifier)
    }

    /// Appends the definition of a common table expression:
    /// `"name"("a", "b") AS (SELECT ...)`.
    public mutating func appendInterpolation(definitionFor cte: CommonTableExpression<some Any>) {
        result.append(sql: cte.tableName.quotedDatabaseIdentifier)
        if let columns = cte.cte.columns, !columns.isEmpty {
            result.append(sql: "(" + columns.map({ $0.quotedDatabaseIdentifier }).joined(separator: ", ") + ")")
        }
        result.append(sql: " AS (")
        result.append(element: .subquery(cte.cte.subquery))
        result.append(sql: ")")
    }

    /// Appends the name of a collation: `NOCASE`.
    public mutating func appendInterpolation(_ collation: Database.CollationName) {
        result.append(sql: collation.rawValue)
    }
}
