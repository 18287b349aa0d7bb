/// An SQL expression read as a JSON value: ``JSONColumn``, or any
/// expression's ``SQLSpecificExpressible/asJSON``.
///
/// JSON values give access to their parts with SQLite's `->>` and `->`
/// operators and `JSON_EXTRACT`, and the functions that build JSON
/// (``Database/jsonArray(_:)-(Collection<SQLExpressible>)``, ``Database/jsonObject(_:)``...)
/// parse them as JSON instead of storing them as strings:
///
/// ```swift
/// let info = JSONColumn("info")
/// // SELECT "info" ->> 'firstName' FROM "player"
/// let names = try Player.select(info["firstName"], as: String.self).fetchAll(db)
/// // SELECT JSON_ARRAY(JSONB("info"), "info") FROM "player"
/// let arrays = try Player.select(Database.jsonArray([info, Column("info")]), as: String.self).fetchAll(db)
/// ```
public protocol SQLJSONExpressible: SQLSpecificExpressible { }

extension ColumnExpression where Self: SQLJSONExpressible {
    /// The column, read as a JSON value.
    public var sqlExpression: SQLExpression {
        SQLExpression.column(name).withPreferredJSONInterpretation(.jsonValue)
    }
}

/// Any expression read as a JSON value: what ``SQLSpecificExpressible/asJSON`` returns.
public struct AnySQLJSONExpressible: SQLJSONExpressible, Sendable {
    /// The expression, read as a JSON value.
    public let sqlExpression: SQLExpression

    /// Wraps a JSON value.
    public init(_ base: some SQLJSONExpressible) {
        sqlExpression = base.sqlExpression
    }

    init(jsonValue expression: SQLExpression) {
        sqlExpression = expression.withPreferredJSONInterpretation(.jsonValue)
    }
}

extension SQLSpecificExpressible {
    /// The expression, read as a JSON value:
    /// `Column("info").asJSON["firstName"]` is `"info" ->> 'firstName'`.
    public var asJSON: AnySQLJSONExpressible {
        AnySQLJSONExpressible(jsonValue: sqlExpression)
    }
}

extension SQLJSONExpressible {
    /// The SQL value at `path`, with the `->>` operator:
    /// `info["firstName"]` is `"info" ->> 'firstName'`.
    ///
    /// - parameter path: A JSON path (`'$.a.b'`), an object label, or an
    ///   array index.
    public subscript(_ path: some SQLExpressible) -> SQLExpression {
        .binary("->>", sqlExpression, path.sqlExpression)
    }

    /// `JSON_EXTRACT(value, path)`: the SQL value at a JSON path.
    public func jsonExtract(atPath path: some SQLExpressible) -> SQLExpression {
        Database.jsonExtract(self, atPath: path)
    }

    /// `JSON_EXTRACT(value, path1, path2, ...)`: a JSON array of the values
    /// at several JSON paths.
    public func jsonExtract(atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression {
        Database.jsonExtract(self, atPaths: paths)
    }

    /// The JSON text of the value at `path`, with the `->` operator:
    /// `info.jsonRepresentation(atPath: "firstName")` is
    /// `"info" -> 'firstName'`, which gives `"Arthur"` with its quotes.
    public func jsonRepresentation(atPath path: some SQLExpressible) -> SQLExpression {
        .binary("->", sqlExpression, path.sqlExpression)
    }
}

extension TableAliasBase {
    /// A JSON column of the aliased table, still read as a JSON value:
    /// `alias[JSONColumn("info")]["city"]` is `"alias"."info" ->> 'city'`.
    public subscript(
        _ expression: some SQLJSONExpressible & SQLSpecificExpressible & SQLSelectable & SQLOrderingTerm
    ) -> AnySQLJSONExpressible {
        AnySQLJSONExpressible(jsonValue: SQLExpression(.qualified(expression.sqlExpression, self)))
    }
}

extension TableAlias where RowDecoder: TableRecord {
    /// A JSON column of the record's database components, qualified with
    /// the alias: `alias.info["city"]`.
    public subscript<T>(
        dynamicMember keyPath: KeyPath<RowDecoder.DatabaseComponents, T>) -> AnySQLJSONExpressible
    where T: SQLJSONExpressible & SQLSpecificExpressible & SQLSelectable & SQLOrderingTerm
    {
        self[RowDecoder.databaseComponents[keyPath: keyPath]]
    }
}
