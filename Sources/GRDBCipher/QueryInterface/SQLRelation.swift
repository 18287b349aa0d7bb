/// What a query-interface request reads, and how: the table, the
/// selection, the conditions, the order and the limit. Conditions that need
/// the database (a primary key, for `filter(key:)`) are resolved when the
/// SQL is generated, once per fetch.
struct SQLRelation: Sendable {
    /// A condition, resolved when the SQL is generated.
    typealias Filter = @Sendable (Database) throws -> SQLExpression

    struct Limit: Sendable {
        var limit: Int
        var offset: Int?
    }

    var tableName: String
    var selection: [SQLSelection]
    var filters: [Filter] = []
    var orderings: [SQLOrdering] = []
    var isDistinct = false
    var limit: Limit?
    /// Whether a condition matches one unique key: such a request fetches
    /// one row at most, and `fetchOne` needs no `LIMIT 1` (as in GRDB).
    var filtersUniqueKey = false

    /// `WHERE` conditions joined with `AND`, or nil without a condition.
    func whereSQL(_ db: Database) throws -> SQL? {
        guard !filters.isEmpty else { return nil }
        return try filters.map { try $0(db) }.joined(operator: .and).sql
    }

    /// The `SELECT` statement.
    func selectSQL(_ db: Database, forSingleResult singleResult: Bool = false) throws -> SQL {
        var sql = SQL(sql: isDistinct ? "SELECT DISTINCT " : "SELECT ")
        sql += try selection.map { try $0.sql(db, tableName: tableName) }.joined(separator: ", ")
        sql += SQL(sql: " FROM \(tableName.quotedDatabaseIdentifier)")
        if let whereSQL = try whereSQL(db) {
            sql += SQL(sql: " WHERE ") + whereSQL
        }
        if !orderings.isEmpty {
            sql += SQL(sql: " ORDER BY ") + orderings.map(\.sql).joined(separator: ", ")
        }
        if let limit {
            sql += SQL(sql: " LIMIT \(limit.limit)")
            if let offset = limit.offset { sql += SQL(sql: " OFFSET \(offset)") }
        } else if singleResult && !filtersUniqueKey {
            sql += SQL(sql: " LIMIT 1")
        }
        return sql
    }

    /// `SELECT COUNT(*)` of the rows the relation selects: straight from the
    /// table when counting its rows is enough, from a subquery otherwise.
    func countSQL(_ db: Database) throws -> SQL {
        // One distinct expression: `COUNT(DISTINCT expression)`, as GRDB counts it.
        if isDistinct, limit == nil, selection.count == 1, case .expression(let expression) = selection[0].impl {
            var sql = SQL(sql: "SELECT COUNT(DISTINCT ") + expression.sql
                + SQL(sql: ") FROM \(tableName.quotedDatabaseIdentifier)")
            if let whereSQL = try whereSQL(db) {
                sql += SQL(sql: " WHERE ") + whereSQL
            }
            return sql
        }
        if !isDistinct && limit == nil {
            var sql = SQL(sql: "SELECT COUNT(*) FROM \(tableName.quotedDatabaseIdentifier)")
            if let whereSQL = try whereSQL(db) {
                sql += SQL(sql: " WHERE ") + whereSQL
            }
            return sql
        }
        return SQL(sql: "SELECT COUNT(*) FROM (") + (try selectSQL(db)) + SQL(sql: ")")
    }

    /// `DELETE` of the rows the relation selects.
    func deleteSQL(_ db: Database) throws -> SQL {
        if !isDistinct && limit == nil {
            var sql = SQL(sql: "DELETE FROM \(tableName.quotedDatabaseIdentifier)")
            if let whereSQL = try whereSQL(db) {
                sql += SQL(sql: " WHERE ") + whereSQL
            }
            return sql
        }
        // A limit needs the rows themselves: delete them by rowid.
        var selected = self
        selected.selection = [Column.rowID.sqlSelection]
        return SQL(sql: "DELETE FROM \(tableName.quotedDatabaseIdentifier) WHERE rowid IN (")
            + (try selected.selectSQL(db)) + SQL(sql: ")")
    }
}
