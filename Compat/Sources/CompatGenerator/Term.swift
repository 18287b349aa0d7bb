// A piece of generated Swift source, with what the type checker needs to know about it to
// place it in a larger expression: its precedence (to add the parentheses Swift requires, and
// sometimes others) and its role (which operands an overload of GRDB 7.10 accepts there).

/// Swift's precedence groups of the operators that cases use, loosest first.
enum Precedence: Int, Comparable {
    case disjunction          // ||
    case conjunction          // &&
    case comparison           // == != === !== < <= > >=  (not associative)
    case nilCoalescing        // ??  (right associative)
    case addition             // + - |
    case multiplication       // * / &
    case shift                // << >>
    case prefix               // !x -x ~x, and negative literals
    case primary              // names, literals, calls, member accesses, parenthesized terms

    static func < (lhs: Precedence, rhs: Precedence) -> Bool { lhs.rawValue < rhs.rawValue }
}

enum Associativity {
    case left, right, none
}

/// What a term is to the query interface.
enum Role: Equatable {
    /// An `SQLSpecificExpressible` value: a column, an optional column, an expression, a
    /// subquery, `SQL`, `DatabaseValue`. Each operator of GRDB 7.10 needs one on a side.
    case expression
    /// A Swift value that is `SQLExpressible` only: a number, a string, an optional of one, data.
    case value
    /// A Swift `Bool` (a value too, with overloads of its own: `== true`, `&&`, `!`).
    case bool
    /// The `nil` literal.
    case nilLiteral
}

struct Term {
    var code: String
    var precedence: Precedence
    var role: Role
    /// Whether the term is an optional expression (`Column?`, `SQLExpression?`): two of them
    /// on both sides of `==`, `!=`, `===` or `!==` are ambiguous to GRDB 7.10.
    var isOptional = false

    static func primary(_ code: String, _ role: Role) -> Term {
        Term(code: code, precedence: .primary, role: role)
    }

    static func optional(_ code: String) -> Term {
        Term(code: code, precedence: .primary, role: .expression, isOptional: true)
    }
}

/// A binary operator of the query interface.
struct BinaryOperator {
    var symbol: String
    var precedence: Precedence
    var associativity: Associativity

    static let equal = BinaryOperator(symbol: "==", precedence: .comparison, associativity: .none)
    static let notEqual = BinaryOperator(symbol: "!=", precedence: .comparison, associativity: .none)
    static let identical = BinaryOperator(symbol: "===", precedence: .comparison, associativity: .none)
    static let notIdentical = BinaryOperator(symbol: "!==", precedence: .comparison, associativity: .none)
    static let less = BinaryOperator(symbol: "<", precedence: .comparison, associativity: .none)
    static let lessOrEqual = BinaryOperator(symbol: "<=", precedence: .comparison, associativity: .none)
    static let greater = BinaryOperator(symbol: ">", precedence: .comparison, associativity: .none)
    static let greaterOrEqual = BinaryOperator(symbol: ">=", precedence: .comparison, associativity: .none)
    static let and = BinaryOperator(symbol: "&&", precedence: .conjunction, associativity: .left)
    static let or = BinaryOperator(symbol: "||", precedence: .disjunction, associativity: .left)
    static let plus = BinaryOperator(symbol: "+", precedence: .addition, associativity: .left)
    static let minus = BinaryOperator(symbol: "-", precedence: .addition, associativity: .left)
    static let times = BinaryOperator(symbol: "*", precedence: .multiplication, associativity: .left)
    static let divided = BinaryOperator(symbol: "/", precedence: .multiplication, associativity: .left)
    static let bitAnd = BinaryOperator(symbol: "&", precedence: .multiplication, associativity: .left)
    static let bitOr = BinaryOperator(symbol: "|", precedence: .addition, associativity: .left)
    static let shiftLeft = BinaryOperator(symbol: "<<", precedence: .shift, associativity: .none)
    static let shiftRight = BinaryOperator(symbol: ">>", precedence: .shift, associativity: .none)
    static let coalesce = BinaryOperator(symbol: "??", precedence: .nilCoalescing, associativity: .right)

    static let equalities = [equal, notEqual, identical, notIdentical]
    static let orderings = [less, lessOrEqual, greater, greaterOrEqual]
    static let arithmetic = [plus, minus, times, divided]
    static let bitwise = [bitAnd, bitOr, shiftLeft, shiftRight]
}
