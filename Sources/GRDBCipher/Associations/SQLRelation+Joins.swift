// The SELECT statement of a relation with joins, as GRDB writes it: every
// column is qualified with the name of its table, the columns of included
// tables follow those of the main table, the conditions of a joined table
// go to its `ON` clause, and the order of the main table comes before the
// order of the joined tables.
//
//     SELECT "book".*, "person".* FROM "book"
//     JOIN "person" ON ("person"."id" = "book"."authorId") AND ("person"."country" = ?)
//     WHERE "book"."year" > ? ORDER BY "book"."title", "person"."name"

extension SQLRelation {
    /// Writes the `SELECT` statement of a relation with joins.
    func writeJoinedSelect(into sql: inout String, _ context: SQLGenerationContext, forSingleResult singleResult: Bool)
    throws
    {
        let tables = JoinedTables(self)
        try tables.validate()
        tables.register(in: context)
        let db = try context.db
        let nodes = tables.nodes
        let root = nodes[0]

        try allCTEs(tables).writeWith(into: &sql, context)
        sql += isDistinct ? "SELECT DISTINCT " : "SELECT "
        var isFirst = true
        for node in nodes where node.isIncluded {
            try context.withJoinedTable(node.joinedTable) {
                for selection in node.relation.selection {
                    if !isFirst { sql += ", " }
                    isFirst = false
                    try selection.sql.write(into: &sql, context)
                }
            }
        }
        // The root's selection may be empty, when an included table's is not.
        if isFirst { throw Self.emptySelectionError }

        sql += " FROM " + tableSQL(root)
        for node in nodes.dropFirst() {
            guard let join = node.join, let parentIndex = node.parent else { continue }
            let parent = nodes[parentIndex]
            sql += join.kind == .required ? " JOIN " : " LEFT JOIN "
            sql += tableSQL(node)
            var conditions: [SQLExpression] = []
            if let condition = try join.condition.expression(
                db, left: parent.alias, leftTable: parent.tableName, right: node.alias, rightTable: node.tableName)
            {
                conditions.append(condition)
            }
            conditions += try node.relation.filters.map { try $0(db) }
            if !conditions.isEmpty {
                sql += " ON "
                try context.withJoinedTable(node.joinedTable) {
                    try conditions.joined(operator: .and).sql.write(into: &sql, context)
                }
            }
        }

        try context.withJoinedTable(root.joinedTable) {
            try writeWhere(into: &sql, context)
            if let groupExpressions, !groupExpressions.isEmpty {
                sql += " GROUP BY "
                try writeList(groupExpressions.map(\.sql), into: &sql, context)
            }
            if !havingExpressions.isEmpty {
                sql += " HAVING "
                try havingExpressions.joined(operator: .and).sql.write(into: &sql, context)
            }
        }

        // A reversed relation reverses the orderings of every table joined
        // below it, too: each table's direction is its own reversal
        // combined with those of the tables it joins through (nodes come
        // after their parent).
        var orderingsWritten = false
        var reversals: [Bool] = []
        reversals.reserveCapacity(nodes.count)
        for node in nodes {
            var relation = node.relation
            if let parent = node.parent {
                relation.isReversed = relation.isReversed != reversals[parent]
            } else {
                relation.isReversed = isReversed
            }
            reversals.append(relation.isReversed)
            let orderings = try relation.resolvedOrderings()
            if orderings.isEmpty { continue }
            sql += orderingsWritten ? ", " : " ORDER BY "
            orderingsWritten = true
            try context.withJoinedTable(node.joinedTable) {
                try writeList(orderings.map(\.sql), into: &sql, context)
            }
        }

        if let limit {
            sql += " LIMIT \(limit.limit)"
            if let offset = limit.offset { sql += " OFFSET \(offset)" }
        } else if singleResult {
            // Joins may multiply rows: unlike requests without joins, a
            // unique key does not spare `LIMIT 1` (as in GRDB).
            sql += " LIMIT 1"
        }
    }

    /// The relation with the common table expressions of its joined tables
    /// too (see ``JoinedTables/ctes(startingWith:)``).
    private func allCTEs(_ tables: JoinedTables) -> SQLRelation {
        var relation = self
        relation.ctes = tables.ctes(startingWith: ctes)
        return relation
    }

    /// `"table"`, or `"table" "name"` when the table is named otherwise.
    private func tableSQL(_ node: JoinedTables.Node) -> String {
        if node.name == node.tableName {
            return node.tableName.quotedDatabaseIdentifier
        }
        return node.tableName.quotedDatabaseIdentifier + " " + node.name.quotedDatabaseIdentifier
    }

    private func writeList(_ literals: [SQL], into sql: inout String, _ context: SQLGenerationContext) throws {
        for (index, literal) in literals.enumerated() {
            if index > 0 { sql += ", " }
            try literal.write(into: &sql, context)
        }
    }
}
