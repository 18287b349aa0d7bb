/// The chain of tables an association goes through, from the table next
/// to its origin to its destination: one step for `belongsTo`, `hasOne`,
/// `hasMany` and associations to common table expressions, more for
/// `through` associations. Not for direct use: build associations with
/// ``TableRecord/belongsTo(_:key:using:)`` and its siblings.
public struct _SQLAssociation: Sendable {
    /// One joined table of the chain.
    struct Step: Sendable {
        var key: SQLAssociationKey
        /// Whether the step, on its own, is a to-many association: its key
        /// is plural where the association's cardinality counts (a table a
        /// prefetched `through` association goes through).
        var isToMany: Bool
        var condition: SQLJoinCondition
        var relation: SQLRelation

        /// The key for the cardinality of the step.
        var keyName: String { key.name(toMany: isToMany) }

        /// The key of the join that goes back from this step to the
        /// previous one, in the requests that start from the destination
        /// (prefetches, `request(for:)`): prefixed, so that it does not
        /// merge with a join of the user.
        var reversedJoinKey: String { key.prefixed("grdb_").singularName }
    }

    /// The steps, from the origin side to the destination; never empty.
    var steps: [Step]

    init(key: SQLAssociationKey, isToMany: Bool, condition: SQLJoinCondition, relation: SQLRelation) {
        steps = [Step(key: key, isToMany: isToMany, condition: condition, relation: relation)]
    }

    /// An association through `pivot`, then `target`: each step keeps the
    /// cardinality of the association it comes from.
    init(through pivot: _SQLAssociation, using target: _SQLAssociation) {
        steps = pivot.steps + target.steps
    }

    /// The destination: the last step.
    var destination: Step {
        get { steps[steps.count - 1] }
        set { steps[steps.count - 1] = newValue }
    }

    /// The join that adds the association to a relation: the destination
    /// is included or not, the tables before it are joined only, with the
    /// same kind. A join is to one row: every table is named by the
    /// singular of its key, whatever the cardinality of the association
    /// (`Author.including(required: Author.books)` has a "book" scope), as
    /// in GRDB.
    func join(kind: SQLJoin.Kind, isIncluded: Bool) -> SQLJoin {
        var join: SQLJoin?
        for step in steps.reversed() {
            var relation = step.relation
            if let inner = join {
                relation = relation.appending(inner)
            }
            join = SQLJoin(
                key: step.key.singularName, kind: kind, isIncluded: join == nil ? isIncluded : false,
                condition: step.condition, relation: relation)
        }
        return join!
    }

    /// The key of the prefetched rows of the association
    /// (`including(all:)`): plural.
    var prefetchKey: String { destination.key.pluralName }
}
