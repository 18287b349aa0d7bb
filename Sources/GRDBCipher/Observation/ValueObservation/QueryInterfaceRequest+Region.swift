extension QueryInterfaceRequest {
    /// The region the request reads: the tables and columns of its
    /// statement, narrowed to rows when its conditions name rowids
    /// (`filter(id: 1)`, `filter(keys: [1, 2])`, `Column("id") == 1` on an
    /// `INTEGER PRIMARY KEY`), and empty for `none()`. The associations
    /// prefetched with `including(all:)` add the tables they read.
    ///
    /// ```swift
    /// try Player.filter(ids: [1, 2]).databaseRegion(db) // player(...)[1,2]
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the request cannot be prepared.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        var region = try statementRegion(db)
        if !relation.joins.isEmpty || !relation.prefetches.isEmpty {
            // The associations of `including(all:)` are read by requests of their own.
            try region.formUnion(relation.prefetchedRegion(db))
        }
        return region
    }

    /// The region of the request's own statement.
    private func statementRegion(_ db: Database) throws -> DatabaseRegion {
        try narrowing(db, makePreparedRequest(db, forSingleResult: false).statement.databaseRegion)
    }

    /// While a value observation records the region its fetch reads: the
    /// statement of this request, about to run, records only the rows its
    /// conditions name (`player(*)[1,2]` for `filter(ids: [1, 2])`), so
    /// that the observation ignores changes to other rows, as in GRDB.
    func narrowRecordedRegion(_ db: Database, of statement: Statement) throws {
        guard db.selectedRegionRecording != nil, !relation.filters.isEmpty else { return }
        db.narrowedSelectedRegion = (statement, try narrowing(db, statement.databaseRegion))
    }

    /// `region`, restricted to the rows that the request's conditions name.
    private func narrowing(_ db: Database, _ region: DatabaseRegion) throws -> DatabaseRegion {
        let tableName = relation.tableName
        guard !relation.filters.isEmpty, try db.tableExists(tableName) else { return region }
        let rowIDColumn = try db.primaryKey(tableName).rowIDColumn
        var rowIDs: Set<Int64>?
        for filter in relation.filters {
            guard let filterRowIDs = try filter(db).identifyingRowIDs(rowIDColumn: rowIDColumn, table: tableName) else {
                continue
            }
            rowIDs = rowIDs.map { $0.intersection(filterRowIDs) } ?? filterRowIDs
        }
        guard let rowIDs else { return region }
        return region.restricting(table: tableName, toRowIDs: rowIDs)
    }
}

extension SQLExpression {
    /// The rowids of the rows a condition can match, when it names them
    /// (`id = 1`, `id IN (1, 2)`, `id = 1 OR rowid = 2`, `0`); nil when in
    /// doubt.
    func identifyingRowIDs(rowIDColumn: String?, table: String) -> Set<Int64>? {
        switch impl {
        case .value(let dbValue):
            // WHERE NULL, WHERE 0: no row.
            if dbValue.isNull || dbValue == false.databaseValue { return [] }
            return nil
        case .associative(let op, let operands) where op == .and:
            var result: Set<Int64>?
            for operand in operands {
                guard let rowIDs = operand.identifyingRowIDs(rowIDColumn: rowIDColumn, table: table) else { continue }
                result = result.map { $0.intersection(rowIDs) } ?? rowIDs
            }
            return result
        case .associative(let op, let operands) where op == .or:
            var result: Set<Int64> = []
            for operand in operands {
                guard let rowIDs = operand.identifyingRowIDs(rowIDColumn: rowIDColumn, table: table) else { return nil }
                result.formUnion(rowIDs)
            }
            return result
        case .inList(let operand, let values, negated: false):
            guard operand.isRowIDColumn(rowIDColumn, table: table) else { return nil }
            var result: Set<Int64> = []
            for value in values {
                guard case .value(let dbValue) = value.impl else { return nil }
                if let rowID = Int64.fromDatabaseValue(dbValue) { result.insert(rowID) }
            }
            return result
        case .compare(let op, let lhs, let rhs) where op == .equal || op == .is:
            for (column, value) in [(lhs, rhs), (rhs, lhs)] {
                if column.isRowIDColumn(rowIDColumn, table: table), case .value(let dbValue) = value.impl {
                    // `id = '1'` is missed (SQLite would convert the text).
                    return Int64.fromDatabaseValue(dbValue).map { [$0] } ?? []
                }
            }
            return nil
        case .collated(let operand, _):
            return operand.identifyingRowIDs(rowIDColumn: rowIDColumn, table: table)
        default:
            return nil
        }
    }

    /// Whether the expression is the rowid of `table`: `rowid`, `oid`,
    /// `_rowid_`, or its `INTEGER PRIMARY KEY` column.
    private func isRowIDColumn(_ rowIDColumn: String?, table: String) -> Bool {
        let name: String
        switch impl {
        case .column(let column):
            name = column
        case .qualified(let expression, let alias):
            guard alias.tableName?.lowercased() == table.lowercased() else { return false }
            return expression.isRowIDColumn(rowIDColumn, table: table)
        default:
            return false
        }
        let lowercased = name.lowercased()
        if let rowIDColumn, lowercased == rowIDColumn.lowercased() { return true }
        return lowercased == "rowid" || lowercased == "oid" || lowercased == "_rowid_"
    }
}
