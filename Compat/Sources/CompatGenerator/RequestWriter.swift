// Random requests: an expression, ordering or aggregate placed where GRDB users place them
// (`filter` with a value or a closure, `select`, `order`, `group`/`having`, the conditions of
// associations, association aggregates), with a few more clauses now and then.

struct RequestWriter {
    var expressions: ExpressionWriter

    init(random: SeededRandom) {
        expressions = ExpressionWriter(random: random, budget: 5)
    }

    private var random: SeededRandom {
        get { expressions.random }
        set { expressions.random = newValue }
    }

    private mutating func expression(_ scope: Scope, depth: Int = 3, aggregates: Bool = false) -> String {
        expressions.expression(scope, depth: depth, aggregates: aggregates).code
    }

    /// A predicate or other expression that is the receiver of a member (`.forKey`).
    private mutating func receiver(_ scope: Scope, depth: Int = 3, aggregates: Bool = false) -> String {
        expressions.receiver(expressions.expression(scope, depth: depth, aggregates: aggregates))
    }

    /// A closure of the record's components: `{ body }`, or `{ _ in body }` when the body
    /// does not use `$0` (Swift requires one or the other).
    private func closure(_ body: String) -> String {
        body.contains("$0") ? "{ \(body) }" : "{ _ in \(body) }"
    }

    /// The source of one request.
    mutating func request() -> String {
        let reader = TableModel.reader
        let request: String
        switch random.weighted([
            (22, "filter"), (18, "filterClosure"), (9, "select"), (8, "order"), (6, "having"),
            (14, "association"), (8, "aggregate"), (4, "keys"),
        ]) {
        case "filter":
            switch random.below(6) {
            case 0: request = "GenReader.all().filter(\(expression(.direct(reader))))"
            case 1: request = "Table(\"reader\").filter(\(expression(.direct(reader))))"
            case 2: request = "GenReader.filter(\(expression(.direct(reader), depth: 2))).filter(\(expression(.direct(reader), depth: 2)))"
            default: request = "GenReader.filter(\(expression(.direct(reader))))"
            }
        case "filterClosure":
            switch random.below(5) {
            case 0: request = "GenReader.all().filter \(closure(expression(.closure(reader))))"
            case 1: request = "GenReader.filter(\(expression(.direct(reader), depth: 2))).filter \(closure(expression(.closure(reader), depth: 2)))"
            default: request = "GenReader.filter \(closure(expression(.closure(reader))))"
            }
        case "select":
            switch random.below(7) {
            case 0: request = "GenReader.select(\(expression(.direct(reader), aggregates: true)), Column(\"id\"))"
            case 1: request = "GenReader.select([\(expression(.direct(reader), depth: 2)), \(expression(.direct(reader), depth: 2))])"
            case 2: request = "GenReader.select(\(receiver(.direct(reader))).forKey(\"value\"))"
            case 3: request = "GenReader.select \(closure(expression(.closure(reader), aggregates: true)))"
            case 4: request = "GenReader.select { [$0.id, \(expression(.closure(reader), depth: 2))] }"
            case 5: request = "GenReader.annotated(with: \(expression(.direct(reader))))"
            default: request = "GenReader.select(\(expression(.direct(reader), aggregates: true)))"
            }
        case "order":
            switch random.below(5) {
            case 0:
                request = "GenReader.order(\(expressions.ordering(.direct(reader), depth: 2)), \(expressions.ordering(.direct(reader), depth: 1)))"
            case 1: request = "GenReader.order \(closure(expressions.ordering(.closure(reader), depth: 2)))"
            case 2:
                let orderings = "[\(expressions.ordering(.closure(reader), depth: 1)), \(expressions.ordering(.closure(reader), depth: 1))]"
                request = "GenReader.order \(closure(orderings))"
            case 3:
                request = "GenReader.filter(\(expression(.direct(reader), depth: 2))).order(\(expressions.ordering(.direct(reader), depth: 2))).reversed()"
            default: request = "GenReader.order(\(expressions.ordering(.direct(reader), depth: 2)))"
            }
        case "having":
            let grouping: String
            switch random.below(4) {
            case 0: grouping = ".group(\(expression(.direct(reader), depth: 1)))"
            case 1: grouping = ".group { $0.teamId }"
            case 2: grouping = ".group([Column(\"teamId\"), Column(\"active\")])"
            default: grouping = ".group(Column(\"teamId\"))"
            }
            let having = random.chance(35)
                ? ".having \(closure(expression(.closure(reader), aggregates: true)))"
                : ".having(\(expression(.direct(reader), aggregates: true)))"
            request = "GenReader.select(Column(\"teamId\"), count(Column(\"id\")))\(grouping)\(having)"
        case "association":
            request = association()
        case "aggregate":
            request = associationAggregate()
        default:
            switch random.below(6) {
            case 0: request = "GenReader.filter(key: 1).filter(\(expression(.direct(reader), depth: 2)))"
            case 1: request = "GenReader.filter(keys: [1, 3]).filter \(closure(expression(.closure(reader), depth: 2)))"
            case 2: request = "GenReader.none().filter(\(expression(.direct(reader), depth: 2)))"
            case 3: request = "GenReader.filter(sql: \"age > ?\", arguments: [3]).filter(\(expression(.direct(reader), depth: 2)))"
            case 4: request = "GenReader.filter(literal: \"age > \\(3)\").filter(\(expression(.direct(reader), depth: 2)))"
            default: request = "GenReader.filter(\(expression(.direct(reader), depth: 2))).limit(2, offset: 1)"
            }
        }
        switch random.below(12) {
        case 0: return request + ".distinct()"
        case 1: return request + ".limit(3)"
        default: return request
        }
    }

