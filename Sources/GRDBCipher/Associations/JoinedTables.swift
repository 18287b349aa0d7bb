/// The tables of a relation with joins, flattened depth first (the
/// relation's own table first, then each joined table followed by its own
/// joined tables): the order of the selection, of the `JOIN` clauses, of
/// the orderings, and of the scopes of fetched rows.
struct JoinedTables {
    struct Node {
        /// The relation of the table: its own selection, conditions and
        /// order; its joins are the following nodes.
        var relation: SQLRelation
        /// How the table is joined to its parent; nil for the first table.
        var join: SQLJoin?
        /// The index of the parent node; nil for the first table.
        var parent: Int?
        /// The indexes of the nodes joined to this one.
        var children: [Int] = []
        /// Whether this table, or one of the tables it is joined through,
        /// is joined with `LEFT JOIN`.
        var isBehindOptionalJoin: Bool
        /// An alias that names the table in joining conditions.
        let alias = TableAliasBase(name: nil)
        /// The name that qualifies the columns of the table.
        var name = ""

        var tableName: String { relation.tableName }

        /// Whether the columns of the table are selected.
        var isIncluded: Bool { join?.isIncluded ?? true }

        var joinedTable: SQLGenerationContext.JoinedTable {
            SQLGenerationContext.JoinedTable(name: name, tableName: tableName)
        }
    }

    private(set) var nodes: [Node] = []

    /// The tables of `relation`, with their names resolved as GRDB names
    /// them: a table that appears once is named after itself, and the
    /// tables that appear several times (or whose name an alias takes) are
    /// numbered: `"person1"`, `"person2"`. Named aliases keep their names.
    init(_ relation: SQLRelation) {
        append(relation, join: nil, parent: nil, isBehindOptionalJoin: false)
        resolveNames()
    }

    private mutating func append(_ relation: SQLRelation, join: SQLJoin?, parent: Int?, isBehindOptionalJoin: Bool) {
        let index = nodes.count
        var own = relation
        own.joins = []
        nodes.append(Node(relation: own, join: join, parent: parent, isBehindOptionalJoin: isBehindOptionalJoin))
        if let parent { nodes[parent].children.append(index) }
        for child in relation.joins {
            append(child.relation, join: child, parent: index,
                   isBehindOptionalJoin: isBehindOptionalJoin || child.kind == .optional)
        }
    }

    private mutating func resolveNames() {
        let userNames = Set(nodes.compactMap { $0.relation.source.userName?.lowercased() })
        var anonymous: [String: [Int]] = [:]
        var tableOrder: [String] = []
        for (index, node) in nodes.enumerated() {
            if let userName = node.relation.source.userName {
                nodes[index].name = userName
            } else {
                let key = node.tableName.lowercased()
                if anonymous[key] == nil { tableOrder.append(key) }
                anonymous[key, default: []].append(index)
            }
        }
        for key in tableOrder {
            let indexes = anonymous[key]!
            if indexes.count == 1 && !userNames.contains(key) {
                nodes[indexes[0]].name = nodes[indexes[0]].tableName
                continue
            }
            var number = 1
            for index in indexes {
                var candidate: String
                repeat {
                    candidate = nodes[index].tableName + String(number)
                    number += 1
                } while userNames.contains(candidate.lowercased()) || anonymous[candidate.lowercased()] != nil
                nodes[index].name = candidate
            }
        }
    }

    /// Throws if a required join follows an optional one (GRDB traps).
    func validate() throws {
        for node in nodes {
            guard let join = node.join, join.kind == .required, let parent = node.parent else { continue }
            if nodes[parent].isBehindOptionalJoin {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "Not implemented: chaining a required association behind an optional association")
            }
        }
    }

    /// Names every table, and every alias given to it, in the context.
    func register(in context: SQLGenerationContext) {
        for node in nodes {
            context.register(node.joinedTable, aliases: [node.alias] + node.relation.source.aliases)
        }
    }

    /// The node of the table an alias names, if any.
    func node(for alias: TableAliasBase) -> Node? {
        let identity = alias.identity
        return nodes.first { node in
            node.alias === identity || node.relation.source.aliases.contains { $0 === identity }
        }
    }
}

extension JoinedTables {
    /// `ctes`, then the common table expressions of the tables, in their
    /// order: as in GRDB, a later one of the same name (case-insensitive)
    /// takes the place of an earlier one.
    func ctes(startingWith ctes: [SQLCTE]) -> [SQLCTE] {
        var all = ctes
        for node in nodes {
            for cte in node.relation.ctes {
                let name = cte.tableName.lowercased()
                if let index = all.firstIndex(where: { $0.tableName.lowercased() == name }) {
                    all[index] = cte
                } else {
                    all.append(cte)
                }
            }
        }
        return all
    }
}
