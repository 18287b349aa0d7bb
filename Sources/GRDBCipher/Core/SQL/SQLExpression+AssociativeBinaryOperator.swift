extension SQLExpression {
    /// An operator that joins any number of expressions:
    /// `joined(operator:)` on a sequence of expressions.
    ///
    /// ```swift
    /// // "score" + "bonus" + ?
    /// [Column("score"), Column("bonus"), 1000.databaseValue].joined(operator: .add)
    /// ```
    public struct AssociativeBinaryOperator: Hashable, Sendable {
        /// The SQL of the operator.
        let sql: String
        /// The result of joining no expression.
        let neutralValue: DatabaseValue
        /// Whether `(a op b) op c` always equals `a op (b op c)`, so that
        /// nested joins can be flattened: not for `+` and `*`, which are not
        /// associative on floating point values.
        let isStrictlyAssociative: Bool

        /// `+`: the sum; 0 for no expression.
        public static let add = AssociativeBinaryOperator(sql: "+", neutralValue: 0.databaseValue, isStrictlyAssociative: false)

        /// `*`: the product; 1 for no expression.
        public static let multiply = AssociativeBinaryOperator(
            sql: "*", neutralValue: 1.databaseValue, isStrictlyAssociative: false)

        /// `AND`: true when every operand is; true for no expression.
        public static let and = AssociativeBinaryOperator(
            sql: "AND", neutralValue: true.databaseValue, isStrictlyAssociative: true)

        /// `OR`: true when an operand is; false for no expression.
        public static let or = AssociativeBinaryOperator(
            sql: "OR", neutralValue: false.databaseValue, isStrictlyAssociative: true)

        /// `||`: string concatenation; the empty string for no expression.
        ///
        /// ```swift
        /// // "firstName" || ? || "lastName"
        /// [Column("firstName"), " ".databaseValue, Column("lastName")].joined(operator: .concat)
        /// ```
        public static let concat = AssociativeBinaryOperator(
            sql: "||", neutralValue: "".databaseValue, isStrictlyAssociative: true)

        /// `&`: bitwise AND; -1 (all bits set) for no expression.
        public static let bitwiseAnd = AssociativeBinaryOperator(
            sql: "&", neutralValue: (-1).databaseValue, isStrictlyAssociative: true)

        /// `|`: bitwise OR; 0 for no expression.
        public static let bitwiseOr = AssociativeBinaryOperator(
            sql: "|", neutralValue: 0.databaseValue, isStrictlyAssociative: true)
    }
}

/// The operator of `joined(operator:)`; GRDB's name is
/// ``SQLExpression/AssociativeBinaryOperator``.
public typealias SQLExpressionOperator = SQLExpression.AssociativeBinaryOperator

extension Sequence where Element: SQLSpecificExpressible {
    /// The expressions joined with an associative operator: `AND`, `OR`,
    /// `+`, `*`, `||`, `&` or `|`. No expression gives the operator's
    /// neutral value (true for `AND`, false for `OR`, 0 for `+`...), one
    /// expression gives itself. Nested `AND`, `OR`, `||`, `&` and `|` are
    /// flattened: `(a AND b) AND c` is `a AND b AND c`.
    ///
    /// ```swift
    /// let condition = [Column("a") == 1, Column("b") == 2].joined(operator: .and)
    /// // ("a" = ?) AND ("b" = ?)
    /// ```
    public func joined(operator op: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
        .associative(op, map { $0.sqlExpression })
    }
}

extension Sequence where Element == any SQLSpecificExpressible {
    /// The expressions joined with an associative operator (see the
    /// version for a homogeneous sequence).
    ///
    /// ```swift
    /// // "score" + "bonus" + ?
    /// [Column("score"), Column("bonus"), 1000.databaseValue].joined(operator: .add)
    /// ```
    public func joined(operator op: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
        .associative(op, map { $0.sqlExpression })
    }
}
