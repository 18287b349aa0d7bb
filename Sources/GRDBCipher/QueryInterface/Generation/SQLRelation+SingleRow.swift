extension SQLExpression {
    /// The columns of the relation's table that the expression pins to one
    /// value each: `column = value` (either way round, or `IS`), and the
    /// union of these in an `AND`. An `OR`, a negation, or anything else pins
    /// nothing. Columns are those of the table, unqualified or qualified with
    /// one of `aliases`.
    func identifyingColumns(aliases: [TableAliasBase]) -> Set<String> {
        switch impl {
        case .associative(let op, let operands) where op == .and:
            return operands.reduce(into: []) { $0.formUnion($1.identifyingColumns(aliases: aliases)) }
        case .compare(let op, let lhs, let rhs) where op == .equal || op == .is:
            if let column = lhs.tableColumn(aliases: aliases), rhs.isConstantValue { return [column] }
            if let column = rhs.tableColumn(aliases: aliases), lhs.isConstantValue { return [column] }
            return []
        case .collated(let expression, _):
            return expression.identifyingColumns(aliases: aliases)
        default:
            return []
        }
    }

    /// The name of the column when the expression is a column of the
    /// relation's table.
    private func tableColumn(aliases: [TableAliasBase]) -> String? {
        switch impl {
        case .column(let name):
            return name
        case .qualified(let expression, let alias) where aliases.contains(alias):
            return expression.tableColumn(aliases: aliases)
        default:
            return nil
        }
    }

    /// Whether the expression is a bound value (one value for the whole
    /// request).
    private var isConstantValue: Bool {
        if case .value = impl { return true }
        return false
    }
}

extension SQLRelation {
    /// Whether the relation yields one row at most, so that `fetchOne`
    /// needs no `LIMIT 1`, as GRDB decides it: a lookup by a unique key
    /// (`filter(key:)`, or conditions that pin every column of a unique key
    /// of a table), or an aggregate selected without `GROUP BY`.
    func expectsSingleRow(_ context: SQLGenerationContext) throws -> Bool {
        if hasDeferredClauses {
            return try resolvingDeferredClauses(context.db).expectsSingleRow(context)
        }
        if aggregatesWithoutGrouping { return true }
        guard filtersUniqueKey || !filters.isEmpty else { return false }
        let db = try context.db
        // A common table expression, or a view, has no unique key (as in
        // GRDB, not even a view keyed by a schema source).
        let name = tableName.lowercased()
        if ctes.contains(where: { $0.tableName.lowercased() == name }) { return false }
        guard try db.tableExists(tableName) else { return false }
        if filtersUniqueKey { return true }
        let columns = try filters.map { try $0(db) }.reduce(into: Set<String>()) {
            $0.formUnion($1.identifyingColumns(aliases: source.aliases))
        }
        guard !columns.isEmpty else { return false }
        return try db.table(tableName, hasUniqueKey: columns)
    }
}
