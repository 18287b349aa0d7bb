// The joins of a relation: the tree of associated tables that a request
// with associations reads, each joined to its parent table.

/// How a joined table relates to its parent table.
enum SQLJoinCondition: Sendable {
    /// A foreign key: `originIsLeft` tells whether the parent table holds
    /// the columns of the foreign key (`belongsTo`) or the joined table
    /// does (`hasOne`, `hasMany`).
    case foreignKey(ForeignKey?, originIsLeft: Bool)
    /// An expression of the parent table (left) and the joined table (right).
    case expression(@Sendable (_ left: TableAliasBase, _ right: TableAliasBase) -> SQLExpression)
    /// No condition: a cross join.
    case none

    /// The column pairs that join the left table to the right table, for
    /// a foreign key condition; nil for other conditions.
    func joinMapping(_ db: Database, leftTable: String, rightTable: String) throws -> [(left: String, right: String)]? {
        guard case .foreignKey(let foreignKey, let originIsLeft) = self else { return nil }
        if originIsLeft {
            let resolution = ForeignKeyResolution(originTable: leftTable, destinationTable: rightTable, foreignKey: foreignKey)
            return try resolution.mapping(db).map { (left: $0.origin, right: $0.destination) }
        } else {
            let resolution = ForeignKeyResolution(originTable: rightTable, destinationTable: leftTable, foreignKey: foreignKey)
            return try resolution.mapping(db).map { (left: $0.destination, right: $0.origin) }
        }
    }

    /// The joining expression, written right table first for foreign keys
    /// (`"author"."id" = "book"."authorId"`), as GRDB writes it; nil for a
    /// cross join.
    func expression(
        _ db: Database, left: TableAliasBase, leftTable: String, right: TableAliasBase, rightTable: String)
    throws -> SQLExpression?
    {
        switch self {
        case .foreignKey:
            let mapping = try joinMapping(db, leftTable: leftTable, rightTable: rightTable) ?? []
            return mapping.map { pair in
                SQLExpression(.qualified(Column(pair.right).sqlExpression, right))
                    == SQLExpression(.qualified(Column(pair.left).sqlExpression, left))
            }.joined(operator: .and)
        case .expression(let condition):
            return condition(left, right)
        case .none:
            return nil
        }
    }
}

/// A table joined to the table of a relation.
struct SQLJoin: Sendable {
    enum Kind: Sendable {
        /// `JOIN`: rows without a joined row are not fetched.
        case required
        /// `LEFT JOIN`.
        case optional
    }

    /// The name of the scope of the joined rows.
    var key: String
    var kind: Kind
    /// Whether the columns of the joined table are selected (`including`),
    /// or not (`joining`).
    var isIncluded: Bool
    var condition: SQLJoinCondition
    /// The joined table, with its selection, conditions, order, and joins.
    var relation: SQLRelation

    /// The join merged with another one of the same key, with GRDB's
    /// rules: `including` wins over `joining`, required over optional, all
    /// filters apply, of two expression conditions the last one, and the
    /// selection and order of `other` win unless it has none. A `joining`
    /// selects nothing: its selection never replaces the selection of an
    /// `including`.
    func merged(with other: SQLJoin) -> SQLJoin {
        var join = self
        join.kind = (kind == .required || other.kind == .required) ? .required : .optional
        join.isIncluded = isIncluded || other.isIncluded
        if case .expression = other.condition, case .expression = condition {
            join.condition = other.condition
        }
        join.relation = relation.merged(with: other.relation)
        if !(other.isIncluded && !other.relation.selection.isEmpty) && isIncluded {
            join.relation.selection = relation.selection
        }
        return join
    }
}

extension SQLRelation {
    /// The relation with one more join; a join of the same key is merged.
    func appending(_ join: SQLJoin) -> SQLRelation {
        var relation = self
        if let index = relation.joins.firstIndex(where: { $0.key == join.key }) {
            relation.joins[index] = relation.joins[index].merged(with: join)
        } else {
            relation.joins.append(join)
        }
        return relation
    }

    /// The relation of a join merged with the relation of another join of
    /// the same key (see ``SQLJoin/merged(with:)``).
    func merged(with other: SQLRelation) -> SQLRelation {
        var relation = self
        relation.selection = other.selection
        relation.filters += other.filters
        if !other.orderings.isEmpty {
            relation.orderings = other.orderings
            relation.isReversed = other.isReversed
        }
        for alias in other.source.aliases where !relation.source.aliases.contains(where: { $0 === alias }) {
            relation.source.aliases.append(alias)
        }
        for cte in other.ctes {
            relation = relation.with(cte)
        }
        for join in other.joins {
            relation = relation.appending(join)
        }
        for prefetch in other.prefetches {
            relation = relation.appending(prefetch)
        }
        return relation
    }
}
