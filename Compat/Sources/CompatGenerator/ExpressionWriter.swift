// Random query-interface expressions, as Swift source that GRDB 7.10 compiles.
//
// Every operator node has an `SQLSpecificExpressible` operand on one side at least (GRDB's
// operators are members of that protocol), and the other side is an expression, a value, a
// Swift `Bool` or `nil` where an overload of GRDB takes one. The grammar leans on the forms
// where the standard library has a candidate too: `== nil` on a column or an optional column,
// `!` and `&&` over such comparisons, `Bool` arrays' `contains`, comparisons with `Bool`s.

struct ExpressionWriter {
    var random: SeededRandom
    /// Operator and function nodes that the expression being written may still have: it keeps
    /// each case's expressions of a size that the type checker handles quickly.
    var budget: Int
    /// Declarations of the variables that the case uses, in first-use order.
    private(set) var declarations: [String] = []
    private var declared: Set<String> = []

    init(random: SeededRandom, budget: Int) {
        self.random = random
        self.budget = budget
    }

    // MARK: - Variables

    /// The name of a variable of the case, declared by `declaration` on first use.
    mutating func variable(_ name: String, _ declaration: String) -> String {
        if declared.insert(name).inserted { declarations.append(declaration) }
        return name
    }

    private func capitalized(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }

    // MARK: - Composition

    /// `lhs op rhs`, with the parentheses Swift requires, and now and then one more pair.
    mutating func binary(_ lhs: Term, _ op: BinaryOperator, _ rhs: Term) -> Term {
        var rhs = rhs
        if lhs.isOptional && rhs.isOptional && op.precedence == .comparison {
            rhs = .primary(rhs.code + ".sqlExpression", .expression)
        }
        let left = operand(lhs, of: op, onLeft: true)
        let right = operand(rhs, of: op, onLeft: false)
        return Term(code: "\(left) \(op.symbol) \(right)", precedence: op.precedence, role: .expression)
    }

    private mutating func operand(_ term: Term, of op: BinaryOperator, onLeft: Bool) -> String {
        var needsParentheses = term.precedence < op.precedence
        if term.precedence == op.precedence {
            switch op.associativity {
            case .left: needsParentheses = !onLeft
            case .right: needsParentheses = onLeft
            case .none: needsParentheses = true
            }
        }
        if !needsParentheses && term.precedence != .primary && random.chance(15) {
            needsParentheses = true
        }
        return needsParentheses ? "(\(term.code))" : term.code
    }

    /// The term as the receiver of a member or the operand of a prefix operator.
    func receiver(_ term: Term) -> String {
        term.precedence == .primary ? term.code : "(\(term.code))"
    }

    mutating func prefix(_ symbol: String, _ term: Term) -> Term {
        Term(code: symbol + receiver(term), precedence: .prefix, role: .expression)
    }

    // MARK: - Leaves

    /// A column of the scope, written one of the ways a GRDB user writes one.
    mutating func column(_ scope: Scope, _ kinds: Set<TableModel.Kind> = []) -> Term {
        if let alias = scope.alias, random.chance(35) {
            var names = kinds.isEmpty ? alias.table.columns.map(\.name) : alias.table.columns(of: kinds)
            if names.isEmpty { names = alias.table.columns.map(\.name) }
            let name = random.pick(names)
            switch random.below(4) {
            case 0: return .primary("\(alias.variable)[\"\(name)\"]", .expression)
            case 1: return .primary("\(alias.variable).exists", .expression)
            default: return .primary("\(alias.variable)[Column(\"\(name)\")]", .expression)
            }
        }
        var names = kinds.isEmpty ? scope.table.columns.map(\.name) : scope.table.columns(of: kinds)
        if names.isEmpty { names = scope.table.columns.map(\.name) }
        let name = random.pick(names)
        let form = random.weighted([
            (5, "name"), (3, "static"), (scope.inClosure ? 8 : 0, "component"),
            (3, "optional"), (1, "missing"), (1, "expression"), (1, "optionalExpression"),
        ])
        switch form {
        case "static":
            return .primary("\(scope.table.record).Columns.\(name)", .expression)
        case "component":
            return .primary("$0.\(name)", .expression)
        case "optional":
            let variable = variable("maybe\(capitalized(name))", "let maybe\(capitalized(name)): Column? = Column(\"\(name)\")")
            return .optional(variable)
        case "missing":
            return .optional(variable("noColumn", "let noColumn: Column? = nil"))
        case "expression":
            return .primary("Column(\"\(name)\").sqlExpression", .expression)
        case "optionalExpression":
            let variable = variable(
                "maybe\(capitalized(name))Expression",
                "let maybe\(capitalized(name))Expression: SQLExpression? = Column(\"\(name)\").sqlExpression")
            return .optional(variable)
        default:
            return .primary("Column(\"\(name)\")", .expression)
        }
    }

