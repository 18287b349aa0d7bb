import CSQLCipher

extension SQLExpression {
    /// The expression, read as a JSON value by the functions that build JSON.
    func withPreferredJSONInterpretation(_ interpretation: JSONInterpretation) -> SQLExpression {
        var expression = self
        expression.preferredJSONInterpretation = interpretation
        return expression
    }

    /// The names of the functions whose result SQLite knows to be JSON (it
    /// then needs no `JSON()` around it), uppercased.
    private static let functionsReturningJSON: Set<String> = [
        "JSON", "JSON_ARRAY", "JSON_GROUP_ARRAY", "JSON_GROUP_OBJECT", "JSON_INSERT", "JSON_OBJECT",
        "JSON_PATCH", "JSON_REMOVE", "JSON_REPLACE", "JSON_SET", "JSON_QUOTE",
        "JSONB", "JSONB_ARRAY", "JSONB_GROUP_ARRAY", "JSONB_GROUP_OBJECT", "JSONB_INSERT", "JSONB_OBJECT",
        "JSONB_PATCH", "JSONB_REMOVE", "JSONB_REPLACE", "JSONB_SET",
    ]

    /// Whether SQLite reads the expression's result as JSON: NULL, a call of
    /// a function that returns JSON (`JSON_EXTRACT` with several paths
    /// included), and the `->` operator.
    var isJSONValue: Bool {
        switch impl {
        case .value(.null):
            return true
        case .binary(let op, _, _):
            return op == "->"
        case .collated(let expression, _), .qualified(let expression, _):
            return expression.isJSONValue
        case .function(let name, let arguments):
            let name = name.uppercased()
            return Self.functionsReturningJSON.contains(name) || (name == "JSON_EXTRACT" && arguments.count > 2)
        case .aggregate(let name, _, _, _, _):
            return Self.functionsReturningJSON.contains(name.uppercased())
        default:
            return false
        }
    }

    /// Whether the expression, or the expression it qualifies, is to be read
    /// as a JSON value.
    private var prefersJSONValue: Bool {
        if preferredJSONInterpretation == .jsonValue { return true }
        if case .qualified(let expression, _) = impl { return expression.prefersJSONValue }
        return false
    }

    /// The expression as an argument of a function that builds JSON: a value
    /// to be read as JSON, and that SQLite does not know as JSON, is parsed
    /// with `JSONB()` (SQLite 3.45+) or `JSON()`.
    var jsonBuilderExpression: SQLExpression {
        guard prefersJSONValue, !isJSONValue else { return self }
        return SQLExpression(.function(sqlite3_libversion_number() >= 3_045_000 ? "JSONB" : "JSON", [self]))
    }
}
