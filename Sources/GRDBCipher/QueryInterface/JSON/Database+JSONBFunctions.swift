// SQLite's binary JSON functions (SQLite 3.45+; SQLCipher 4.6.1 has SQLite
// 3.46): https://www.sqlite.org/json1.html#jsonb

extension Database {
    /// The kinds of JSON that ``jsonIsValid(_:options:)`` accepts (the bits
    /// of `JSON_VALID`'s second argument).
    public struct JSONValidationOptions: OptionSet, Sendable {
        /// The bits.
        public let rawValue: Int

        /// Options from their bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Canonical RFC 8259 JSON text.
        public static let json = JSONValidationOptions(rawValue: 1)
        /// JSON5 text.
        public static let json5 = JSONValidationOptions(rawValue: 2)
        /// A blob that looks like JSONB at first sight.
        public static let probablyJSONB = JSONValidationOptions(rawValue: 4)
        /// A blob that is JSONB, checked thoroughly.
        public static let jsonb = JSONValidationOptions(rawValue: 8)
    }

    /// `JSONB(value)`: the value as binary JSON.
    public static func jsonb(_ value: some SQLExpressible) -> SQLExpression {
        JSONFlavor.binary.call("", [value.sqlExpression])
    }

    /// `JSONB_ARRAY(value, ...)`: a binary JSON array of the values.
    public static func jsonbArray(_ values: some Collection<some SQLExpressible>) -> SQLExpression {
        JSONFlavor.binary.array(values.map(\.sqlExpression))
    }

    /// `JSONB_ARRAY(value, ...)`: a binary JSON array of the values.
    public static func jsonbArray(_ values: some Collection<any SQLExpressible>) -> SQLExpression {
        JSONFlavor.binary.array(values.map(\.sqlExpression))
    }

    /// `JSONB_EXTRACT(value, path)`: the value at a JSON path, as binary
    /// JSON when it is an array or an object.
    public static func jsonbExtract(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        JSONFlavor.binary.call("_EXTRACT", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSONB_EXTRACT(value, path, ...)`: a binary JSON array of the values
    /// at several paths.
    public static func jsonbExtract(
        _ value: some SQLExpressible, atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression
    {
        JSONFlavor.binary.call("_EXTRACT", [value.sqlExpression] + paths.map(\.sqlExpression))
    }

    /// `JSONB_INSERT(value, path, newValue, ...)`, as ``jsonInsert(_:_:)``.
    public static func jsonbInsert(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        JSONFlavor.binary.edit("_INSERT", value, assignments)
    }

    /// `JSONB_REPLACE(value, path, newValue, ...)`, as ``jsonReplace(_:_:)``.
    public static func jsonbReplace(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        JSONFlavor.binary.edit("_REPLACE", value, assignments)
    }

    /// `JSONB_SET(value, path, newValue, ...)`, as ``jsonSet(_:_:)``.
    public static func jsonbSet(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        JSONFlavor.binary.edit("_SET", value, assignments)
    }

    /// `JSONB_OBJECT(label, value, ...)`: a binary JSON object.
    public static func jsonbObject(
        _ elements: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        JSONFlavor.binary.object(elements)
    }

    /// `JSONB_PATCH(value, patch)`, as ``jsonPatch(_:with:)``.
    public static func jsonbPatch(_ value: some SQLExpressible, with patch: some SQLExpressible) -> SQLExpression {
        JSONFlavor.binary.call("_PATCH", [value.sqlExpression, patch.sqlExpression])
    }

    /// `JSONB_REMOVE(value, path)`, as ``jsonRemove(_:atPath:)``.
    public static func jsonbRemove(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        JSONFlavor.binary.call("_REMOVE", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSONB_REMOVE(value, path, ...)`, as ``jsonRemove(_:atPaths:)``.
    public static func jsonbRemove(
        _ value: some SQLExpressible, atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression
    {
        JSONFlavor.binary.call("_REMOVE", [value.sqlExpression] + paths.map(\.sqlExpression))
    }

    /// `JSONB_GROUP_ARRAY(value [ORDER BY ...]) [FILTER (WHERE ...)]`, as
    /// ``jsonGroupArray(_:orderBy:filter:)``.
    public static func jsonbGroupArray(
        _ value: some SQLExpressible,
        orderBy ordering: (any SQLOrderingTerm)? = nil,
        filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression
    {
        JSONFlavor.binary.groupArray(value.sqlExpression, ordering: ordering, filter: filter)
    }

    /// `JSONB_GROUP_OBJECT(label, value) [FILTER (WHERE ...)]`, as
    /// ``jsonGroupObject(key:value:filter:)``.
    public static func jsonbGroupObject(
        key: some SQLExpressible,
        value: some SQLExpressible,
        filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression
    {
        JSONFlavor.binary.groupObject(key: key.sqlExpression, value: value.sqlExpression, filter: filter)
    }
}