    /// An expression that is no column: a database value, a bound value, an SQL literal (of a
    /// column of the scope).
    mutating func constantExpression(_ scope: Scope) -> Term {
        switch random.below(7) {
        case 0: return .primary("DatabaseValue.null", .expression)
        case 1: return .primary("42.databaseValue", .expression)
        case 2: return .primary("\"Emma\".databaseValue", .expression)
        case 3: return .primary(variable("someInt", "let someInt = 7") + ".sqlExpression", .expression)
        case 4: return .primary("SQL(\"1 + 1\")", .expression)
        case 5:
            let name = random.pick(scope.table.columns).name
            return .primary("SQL(\"\\(Column(\"\(name)\")) * \\(2)\")", .expression)
        default:
            return .optional(variable("noExpression", "let noExpression: SQLExpression? = nil"))
        }
    }

    enum ValueKind { case integer, real, text, bool, any }

    /// A Swift value of the given kind (`Bool`s have the role `.bool`).
    mutating func value(_ kind: ValueKind) -> Term {
        switch kind {
        case .integer:
            switch random.below(9) {
            case 0: return .primary("0", .value)
            case 1: return .primary("1", .value)
            case 2: return .primary("42", .value)
            case 3: return Term(code: "-1", precedence: .prefix, role: .value)
            case 4: return .primary(variable("someInt", "let someInt = 7"), .value)
            case 5: return .primary(variable("maybeInt", "let maybeInt: Int? = 3"), .value)
            case 6: return .primary(variable("noInt", "let noInt: Int? = nil"), .value)
            case 7: return .primary("Int64(635)", .value)
            default: return .primary("3", .value)
            }
        case .real:
            switch random.below(4) {
            case 0: return .primary("1.5", .value)
            case 1: return Term(code: "-2.25", precedence: .prefix, role: .value)
            case 2: return .primary(variable("someDouble", "let someDouble = 2.5"), .value)
            default: return .primary("0.0", .value)
            }
        case .text:
            switch random.below(8) {
            case 0: return .primary("\"Emma\"", .value)
            case 1: return .primary("\"O'Brien\"", .value)
            case 2: return .primary("\"%e%\"", .value)
            case 3: return .primary("\"\"", .value)
            case 4: return .primary(variable("someText", "let someText = \"Moby-Dick\""), .value)
            case 5: return .primary(variable("maybeText", "let maybeText: String? = \"eve\""), .value)
            case 6: return .primary(variable("noText", "let noText: String? = nil"), .value)
            default: return .primary("\"Arthur\"", .value)
            }
        case .bool:
            switch random.below(6) {
            case 0: return .primary("true", .bool)
            case 1: return .primary("false", .bool)
            case 2: return .primary(variable("someFlag", "let someFlag = true"), .bool)
            case 3: return Term(code: "!" + variable("someFlag", "let someFlag = true"), precedence: .prefix, role: .bool)
            case 4:
                let someInt = variable("someInt", "let someInt = 7")
                return Term(code: "\(someInt) > 3", precedence: .comparison, role: .bool)
            default: return .primary("true", .bool)
            }
        case .any:
            switch random.below(12) {
            case 0, 1, 2: return value(.integer)
            case 3, 4: return value(.text)
            case 5: return value(.real)
            case 6: return value(.bool)
            case 7: return .primary(variable("someData", "let someData = Data(\"abc\".utf8)"), .value)
            case 8: return .primary(variable("someDate", "let someDate = Date(timeIntervalSince1970: 1_000_000_000)"), .value)
            case 9: return .primary(variable("anyValue", "let anyValue: any SQLExpressible = 5"), .value)
            default: return value(.integer)
            }
        }
    }