    /// A condition on the destination of an association, as a value or a closure.
    private mutating func condition(_ table: TableModel) -> String {
        random.chance(40)
            ? ".filter \(closure(expression(.closure(table), depth: 2)))"
            : ".filter(\(expression(.direct(table), depth: 2)))"
    }

    private mutating func association() -> String {
        let reader = TableModel.reader
        switch random.below(13) {
        case 9:
            let alias = expressions.variable("bookAlias", "let bookAlias = TableAlias<GenBook>()")
            return "GenReader.joining(optional: GenReader.books.aliased(\(alias))).filter(\(expression(Scope.direct(reader).aliasing(alias, .book))))"
        case 10:
            let alias = expressions.variable("teamAlias", "let teamAlias = TableAlias<GenTeam>()")
            let scope = Scope.direct(reader).aliasing(alias, .team)
            return "GenReader.joining(required: GenReader.team.aliased(\(alias))).order(\(expressions.ordering(scope, depth: 1)), \(expressions.ordering(scope, depth: 1)))"
        case 11:
            let alias = expressions.variable("readerAlias", "let readerAlias = TableAlias<GenReader>()")
            let books = expression(Scope.direct(.book).aliasing(alias, reader), depth: 2)
            return "GenReader.aliased(\(alias)).filter(GenBook.filter(Column(\"readerId\") == \(alias)[Column(\"id\")] && \(books)).exists())"
        case 12:
            let alias = expressions.variable("teamAlias", "let teamAlias = TableAlias<GenTeam>()")
            let scope = Scope.closure(reader).aliasing(alias, .team)
            return "GenReader.joining(optional: GenReader.team.aliased(\(alias))).filter \(closure(expression(scope)))"
        case 0: return "GenReader.joining(required: GenReader.team\(condition(.team)))"
        case 1: return "GenReader.joining(optional: GenReader.team\(condition(.team))).filter(\(expression(.direct(reader), depth: 2)))"
        case 2: return "GenReader.including(required: GenReader.team\(condition(.team)))"
        case 3: return "GenReader.including(optional: GenReader.team\(condition(.team)).order(\(expressions.ordering(.direct(.team), depth: 1))))"
        case 4: return "GenReader.including(all: GenReader.books\(condition(.book)).order(\(expressions.ordering(.direct(.book), depth: 1))))"
        case 5: return "GenReader.joining(required: GenReader.books\(condition(.book)))"
        case 6: return "GenTeam.including(all: GenTeam.readers\(condition(reader)))"
        case 7: return "GenBook.including(optional: GenBook.reader\(condition(reader)))"
        default: return "GenTeam.joining(required: GenTeam.readers\(condition(reader))).filter(\(expression(.direct(.team), depth: 2)))"
        }
    }

    /// An aggregate of the books of a reader (`count`, `max`, ...), perhaps filtered.
    private mutating func aggregateOfBooks() -> String {
        let books = random.chance(25) ? "GenReader.books\(condition(.book))" : "GenReader.books"
        switch random.below(7) {
        case 0: return "\(books).count"
        case 1: return "\(books).max(Column(\"pages\"))"
        case 2: return "\(books).min(Column(\"pages\"))"
        case 3: return "\(books).sum(Column(\"pages\"))"
        case 4: return "\(books).average(Column(\"rating\"))"
        case 5: return "\(books).total(Column(\"rating\"))"
        default: return "\(books).count"
        }
    }

    /// A boolean association aggregate: `HAVING` material.
    private mutating func aggregatePredicate(depth: Int) -> String {
        if depth > 0 && random.chance(25) {
            let op = random.pick(["&&", "||"])
            return "(\(aggregatePredicate(depth: depth - 1))) \(op) (\(aggregatePredicate(depth: depth - 1)))"
        }
        switch random.below(13) {
        case 10: return "GenReader.books.isEmpty == \(random.chance(50) ? "true" : "false")"
        case 11: return "GenReader.books.isEmpty != \(random.chance(50) ? "true" : "false")"
        case 12: return "!(GenReader.books.isEmpty == false)"
        case 0: return "GenReader.books.isEmpty"
        case 1: return "!GenReader.books.isEmpty"
        case 2: return "\(aggregateOfBooks()) == nil"
        case 3: return "!(\(aggregateOfBooks()) == nil)"
        case 4: return "\(aggregateOfBooks()) != nil"
        case 5: return "\(aggregateOfBooks()) ?? 0 > \(expressions.value(.integer).code)"
        case 6: return "\(aggregateOfBooks()) > \(aggregateOfBooks())"
        case 7: return "nil == \(aggregateOfBooks())"
        case 8: return "!(\(aggregateOfBooks()) === nil)"
        default:
            let op = random.pick(["==", "!=", "<", "<=", ">", ">=", "===", "!=="])
            return "\(aggregateOfBooks()) \(op) \(expressions.value(.integer).code)"
        }
    }

    private mutating func associationAggregate() -> String {
        switch random.below(6) {
        case 0: return "GenReader.having(\(aggregatePredicate(depth: 1)))"
        case 1: return "GenReader.all().having(\(aggregatePredicate(depth: 1))).filter(\(expression(.direct(.reader), depth: 2)))"
        case 2: return "GenReader.annotated(with: \(aggregateOfBooks()))"
        case 3: return "GenReader.annotated(with: \(aggregateOfBooks()).forKey(\"value\"), \(aggregateOfBooks()) ?? 0)"
        case 4: return "GenReader.annotated(with: -\(aggregateOfBooks()), \(aggregateOfBooks()) + 1)"
        default: return "GenReader.all().having(\(aggregatePredicate(depth: 1)))"
        }
    }
}
