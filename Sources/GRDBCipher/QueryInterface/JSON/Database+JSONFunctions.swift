// SQLite's JSON functions, for the query interface:
// https://www.sqlite.org/json1.html
//
// The functions that build JSON parse the arguments that are JSON values
// (``SQLJSONExpressible``) instead of storing them as strings.

extension Database {
    /// `JSON(value)`: the value, minified, or an error if it is not JSON.
    public static func json(_ value: some SQLExpressible) -> SQLExpression {
        JSONFlavor.text.call("", [value.sqlExpression])
    }

    /// `JSON_ARRAY(value, ...)`: a JSON array of the values.
    public static func jsonArray(_ values: some Collection<some SQLExpressible>) -> SQLExpression {
        JSONFlavor.text.array(values.map(\.sqlExpression))
    }

    /// `JSON_ARRAY(value, ...)`: a JSON array of the values.
    public static func jsonArray(_ values: some Collection<any SQLExpressible>) -> SQLExpression {
        JSONFlavor.text.array(values.map(\.sqlExpression))
    }

    /// `JSON_ARRAY_LENGTH(value)`: the number of elements of a JSON array.
    public static func jsonArrayLength(_ value: some SQLExpressible) -> SQLExpression {
        SQLExpression(.function("JSON_ARRAY_LENGTH", [value.sqlExpression]))
    }

    /// `JSON_ARRAY_LENGTH(value, path)`: the number of elements of the JSON
    /// array at a path.
    public static func jsonArrayLength(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        SQLExpression(.function("JSON_ARRAY_LENGTH", [value.sqlExpression, path.sqlExpression]))
    }

    /// `JSON_ERROR_POSITION(value)`: 0 for well-formed JSON, or the position
    /// of the first syntax error.
    public static func jsonErrorPosition(_ value: some SQLExpressible) -> SQLExpression {
        SQLExpression(.function("JSON_ERROR_POSITION", [value.sqlExpression]))
    }