    /// A value that suits the column kinds (numbers for numbers, strings for strings).
    mutating func value(for kinds: Set<TableModel.Kind>) -> Term {
        if random.chance(15) { return value(.any) }
        if kinds.contains(.text) { return value(.text) }
        if kinds.contains(.real) { return value(random.chance(50) ? .real : .integer) }
        if kinds.contains(.boolean) { return value(.bool) }
        return value(.integer)
    }

    // MARK: - Expressions

    /// Kinds of column the expression works on, drawn once per comparison for SQL that makes
    /// some sense.
    private mutating func kinds() -> Set<TableModel.Kind> {
        random.pick([[.integer], [.integer, .real], [.text], [.boolean], [.date], []])
    }

    /// A random `SQLSpecificExpressible` expression. `aggregates` allows aggregate functions
    /// (selections and `HAVING`).
    mutating func expression(_ scope: Scope, depth: Int, aggregates: Bool = false) -> Term {
        if depth <= 0 || budget <= 0 {
            return random.chance(88) ? column(scope) : constantExpression(scope)
        }
        budget -= 1
        let node = random.weighted([
            (14, "nilTest"), (12, "not"), (14, "comparison"), (12, "logic"), (7, "arithmetic"),
            (2, "bitwise"), (3, "negation"), (4, "coalesce"), (7, "function"), (4, "like"),
            (2, "collating"), (8, "contains"), (scope.table.record == "GenBook" ? 1 : 4, "subquery"),
            (aggregates ? 8 : 0, "aggregate"),
        ])
        switch node {
        case "nilTest":
            let subject = random.chance(60) ? column(scope) : expression(scope, depth: depth - 1, aggregates: aggregates)
            let op = random.pick(BinaryOperator.equalities)
            let nilTerm = Term.primary("nil", .nilLiteral)
            return random.chance(25) ? binary(nilTerm, op, subject) : binary(subject, op, nilTerm)
        case "not":
            let operand = random.chance(50)
                ? nilTest(scope, depth: depth - 1, aggregates: aggregates)
                : expression(scope, depth: depth - 1, aggregates: aggregates)
            return prefix("!", operand)
        case "comparison":
            let kinds = kinds()
            let op = random.pick(BinaryOperator.equalities + BinaryOperator.orderings)
            let subject = random.chance(55) ? column(scope, kinds) : expression(scope, depth: depth - 1, aggregates: aggregates)
            switch random.below(20) {
            case 0..<8: return binary(subject, op, expression(scope, depth: depth - 1, aggregates: aggregates))
            case 8..<15: return binary(subject, op, value(for: kinds))
            case 15..<18: return binary(value(for: kinds), op, subject)
            default:
                let bool = value(.bool)
                let equality = random.pick([BinaryOperator.equal, .notEqual])
                return random.chance(50) ? binary(subject, equality, bool) : binary(bool, equality, subject)
            }
        case "logic":
            let op = random.pick([BinaryOperator.and, .or])
            let lhs = expression(scope, depth: depth - 1, aggregates: aggregates)
            switch random.below(20) {
            case 0..<15: return binary(lhs, op, expression(scope, depth: depth - 1, aggregates: aggregates))
            case 15..<18: return binary(lhs, op, value(.bool))
            default: return binary(value(.bool), op, lhs)
            }
        case "arithmetic", "bitwise":
            let kinds: Set<TableModel.Kind> = node == "bitwise" ? [.integer] : random.pick([[.integer], [.real], [.integer, .real]])
            let op = random.pick(node == "bitwise" ? BinaryOperator.bitwise : BinaryOperator.arithmetic)
            let subject = random.chance(60) ? column(scope, kinds) : expression(scope, depth: depth - 1, aggregates: aggregates)
            switch random.below(10) {
            case 0..<4: return binary(subject, op, expression(scope, depth: depth - 1, aggregates: aggregates))
            case 4..<8: return binary(subject, op, value(for: kinds))
            default: return binary(value(for: kinds), op, subject)
            }
        case "negation":
            return prefix(random.pick(["-", "~"]), expression(scope, depth: depth - 1, aggregates: aggregates))
        case "coalesce":
            let kinds = kinds()
            let subject = random.chance(60) ? column(scope, kinds) : expression(scope, depth: depth - 1, aggregates: aggregates)
            let fallback = random.chance(60) ? value(for: kinds) : expression(scope, depth: depth - 1, aggregates: aggregates)
            return binary(subject, .coalesce, fallback)
        case "function":
            return function(scope, depth: depth - 1, aggregates: aggregates)
        case "like":
            let subject = random.chance(70) ? column(scope, [.text]) : expression(scope, depth: depth - 1, aggregates: aggregates)
            switch random.below(6) {
            case 0: return .primary("\(receiver(subject)).like(\(expression(scope, depth: depth - 1, aggregates: aggregates).code))", .expression)
            case 1: return .primary("\(receiver(subject)).like(\"%!%%\", escape: \"!\")", .expression)
            case 2: return .primary("\(receiver(subject)).like(\(value(.text).code), escape: nil)", .expression)
            default: return .primary("\(receiver(subject)).like(\(value(.text).code))", .expression)
            }
        case "collating":
            let subject = random.chance(70) ? column(scope, [.text]) : expression(scope, depth: depth - 1, aggregates: aggregates)
            let collation = random.pick([".nocase", ".rtrim", ".binary", ".localizedCaseInsensitiveCompare"])
            return .primary("\(receiver(subject)).collating(\(collation))", .expression)
        case "contains":
            return contains(scope, depth: depth - 1, aggregates: aggregates)
        case "subquery":
            return subquery(scope, depth: depth - 1)
        default:
            return aggregate(scope, depth: depth - 1)
        }
    }

