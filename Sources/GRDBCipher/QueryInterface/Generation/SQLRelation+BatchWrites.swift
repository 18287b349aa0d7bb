// The statements that change the rows a relation selects, as GRDB writes
// them:
//
//     DELETE FROM "player" WHERE "score" < ?
//     UPDATE OR IGNORE "player" SET "score" = "score" + ? WHERE "teamId" = ?
//     DELETE FROM "player" ORDER BY "score" LIMIT 10          (a limited request)
//     DELETE FROM "player" WHERE "id" IN (SELECT "id" FROM "player" GROUP BY "id" ...)
//
// with an optional `RETURNING` clause. The order of a request matters only
// when it is limited; `DISTINCT` does not change which rows are written.

extension SQLRelation {
    /// `DELETE` of the rows the relation selects, `RETURNING` the selection
    /// when it is not empty.
    func deleteSQL(_ db: Database, returning selection: [SQLSelection] = []) throws -> (String, StatementArguments) {
        if hasDeferredClauses {
            return try resolvingDeferredClauses(db).deleteSQL(db, returning: selection)
        }
        var sql = ""
        let context: SQLGenerationContext
        if !joins.isEmpty {
            context = SQLGenerationContext(db, source: SQLSource(tableName: tableName))
            sql += "DELETE FROM " + tableName.quotedDatabaseIdentifier
            try writeJoinedKeyInSubquery(into: &sql, context)
        } else if isGrouped {
            context = SQLGenerationContext(db, source: SQLSource(tableName: tableName))
            sql += "DELETE FROM " + tableName.quotedDatabaseIdentifier
            try writeKeyInSubquery(into: &sql, context, statementKind: "delete")
        } else {
            context = SQLGenerationContext(db, source: source)
            try writeWith(into: &sql, context)
            sql += "DELETE FROM " + writtenTableSQL
            try writeWhere(into: &sql, context)
            try writeOrderAndLimit(into: &sql, context)
        }
        var arguments = context.arguments
        try writeReturning(selection, into: &sql, arguments: &arguments, db)
        return (sql, arguments)
    }

    /// `UPDATE` of the rows the relation selects, `RETURNING` the selection
    /// when it is not empty; nil when no assignment has a value (nothing to
    /// update).
    func updateSQL(
        _ db: Database,
        conflictResolution: Database.ConflictResolution,
        assignments: [ColumnAssignment],
        returning selection: [SQLSelection] = []) throws -> (String, StatementArguments)?
    {
        if hasDeferredClauses {
            return try resolvingDeferredClauses(db).updateSQL(
                db, conflictResolution: conflictResolution, assignments: assignments, returning: selection)
        }
        let setters = assignments.compactMap({ $0.sql })
        if setters.isEmpty { return nil }
        let verb = conflictResolution == .abort ? "UPDATE " : "UPDATE OR \(conflictResolution.rawValue) "
        var sql = ""
        let context: SQLGenerationContext
        if !joins.isEmpty {
            context = SQLGenerationContext(db, source: SQLSource(tableName: tableName))
            sql += verb + tableName.quotedDatabaseIdentifier + " SET "
            try writeList(setters, into: &sql, context)
            try writeJoinedKeyInSubquery(into: &sql, context)
        } else if isGrouped {
            context = SQLGenerationContext(db, source: SQLSource(tableName: tableName))
            sql += verb + tableName.quotedDatabaseIdentifier + " SET "
            try writeList(setters, into: &sql, context)
            try writeKeyInSubquery(into: &sql, context, statementKind: "update")
        } else {
            context = SQLGenerationContext(db, source: source)
            try writeWith(into: &sql, context)
            sql += verb + writtenTableSQL + " SET "
            try writeList(setters, into: &sql, context)
            try writeWhere(into: &sql, context)
            try writeOrderAndLimit(into: &sql, context)
        }
        var arguments = context.arguments
        try writeReturning(selection, into: &sql, arguments: &arguments, db)
        return (sql, arguments)
    }

    // MARK: - Clauses

    /// Whether the request is grouped by columns of its table that include
    /// one of its unique keys (its primary key, the rowid, or the columns of
    /// a unique index), as GRDB decides it: a column may come through a
    /// bijection (`-id`, `id COLLATE NOCASE`, a qualified `player.id`). Not
    /// for a view, nor for groups of other expressions.
    private func groupsByUniqueKey(_ db: Database) throws -> Bool {
        guard let groupExpressions, try db.tableExists(tableName) else { return false }
        var columns: Set<String> = []
        for expression in groupExpressions {
            guard let name = groupedColumn(expression) else { return false }
            columns.insert(name)
        }
        let lowercased = Set(columns.map { $0.lowercased() })
        if !lowercased.isDisjoint(with: ["rowid", "oid", "_rowid_"]), try db.primaryKey(tableName).tableHasRowID {
            return true
        }
        return try db.table(tableName, hasUniqueKey: columns)
    }

