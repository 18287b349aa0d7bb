extension SQLExpression {
    /// Whether the expression contains an aggregate (`COUNT`, `MAX`, ...)
    /// outside of a subquery: a selection of such expressions, without
    /// `GROUP BY`, yields exactly one row, and `fetchOne` adds no `LIMIT 1`,
    /// as in GRDB.
    var isAggregate: Bool {
        switch impl {
        case .aggregate, .countAll:
            return true
        case .column, .value, .literal, .function, .subquery, .exists, .tableMatch, .qualifiedExists:
            // A function's arguments may aggregate, but GRDB only looks
            // through operators; a subquery aggregates its own rows.
            return false
        case .binary(_, let lhs, let rhs), .compare(_, let lhs, let rhs):
            return lhs.isAggregate || rhs.isAggregate
        case .associative(_, let operands):
            return operands.contains(where: \.isAggregate)
        case .unary(_, let operand), .not(let operand), .collated(let operand, _), .cast(let operand, _):
            return operand.isAggregate
        case .between(let operand, _, _, _):
            return operand.isAggregate
        case .like(let operand, let pattern, _, _):
            return operand.isAggregate || pattern.isAggregate
        case .inList(let operand, let values, _):
            return operand.isAggregate || values.contains(where: \.isAggregate)
        case .inCollection(let operand, _, _):
            return operand.isAggregate
        case .qualified(let expression, _):
            return expression.isAggregate
        }
    }
}

extension SQLSelection {
    /// Whether the selected expression contains an aggregate.
    var isAggregate: Bool {
        switch impl {
        case .expression(let expression), .aliased(let expression, _):
            return expression.isAggregate
        case .qualified(let selection, _):
            return selection.isAggregate
        case .allColumns, .literal, .deferred:
            return false
        }
    }
}