    /// `== nil`, `!= nil`, `=== nil`, `!== nil` on either side, or a comparison: the operand
    /// of a `!` that the standard library's `Optional` comparison could take.
    private mutating func nilTest(_ scope: Scope, depth: Int, aggregates: Bool) -> Term {
        let subject = random.chance(75) ? column(scope) : expression(scope, depth: depth, aggregates: aggregates)
        if random.chance(25) {
            return binary(subject, random.pick(BinaryOperator.equalities + BinaryOperator.orderings), value(.any))
        }
        let op = random.pick(BinaryOperator.equalities)
        let nilTerm = Term.primary("nil", .nilLiteral)
        return random.chance(30) ? binary(nilTerm, op, subject) : binary(subject, op, nilTerm)
    }

    private mutating func function(_ scope: Scope, depth: Int, aggregates: Bool) -> Term {
        let argument = random.chance(60) ? column(scope) : expression(scope, depth: depth, aggregates: aggregates)
        switch random.below(13) {
        case 0: return .primary("abs(\(argument.code))", .expression)
        case 1: return .primary("length(\(argument.code))", .expression)
        case 2:
            let storage = random.pick([".text", ".integer", ".real", ".blob"])
            return .primary("cast(\(argument.code), as: \(storage))", .expression)
        case 3:
            let other = random.chance(50) ? column(scope) : expression(scope, depth: depth, aggregates: aggregates)
            return .primary("coalesce([\(argument.code), \(other.code)] as [any SQLSpecificExpressible])", .expression)
        case 4:
            let other = random.chance(50) ? value(.any) : expression(scope, depth: depth, aggregates: aggregates)
            return .primary("max(\(argument.code), \(other.code))", .expression)
        case 5:
            let other = random.chance(50) ? value(.integer) : expression(scope, depth: depth, aggregates: aggregates)
            return .primary("min(\(argument.code), \(other.code), \(value(.integer).code))", .expression)
        case 6: return .primary("\(receiver(argument)).lowercased", .expression)
        case 7: return .primary("\(receiver(argument)).uppercased", .expression)
        case 8: return .primary("\(receiver(argument)).capitalized", .expression)
        case 9: return .primary("julianDay(\(argument.code))", .expression)
        case 10: return .primary("dateTime(\(argument.code), .day(1), .startOfDay)", .expression)
        case 11: return .primary("\(receiver(argument)).sqlExpression", .expression)
        default: return .primary("abs(\(argument.code))", .expression)
        }
    }