    /// The column of the table that a grouping expression is a bijection of.
    private func groupedColumn(_ expression: SQLExpression) -> String? {
        switch expression.impl {
        case .column(let name):
            return name
        case .qualified(let expression, let alias):
            guard alias.tableName?.lowercased() == tableName.lowercased() else { return nil }
            return groupedColumn(expression)
        case .unary(let op, let operand) where op == "-":
            return groupedColumn(operand)
        case .collated(let operand, _):
            return groupedColumn(operand)
        default:
            return nil
        }
    }

    /// Whether the request has a `GROUP BY` clause: its rows are then
    /// written through a subquery of their keys.
    private var isGrouped: Bool {
        groupExpressions.map { !$0.isEmpty } ?? false
    }

    /// `"table"`, or `"table" AS "alias"` when the user named the table.
    private var writtenTableSQL: String {
        if let userName = source.userName, userName != tableName {
            return tableName.quotedDatabaseIdentifier + " AS " + userName.quotedDatabaseIdentifier
        }
        return tableName.quotedDatabaseIdentifier
    }

    /// ` ORDER BY ... LIMIT ...`, when the relation is limited (SQLite is
    /// built with `SQLITE_ENABLE_UPDATE_DELETE_LIMIT`).
    private func writeOrderAndLimit(into sql: inout String, _ context: SQLGenerationContext) throws {
        guard let limit else { return }
        let orderings = try resolvedOrderings()
        if !orderings.isEmpty {
            sql += " ORDER BY "
            try writeList(orderings.map({ $0.sql }), into: &sql, context)
        }
        sql += " LIMIT \(limit.limit)"
        if let offset = limit.offset { sql += " OFFSET \(offset)" }
    }

    /// ` WHERE "id" IN (SELECT "id" FROM ...)`, with the column that finds
    /// a row the fastest: the `INTEGER PRIMARY KEY`, else the rowid, else the
    /// single-column key of a `WITHOUT ROWID` table.
    ///
    /// Only a request grouped by columns of a unique key of the table (one
    /// row per group) can be written, as in GRDB: other groups do not say
    /// which of their rows to write, and the statement throws (GRDB stops
    /// the program).
    private func writeKeyInSubquery(
        into sql: inout String, _ context: SQLGenerationContext, statementKind: String) throws
    {
        guard try groupsByUniqueKey(context.db) else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "Can't \(statementKind) query with GROUP BY clause")
        }
        guard let keyColumn = try context.db.primaryKey(tableName).fastPrimaryKeyColumn else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "can't write the grouped rows of \(tableName), a WITHOUT ROWID table with a multi-column primary key")
        }
        var keys = self
        keys.selection = [Column(keyColumn).sqlSelection]
        sql += " WHERE " + keyColumn.quotedDatabaseIdentifier + " IN ("
        try SQLSubquery(.relation(keys)).write(into: &sql, context)
        sql += ")"
    }

    /// ` RETURNING selection`, resolved against the table (`*` is the
    /// table's columns), when the selection is not empty.
    /// ` WHERE "id" IN (SELECT "player"."id" FROM "player" JOIN ...)`: the
    /// rows of a relation with joins, by key, as GRDB writes them.
    private func writeJoinedKeyInSubquery(into sql: inout String, _ context: SQLGenerationContext) throws {
        guard let keyColumn = try context.db.primaryKey(tableName).fastPrimaryKeyColumn else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "can't write the joined rows of \(tableName), a WITHOUT ROWID table with a multi-column primary key")
        }
        var keys = self.withoutIncludedJoins()
        keys.selection = [Column(keyColumn).sqlSelection]
        keys.prefetches = []
        sql += " WHERE " + keyColumn.quotedDatabaseIdentifier + " IN ("
        try SQLSubquery(.relation(keys)).write(into: &sql, context)
        sql += ")"
    }

    /// The relation, its joined tables joined without their columns.
    func withoutIncludedJoins() -> SQLRelation {
        var relation = self
        relation.joins = joins.map { join in
            var join = join
            join.isIncluded = false
            join.relation = join.relation.withoutIncludedJoins()
            return join
        }
        return relation
    }

    private func writeReturning(
        _ selection: [SQLSelection], into sql: inout String, arguments: inout StatementArguments, _ db: Database) throws
    {
        guard !selection.isEmpty else { return }
        let context = SQLGenerationContext(db, source: SQLSource(tableName: tableName))
        sql += " RETURNING "
        try writeList(selection.map({ $0.sql }), into: &sql, context)
        arguments += context.arguments
    }

    private func writeList(_ literals: [SQL], into sql: inout String, _ context: SQLGenerationContext) throws {
        for (index, literal) in literals.enumerated() {
            if index > 0 { sql += ", " }
            try literal.write(into: &sql, context)
        }
    }
}
