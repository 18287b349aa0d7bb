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
        let statement = try makePreparedRequest(db, forSingleResult: false).statement
        return try refinedRegion(db, statement.accesses.selectedRegion)
    }

    /// The region the request reads, from the region of its statement:
    /// narrowed to the rows its conditions name; unless that is provably
    /// empty (`none()`), with the tables its prefetched associations read,
    /// which a fetch reads only when the statement gives rows, but which
    /// an observation must track even when it gives none (as in GRDB).
    func refinedRegion(_ db: Database, _ statementRegion: DatabaseRegion) throws -> DatabaseRegion {
        var region = try narrowing(db, statementRegion)
        if !region.isEmpty, !relation.joins.isEmpty || !relation.prefetches.isEmpty {
            try region.formUnion(relation.prefetchedRegion(db))
        }
        return region
    }

    /// Gives the statement just prepared for this request the region of the
    /// request (see ``refinedRegion(_:_:)``), computed when it is asked: by
    /// `statement.databaseRegion`, or by a value observation that records
    /// what its fetch reads. Requests that neither filter nor prefetch,
    /// outside of such a recording, pay nothing.
    func attachRegion(_ db: Database, to statement: Statement) {
        let prefetches = !relation.prefetches.isEmpty || !relation.joins.isEmpty
        guard prefetches || (db.selectedRegionRecording != nil && !relation.filters.isEmpty) else { return }
        let request = self
        statement.regionRefinement = { db, region in try request.refinedRegion(db, region) }
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