    private mutating func aggregate(_ scope: Scope, depth: Int) -> Term {
        let argument = random.chance(70) ? column(scope) : expression(scope, depth: depth)
        let function = random.pick(["count", "sum", "total", "average", "max", "min", "count(distinct:"])
        if function == "count(distinct:" {
            return .primary("count(distinct: \(argument.code))", .expression)
        }
        return .primary("\(function)(\(argument.code))", .expression)
    }

    private mutating func contains(_ scope: Scope, depth: Int, aggregates: Bool) -> Term {
        let element = random.chance(60) ? column(scope) : expression(scope, depth: depth, aggregates: aggregates)
        let collection: String
        switch random.below(14) {
        case 0, 1: collection = "[1, 2, 3]"
        case 2: collection = "[\"Emma\", \"eve\"]"
        case 3: collection = "[Int]()"
        case 4: collection = "(1...5)"
        case 5: collection = "(0..<3)"
        case 6: collection = "(\"a\"...\"m\")"
        case 7: collection = "(1.5...3.0)"
        case 8: collection = "[\(column(scope).code), \(column(scope).code)]"
        case 9:
            let maybeInt = variable("maybeInt", "let maybeInt: Int? = 3")
            let noInt = variable("noInt", "let noInt: Int? = nil")
            collection = "[\(maybeInt), \(noInt)]"
        case 10: collection = "[true, false]"
        case 11: collection = "[\(value(.integer).code), \(value(.integer).code)]"
        case 12:
            let values = variable("someValues", "let someValues: [any SQLExpressible] = [1, \"Emma\", 2.5]")
            collection = values
        default: collection = "GenBook.select(Column(\"readerId\"))"
        }
        return .primary("\(collection).contains(\(element.code))", .expression)
    }

    /// A subquery of books (of readers from books): a value, a set, or `EXISTS`.
    private mutating func subquery(_ scope: Scope, depth: Int) -> Term {
        let (record, table) = scope.table.record == "GenBook" ? ("GenReader", TableModel.reader) : ("GenBook", TableModel.book)
        let inner = Scope.inner(table)
        let numeric = table.columns(of: [.integer]).last ?? "id"
        switch random.below(6) {
        case 0:
            return .primary("\(record).select(max(Column(\"\(numeric)\")))", .expression)
        case 1:
            return .primary("\(record).select(count(Column(\"id\"))).filter(\(expression(inner, depth: depth).code))", .expression)
        case 2:
            return .primary("\(record).filter(\(expression(inner, depth: depth).code)).exists()", .expression)
        case 3:
            return .primary("\(record).all().exists()", .expression)
        case 4:
            let element = column(scope)
            return .primary("\(record).select(Column(\"id\")).filter(\(expression(inner, depth: depth).code)).contains(\(element.code))", .expression)
        default:
            return .primary("\(record).select(average(Column(\"\(numeric)\"))).filter(\(expression(inner, depth: depth).code))", .expression)
        }
    }

    // MARK: - Orderings

    /// An ordering term: an expression, ascending or descending, perhaps with a collation.
    mutating func ordering(_ scope: Scope, depth: Int) -> String {
        let subject = random.chance(65) ? column(scope) : expression(scope, depth: depth)
        switch random.below(8) {
        case 0: return "\(receiver(subject)).desc"
        case 1: return "\(receiver(subject)).asc"
        case 2: return "\(receiver(subject)).ascNullsLast"
        case 3: return "\(receiver(subject)).descNullsFirst"
        case 4: return "\(receiver(subject)).collating(.nocase).desc"
        default: return subject.code
        }
    }
}