    /// `JSON_EXTRACT(value, path)`: the SQL value at a JSON path.
    public static func jsonExtract(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        JSONFlavor.text.call("_EXTRACT", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSON_EXTRACT(value, path, ...)`: a JSON array of the values at
    /// several paths.
    public static func jsonExtract(
        _ value: some SQLExpressible, atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression
    {
        JSONFlavor.text.call("_EXTRACT", [value.sqlExpression] + paths.map(\.sqlExpression))
    }

    /// `JSON_INSERT(value, path, newValue, ...)`: the JSON value with new
    /// values where nothing is at their paths.
    public static func jsonInsert(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        JSONFlavor.text.edit("_INSERT", value, assignments)
    }

    /// `JSON_REPLACE(value, path, newValue, ...)`: the JSON value with the
    /// values at existing paths replaced.
    public static func jsonReplace(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        JSONFlavor.text.edit("_REPLACE", value, assignments)
    }

    /// `JSON_SET(value, path, newValue, ...)`: the JSON value with values
    /// set at their paths, inserted or replaced.
    public static func jsonSet(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        JSONFlavor.text.edit("_SET", value, assignments)
    }

    /// `JSON_OBJECT(label, value, ...)`: a JSON object.
    public static func jsonObject(
        _ elements: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        JSONFlavor.text.object(elements)
    }

    /// `JSON_PATCH(value, patch)`: the value with an RFC 7396 merge patch applied.
    public static func jsonPatch(_ value: some SQLExpressible, with patch: some SQLExpressible) -> SQLExpression {
        JSONFlavor.text.call("_PATCH", [value.sqlExpression, patch.sqlExpression])
    }

    /// `JSON_REMOVE(value, path)`: the value without what is at a path.
    public static func jsonRemove(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        JSONFlavor.text.call("_REMOVE", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSON_REMOVE(value, path, ...)`: the value without what is at several paths.
    public static func jsonRemove(
        _ value: some SQLExpressible, atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression
    {
        JSONFlavor.text.call("_REMOVE", [value.sqlExpression] + paths.map(\.sqlExpression))
    }

    /// `JSON_TYPE(value)`: the type of a JSON value (`'object'`, `'array'`,
    /// `'integer'`...).
    public static func jsonType(_ value: some SQLExpressible) -> SQLExpression {
        SQLExpression(.function("JSON_TYPE", [value.sqlExpression]))
    }

    /// `JSON_TYPE(value, path)`: the type of the JSON value at a path.
    public static func jsonType(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        SQLExpression(.function("JSON_TYPE", [value.sqlExpression, path.sqlExpression]))
    }

    /// `JSON_VALID(value [, options])`: 1 if the value is JSON of the
    /// accepted kinds, 0 otherwise.
    public static func jsonIsValid(_ value: some SQLExpressible, options: JSONValidationOptions? = nil) -> SQLExpression {
        var arguments = [value.sqlExpression]
        if let options { arguments.append(options.rawValue.sqlExpression) }
        return SQLExpression(.function("JSON_VALID", arguments))
    }

    /// `JSON_QUOTE(value)`: the value as JSON (a string gets quotes).
    public static func jsonQuote(_ value: some SQLExpressible) -> SQLExpression {
        SQLExpression(.function("JSON_QUOTE", [value.sqlExpression.jsonBuilderExpression]))
    }

    /// `JSON_GROUP_ARRAY(value [ORDER BY ...]) [FILTER (WHERE ...)]`: the
    /// aggregate JSON array of the values of a group.
    public static func jsonGroupArray(
        _ value: some SQLExpressible,
        orderBy ordering: (any SQLOrderingTerm)? = nil,
        filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression
    {
        JSONFlavor.text.groupArray(value.sqlExpression, ordering: ordering, filter: filter)
    }

    /// `JSON_GROUP_OBJECT(label, value) [FILTER (WHERE ...)]`: the aggregate
    /// JSON object of the labels and values of a group.
    public static func jsonGroupObject(
        key: some SQLExpressible,
        value: some SQLExpressible,
        filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression
    {
        JSONFlavor.text.groupObject(key: key.sqlExpression, value: value.sqlExpression, filter: filter)
    }
}

/// The two families of SQLite's JSON functions: `JSON_...`, which return
/// text, and `JSONB_...`, which return SQLite's binary JSON.
enum JSONFlavor {
    case text
    case binary

    private var prefix: String {
        switch self {
        case .text: "JSON"
        case .binary: "JSONB"
        }
    }

    /// `PREFIX<suffix>(arguments)`.
    func call(_ suffix: String, _ arguments: [SQLExpression]) -> SQLExpression {
        SQLExpression(.function(prefix + suffix, arguments))
    }

    func array(_ values: [SQLExpression]) -> SQLExpression {
        call("_ARRAY", values.map(\.jsonBuilderExpression))
    }

    func object(_ elements: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression {
        call("_OBJECT", elements.flatMap { [$0.key.sqlExpression, $0.value.sqlExpression.jsonBuilderExpression] })
    }

    func edit(
        _ suffix: String,
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        call(suffix, [value.sqlExpression]
            + assignments.flatMap { [$0.key.sqlExpression, $0.value.sqlExpression.jsonBuilderExpression] })
    }

    func groupArray(
        _ value: SQLExpression, ordering: (any SQLOrderingTerm)?, filter: (any SQLSpecificExpressible)?) -> SQLExpression
    {
        SQLExpression(.aggregate(
            prefix + "_GROUP_ARRAY", [value.jsonBuilderExpression],
            distinct: false, ordering: ordering?.sqlOrdering, filter: filter?.sqlExpression))
    }

    func groupObject(key: SQLExpression, value: SQLExpression, filter: (any SQLSpecificExpressible)?) -> SQLExpression {
        SQLExpression(.aggregate(
            prefix + "_GROUP_OBJECT", [key, value.jsonBuilderExpression],
            distinct: false, ordering: nil, filter: filter?.sqlExpression))
    }
}
