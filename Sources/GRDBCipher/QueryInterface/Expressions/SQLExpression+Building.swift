// The builders of compound expressions. They normalize the tree as GRDB
// does, so that the generated SQL is GRDB's:
// - a collation moves out of a comparison: `"a" = ? COLLATE NOCASE`, not
//   `("a" COLLATE NOCASE) = ?`, and into the left operand of `IN`;
// - strictly associative operators (`AND`, `OR`, `||`, `&`, `|`) flatten
//   nested operands; `+` and `*` do not, since they are not associative on
//   floating point values;
// - `!` picks the negated operator when there is one (`<>`, `IS NOT`,
//   `NOT IN`, `NOT BETWEEN`, `NOT LIKE`).

extension SQLExpression {
    /// The boolean tests of ``is(_:)``.
    enum BooleanTest {
        /// `expression == true`
        case `true`
        /// `expression == false`
        case `false`
        /// `!expression`
        case falsey
    }

    static func binary(_ op: String, _ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression {
        if case .collated(let inner, let collation) = lhs.impl {
            return .collated(.binary(op, inner, rhs), collation)
        }
        if case .collated(let inner, let collation) = rhs.impl {
            return .collated(.binary(op, lhs, inner), collation)
        }
        return SQLExpression(.binary(op, lhs, rhs))
    }

    static func compare(_ op: EqualityOperator, _ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression {
        if case .collated(let inner, let collation) = lhs.impl {
            return .collated(.compare(op, inner, rhs), collation)
        }
        if case .collated(let inner, let collation) = rhs.impl {
            return .collated(.compare(op, lhs, inner), collation)
        }
        return SQLExpression(.compare(op, lhs, rhs))
    }

    /// `lhs = rhs`, or `IS NULL` when one side is NULL.
    static func equal(_ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression {
        if case .value(let value) = rhs.impl, value.isNull { return .compare(.is, lhs, .null) }
        if case .value(let value) = lhs.impl, value.isNull { return .compare(.is, rhs, .null) }
        return .compare(.equal, lhs, rhs)
    }

    /// `a op b op ...`: the neutral value of the operator for no operand,
    /// the operand itself for one.
    static func associative(_ op: AssociativeBinaryOperator, _ operands: [SQLExpression]) -> SQLExpression {
        var flattened: [SQLExpression] = []
        for operand in operands {
            if op.isStrictlyAssociative, case .associative(let inner, let innerOperands) = operand.impl, inner == op {
                flattened.append(contentsOf: innerOperands)
            } else {
                flattened.append(operand)
            }
        }
        switch flattened.count {
        case 0: return .value(op.neutralValue)
        case 1: return flattened[0]
        default: return SQLExpression(.associative(op, flattened))
        }
    }

    static func between(_ operand: SQLExpression, _ lower: SQLExpression, _ upper: SQLExpression) -> SQLExpression {
        if case .collated(let inner, let collation) = operand.impl {
            return .collated(.between(inner, lower, upper), collation)
        }
        return SQLExpression(.between(operand, lower: lower, upper: upper, negated: false))
    }

    /// Whether `values` contains `operand`: false for no value, `=` for one
    /// (never `IS`, so that a NULL value matches nothing, as `IN (NULL)`),
    /// `IN (...)` otherwise.
    static func inList(_ operand: SQLExpression, _ values: [SQLExpression]) -> SQLExpression {
        switch values.count {
        case 0: return false.sqlExpression
        case 1: return .compare(.equal, operand, values[0])
        default: return SQLExpression(.inList(operand, values, negated: false))
        }
    }

    static func collated(_ expression: SQLExpression, _ collation: Database.CollationName) -> SQLExpression {
        switch expression.impl {
        case .inList(let operand, let values, let negated):
            // SQLite takes the collation of `IN` from its left operand only.
            return SQLExpression(.inList(.collated(operand, collation), values, negated: negated))
        case .inCollection(let operand, let collection, let negated):
            // The same for `IN` a subquery or a common table expression.
            return SQLExpression(.inCollection(.collated(operand, collation), collection, negated: negated))
        case .associative(let op, let operands):
            return .associative(op, operands.map { .collated($0, collation) })
        default:
            return SQLExpression(.collated(expression, collation))
        }
    }

    /// The expression tested for truth (`== true`), falsehood (`== false`)
    /// or negated (`!`).
    func `is`(_ test: BooleanTest) -> SQLExpression {
        let comparison: SQLExpression = .compare(.equal, self, (test == .true).sqlExpression)
        switch impl {
        case .value(let dbValue):
            if dbValue.isNull { return self }
            if case .int64(let int) = dbValue.storage, int == 0 || int == 1 {
                return (test == .true ? int == 1 : int == 0).sqlExpression
            }
            return test == .falsey ? SQLExpression(.not(self)) : comparison
        case .collated(let inner, let collation):
            return .collated(inner.is(test), collation)
        default:
            guard test == .falsey else { return comparison }
            switch impl {
            case .between(let operand, let lower, let upper, let negated):
                return SQLExpression(.between(operand, lower: lower, upper: upper, negated: !negated))
            case .like(let operand, let pattern, let escape, let negated):
                return SQLExpression(.like(operand, pattern: pattern, escape: escape, negated: !negated))
            case .inList(let operand, let values, let negated):
                return SQLExpression(.inList(operand, values, negated: !negated))
            case .compare(let op, let lhs, let rhs):
                return .compare(op.negated, lhs, rhs)
            case .qualifiedExists(let alias, let negated):
                return SQLExpression(.qualifiedExists(alias, negated: !negated))
            case .exists(let subquery, let negated):
                return SQLExpression(.exists(subquery, negated: !negated))
            case .inCollection(let operand, let collection, let negated):
                return SQLExpression(.inCollection(operand, collection, negated: !negated))
            default:
                return SQLExpression(.not(self))
            }
        }
    }
}
