// The scopes of the rows of a request with joins: the columns of the main
// table, and one scope per included association, named by its key, that
// holds the columns of its table and the scopes of its own associations.
//
//     SELECT "book".*, "person".*, "country".* FROM "book" JOIN "person" ... LEFT JOIN "country" ...
//     row                                      [id, authorId, title]
//     row.scopes["author"]                     [id, name, countryCode]
//     row.scopes["author"]!.scopes["country"]  [code, name]
//
// A joined table that is not included, but whose associations are, has
// an empty scope that holds theirs.

extension SQLRelation {
    /// The adapter of the fetched rows; nil when no joined table is included.
    ///
    /// - throws: A ``DatabaseError`` if a selection is an SQL literal,
    ///   whose columns cannot be counted (GRDB traps).
    func joinedRowAdapter(_ db: Database) throws -> (any RowAdapter)? {
        guard !joins.isEmpty else { return nil }
        let tables = JoinedTables(self)
        let nodes = tables.nodes
        guard nodes.dropFirst().contains(where: \.isIncluded) else { return nil }

        var counter = ColumnCounter(db: db, tables: tables, ctes: ctes)
        var ranges: [Range<Int>] = []
        var offset = 0
        for node in nodes {
            let count = node.isIncluded ? try counter.columnCount(of: node) : 0
            ranges.append(offset..<(offset + count))
            offset += count
        }

        func scopeAdapters(of index: Int) -> [String: any RowAdapter] {
            var adapters: [String: any RowAdapter] = [:]
            for child in nodes[index].children {
                let node = nodes[child]
                let childScopes = scopeAdapters(of: child)
                guard let join = node.join, node.isIncluded || !childScopes.isEmpty else { continue }
                let range = RangeRowAdapter(ranges[child])
                adapters[join.key] = childScopes.isEmpty ? range : ScopeAdapter(base: range, scopes: childScopes)
            }
            return adapters
        }
        return ScopeAdapter(base: RangeRowAdapter(ranges[0]), scopes: scopeAdapters(of: 0))
    }
}

/// Counts the columns of the selections of joined tables, reading the
/// columns of tables and common table expressions once each.
private struct ColumnCounter {
    let db: Database
    let tables: JoinedTables
    let ctes: [SQLCTE]
    private var columnNames: [String: [String]] = [:]

    init(db: Database, tables: JoinedTables, ctes: [SQLCTE]) {
        self.db = db
        self.tables = tables
        self.ctes = tables.ctes(startingWith: ctes)
    }

    mutating func columnCount(of node: JoinedTables.Node) throws -> Int {
        var count = 0
        for selection in node.relation.selection {
            count += try columnCount(of: selection, tableName: node.tableName)
        }
        return count
    }

    private mutating func columnCount(of selection: SQLSelection, tableName: String) throws -> Int {
        switch selection.impl {
        case .allColumns(let excluded):
            let names = try columns(of: tableName)
            if excluded.isEmpty { return names.count }
            let excludedNames = Set(excluded.map { $0.lowercased() })
            return names.filter { !excludedNames.contains($0.lowercased()) }.count
        case .expression, .aliased:
            return 1
        case .literal:
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: """
                    Selection literals don't known how many columns they contain. \
                    To resolve this error, select one or several expressions instead.
                    """)
        case .qualified(let inner, let alias):
            let table = tables.node(for: alias)?.tableName ?? alias.identity.tableName ?? tableName
            return try columnCount(of: inner, tableName: table)
        case .deferred(let selections):
            var count = 0
            for resolved in try selections(db) {
                count += try columnCount(of: resolved, tableName: tableName)
            }
            return count
        }
    }

    /// The column names of a table or common table expression.
    private mutating func columns(of tableName: String) throws -> [String] {
        let key = tableName.lowercased()
        if let names = columnNames[key] { return names }
        let names: [String]
        if let cte = ctes.first(where: { $0.tableName.lowercased() == key }) {
            if let columns = cte.columns, !columns.isEmpty {
                names = columns
            } else {
                // The columns of a common table expression are those of its
                // statement: prepare `WITH ... SELECT * FROM "cte"`.
                var relation = SQLRelation(tableName: cte.tableName, selection: [AllColumns().sqlSelection])
                relation.ctes = ctes
                let (sql, _) = try relation.selectSQL(db)
                names = try db.makeStatement(sql: sql).columnNames
            }
        } else {
            names = try db.columns(in: tableName).map(\.name)
        }
        columnNames[key] = names
        return names
    }
}
