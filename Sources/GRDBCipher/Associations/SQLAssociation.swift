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
        /// is then plural.
        var isToMany: Bool
        var condition: SQLJoinCondition
        var relation: SQLRelation

        var keyName: String { key.name(toMany: isToMany) }
    }

    /// The steps, from the origin side to the destination; never empty.
    var steps: [Step]

    init(key: SQLAssociationKey, isToMany: Bool, condition: SQLJoinCondition, relation: SQLRelation) {
        steps = [Step(key: key, isToMany: isToMany, condition: condition, relation: relation)]
    }

    /// An association through `pivot`, then `self`.
    init(through pivot: _SQLAssociation, using target: _SQLAssociation, isToMany: Bool) {
        steps = pivot.steps + target.steps
        steps[steps.count - 1].isToMany = isToMany
    }

    /// The destination: the last step.
    var destination: Step {
        get { steps[steps.count - 1] }
        set { steps[steps.count - 1] = newValue }
    }

    /// The join that adds the association to a relation: the destination
    /// is included or not, the tables before it are joined only, with the
    /// same kind.
    func join(kind: SQLJoin.Kind, isIncluded: Bool) -> SQLJoin {
        var join: SQLJoin?
        for step in steps.reversed() {
            var relation = step.relation
            if let inner = join {
                relation = relation.appending(inner)
            }
            join = SQLJoin(
                key: step.keyName, kind: kind, isIncluded: join == nil ? isIncluded : false,
                condition: step.condition, relation: relation)
        }
        return join!
    }
}
