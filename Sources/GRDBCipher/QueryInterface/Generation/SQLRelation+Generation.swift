// The statements of a relation: SELECT, and the COUNT of its rows (DELETE
// and UPDATE are in SQLRelation+BatchWrites.swift).
// Each is written in one string, in a generation context whose table is the
// relation's, and which gathers the arguments.

extension SQLRelation {
    /// The `SELECT` statement and its arguments.
    func selectSQL(_ db: Database, forSingleResult singleResult: Bool = false) throws -> (String, StatementArguments) {
        let context = SQLGenerationContext(db, source: source)
        var sql = ""
        try writeSelect(into: &sql, context, forSingleResult: singleResult)
        return (sql, context.arguments)
    }

    /// `SELECT COUNT(*)` of the rows the relation selects: straight from the
    /// table when counting its rows is enough, from a subquery otherwise, as
    /// GRDB counts them.
    func countSQL(_ db: Database) throws -> (String, StatementArguments) {
        if hasDeferredClauses {
            return try resolvingDeferredClauses(db).countSQL(db)
        }
        guard groupExpressions == nil && limit == nil && ctes.isEmpty && joins.isEmpty else {
            return try trivialCountSQL(db)
        }
        var counted = unordered()
        counted.isDistinct = false
        if selection.count == 1 {
            let only = selection[0]
            if case .allColumns = only.impl {
                if isDistinct { return try trivialCountSQL(db) }
                counted.selection = [SQLExpression(.countAll).sqlSelection]
            } else if let expression = only.expression {
                // One distinct expression: `COUNT(DISTINCT expression)`.
                counted.selection = isDistinct
                    ? [SQLSelection(literal: SQL(sql: "COUNT(DISTINCT ") + expression.sql + SQL(sql: ")"))]
                    : [SQLExpression(.countAll).sqlSelection]
            } else {
                return try trivialCountSQL(db)
            }
        } else {
            if isDistinct { return try trivialCountSQL(db) }
            // An alias or a literal may be used by the conditions: keep them.
            let keepsSelection = selection.contains { selection in
                switch selection.impl {
                case .aliased, .literal: return true
                default: return false
                }
            }
            if keepsSelection { return try trivialCountSQL(db) }
            counted.selection = [SQLExpression(.countAll).sqlSelection]
        }
        return try counted.selectSQL(db)
    }

    /// `SELECT COUNT(*) FROM (SELECT ...)`, without the order.
    private func trivialCountSQL(_ db: Database) throws -> (String, StatementArguments) {
        let context = SQLGenerationContext(db)
        var sql = "SELECT COUNT(*) FROM ("
        try SQLSubquery(.relation(unordered())).write(into: &sql, context)
        sql += ")"
        return (sql, context.arguments)
    }

    // MARK: - Clauses

    /// The error of a request that selects no column (GRDB traps).
    static var emptySelectionError: DatabaseError {
        DatabaseError(resultCode: .SQLITE_MISUSE, message: "Can't generate SQL with an empty selection")
    }

    /// Writes the `SELECT` statement in a context whose table is the relation's.
    func writeSelect(into sql: inout String, _ context: SQLGenerationContext, forSingleResult singleResult: Bool = false)
    throws
    {
        if hasDeferredClauses {
            try resolvingDeferredClauses(context.db).writeSelect(into: &sql, context, forSingleResult: singleResult)
            return
        }
        // A joined request needs a column from any of its tables (see
        // `writeJoinedSelect`).
        if selection.isEmpty && joins.isEmpty {
            // GRDB traps.
            throw Self.emptySelectionError
        }
        if !joins.isEmpty {
            try writeJoinedSelect(into: &sql, context, forSingleResult: singleResult)
            return
        }
        try writeWith(into: &sql, context)
        sql += isDistinct ? "SELECT DISTINCT " : "SELECT "
        try write(selection.map({ $0.sql }), separator: ", ", into: &sql, context)
        sql += " FROM " + source.fromSQL
        try writeWhere(into: &sql, context)
        if let groupExpressions, !groupExpressions.isEmpty {
            sql += " GROUP BY "
            try write(groupExpressions.map({ $0.sql }), separator: ", ", into: &sql, context)
        }
        if !havingExpressions.isEmpty {
            sql += " HAVING "
            try havingExpressions.joined(operator: .and).sql.write(into: &sql, context)
        }
        let orderings = try resolvedOrderings()
        if !orderings.isEmpty {
            sql += " ORDER BY "
            try write(orderings.map({ $0.sql }), separator: ", ", into: &sql, context)
        }
        if let limit {
            sql += " LIMIT \(limit.limit)"
            if let offset = limit.offset { sql += " OFFSET \(offset)" }
        } else if singleResult, try !expectsSingleRow(context) {
            sql += " LIMIT 1"
        }
    }

    /// Whether the relation selects an aggregate without `GROUP BY`: it
    /// yields exactly one row, so `fetchOne` needs no `LIMIT 1` (as in GRDB).
    /// Whether clauses are known only when the request runs
    /// (`...WhenConnected`).
    var hasDeferredClauses: Bool {
        deferredGrouping != nil
            || selection.contains(where: \.isDeferred)
            || orderings.contains(where: \.isDeferred)
            || joins.contains { $0.relation.hasDeferredClauses }
    }

    /// The relation, with the clauses known only when the request runs
    /// resolved: an empty deferred clause is no clause at all, as in GRDB.
    func resolvingDeferredClauses(_ db: Database) throws -> SQLRelation {
        var relation = self
        relation.selection = try selection.flatMap { try $0.resolved(db) }
        relation.orderings = try orderings.flatMap { try $0.resolved(db) }
        if let deferredGrouping {
            let expressions = try deferredGrouping(db)
            relation.groupExpressions = expressions.isEmpty ? nil : expressions
            relation.deferredGrouping = nil
        }
        // Joined associations are written with the request: their clauses too.
        for index in relation.joins.indices where relation.joins[index].relation.hasDeferredClauses {
            relation.joins[index].relation = try relation.joins[index].relation.resolvingDeferredClauses(db)
        }
        return relation
    }

    var aggregatesWithoutGrouping: Bool {
        (groupExpressions ?? []).isEmpty && selection.contains(where: \.isAggregate)
    }

    /// `WITH [RECURSIVE] name(columns) AS (...), ... `, when there are
    /// common table expressions.
    func writeWith(into sql: inout String, _ context: SQLGenerationContext) throws {
        guard !ctes.isEmpty else { return }
        sql += ctes.contains(where: \.isRecursive) ? "WITH RECURSIVE " : "WITH "
        for (index, cte) in ctes.enumerated() {
            if index > 0 { sql += ", " }
            try cte.writeDefinition(into: &sql, context)
        }
        sql += " "
    }

    /// ` WHERE conditions`, when there are conditions.
    func writeWhere(into sql: inout String, _ context: SQLGenerationContext) throws {
        guard !filters.isEmpty else { return }
        let db = try context.db
        sql += " WHERE "
        try filters.map { try $0(db) }.joined(operator: .and).sql.write(into: &sql, context)
    }

    private func write(_ literals: [SQL], separator: String, into sql: inout String, _ context: SQLGenerationContext)
    throws
    {
        for (index, literal) in literals.enumerated() {
            if index > 0 { sql += separator }
            try literal.write(into: &sql, context)
        }
    }
}
