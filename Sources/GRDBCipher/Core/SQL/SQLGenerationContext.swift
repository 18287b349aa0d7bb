/// Turns SQL literals and query-interface values into SQL text: it gives
/// the database (for the schema: primary keys, the columns of a table),
/// gathers the arguments in the order of their `?`, and names the tables of
/// the request being generated, so that columns are qualified only when
/// they must be.
///
/// A request generates its SQL in a context of its own, whose parent is the
/// context of the enclosing request when it is a subquery: a table alias of
/// the enclosing request is then qualified with its name (a correlated
/// subquery), and arguments go to the outermost context.
final class SQLGenerationContext {
    /// The database; nil for literals built without one.
    private let database: Database?
    /// The context of the enclosing request, for subqueries.
    private let parent: SQLGenerationContext?
    /// The table of the request generated in this context; nil for literals.
    private let source: SQLSource?
    /// The alias whose table holds the unqualified columns being written;
    /// nil for the context's own table.
    private var currentAlias: TableAliasBase?
    /// The arguments gathered so far, in the outermost context.
    private var gatheredArguments = StatementArguments()
    /// The tables of a request with joins, by the identity of their
    /// aliases; empty for a request without joins.
    private var joinedTables: [ObjectIdentifier: JoinedTable] = [:]
    /// The table of unqualified columns, in a request with joins.
    private var currentJoinedTable: JoinedTable?

    /// A context for a literal or a request built on its own.
    init(_ db: Database?, source: SQLSource? = nil) {
        database = db
        parent = nil
        self.source = source
    }

    private init(parent: SQLGenerationContext, source: SQLSource?) {
        database = parent.database
        self.parent = parent
        self.source = source
    }

    /// A context for a subquery of this context: `source` is its table.
    func subqueryContext(source: SQLSource?) -> SQLGenerationContext {
        SQLGenerationContext(parent: self, source: source)
    }

    /// The database connection.
    ///
    /// - throws: A ``DatabaseError`` for literals built without a database.
    var db: Database {
        get throws {
            guard let database else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "SQL generation needs a database connection")
            }
            return database
        }
    }

    /// The arguments gathered in this context and its subqueries.
    var arguments: StatementArguments { parent?.arguments ?? gatheredArguments }

    /// Adds arguments after those already gathered.
    func append(arguments: StatementArguments) {
        if arguments.isEmpty { return }
        if let parent {
            parent.append(arguments: arguments)
        } else {
            gatheredArguments += arguments
        }
    }

    /// The text of a literal, its arguments gathered in the context.
    func sql(_ literal: SQL) throws -> String {
        var sql = ""
        try literal.write(into: &sql, self)
        return sql
    }

    /// Writes an element of a literal.
    func write(_ element: SQL.Element, into sql: inout String) throws {
        switch element {
        case .sql(let text, let arguments):
            sql += text
            append(arguments: arguments)
        case .column(let name):
            if let qualifier = try qualifier() {
                sql += qualifier.quotedDatabaseIdentifier + "."
            }
            sql += name.quotedDatabaseIdentifier
        case .allColumns(let excluded):
            try writeAllColumns(excluding: excluded, into: &sql)
        case .tableName:
            guard let name = try qualifier() ?? source?.resolvedName else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a table name outside of a request")
            }
            sql += name.quotedDatabaseIdentifier
        case .qualified(let literal, let alias):
            let saved = currentAlias
            currentAlias = alias
            defer { currentAlias = saved }
            try literal.write(into: &sql, self)
        case .subquery(let subquery):
            try subquery.write(into: &sql, self)
        case .deferred(let build):
            try build(db).write(into: &sql, self)
        }
    }

    private func writeAllColumns(excluding excluded: Set<String>, into sql: inout String) throws {
        let qualifier = try self.qualifier()
        let prefix = qualifier.map { $0.quotedDatabaseIdentifier + "." } ?? ""
        if excluded.isEmpty {
            sql += prefix + "*"
            return
        }
        guard let tableName = try currentTableName() else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "all columns but \(excluded.sorted().joined(separator: ", ")) of an unknown table")
        }
        let excludedLowercased = Set(excluded.map { $0.lowercased() })
        let allColumns = try db.columns(in: tableName).map(\.name)
        let columns = allColumns.filter { !excludedLowercased.contains($0.lowercased()) }
        // Excluding no column of the table is all of them: `*`, as in GRDB.
        if columns.count == allColumns.count {
            sql += prefix + "*"
            return
        }
        sql += columns.map { prefix + $0.quotedDatabaseIdentifier }.joined(separator: ", ")
    }

    /// Writes the test that the table of the alias being written has a
    /// row: `"alias"."id" IS NOT NULL` (`IS NULL` when negated), on its
    /// rowid, or on the columns of its primary key (`WITHOUT ROWID`) or of
    /// the view, tested together (`OR`, `AND` when negated).
    func writeExistenceTest(negated: Bool, into sql: inout String) throws {
        guard let tableName = try currentTableName() else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the existence of a row of an unknown table")
        }
        let columns = try db.existenceCheckColumns(in: tableName)
        let prefix = try qualifier().map { $0.quotedDatabaseIdentifier + "." } ?? ""
        let tests = columns.map { prefix + $0.quotedDatabaseIdentifier + (negated ? " IS NULL" : " IS NOT NULL") }
        if tests.count == 1 {
            sql += tests[0]
        } else {
            sql += tests.map({ "(\($0))" }).joined(separator: negated ? " AND " : " OR ")
        }
    }

    // MARK: - Table names

    /// Whether the alias names this context's table.
    private func owns(_ alias: TableAliasBase) -> Bool {
        let identity = alias.identity
        return source?.aliases.contains { $0 === identity } ?? false
    }

    /// The table of the request with joins generated in this context that
    /// the alias names, if any.
    private func joinedTable(for alias: TableAliasBase) -> JoinedTable? {
        joinedTables.isEmpty ? nil : joinedTables[ObjectIdentifier(alias.identity)]
    }

    /// The name that qualifies the columns being written: nil for the
    /// context's own table, unless the user named it, or unless the request
    /// has joins (all columns are qualified then).
    private func qualifier() throws -> String? {
        guard let alias = currentAlias else {
            return currentJoinedTable?.name ?? source?.userName
        }
        if let table = joinedTable(for: alias) { return table.name }
        if owns(alias) { return source?.userName }
        var context = parent
        while let outer = context {
            if let table = outer.joinedTable(for: alias) { return table.name }
            if outer.owns(alias), let source = outer.source { return source.resolvedName }
            context = outer.parent
        }
        let identity = alias.identity
        if let name = identity.userName ?? identity.tableName { return name }
        throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a table alias is used outside of the request it aliases")
    }

    /// The table that holds the columns being written.
    private func currentTableName() throws -> String? {
        guard let alias = currentAlias else {
            return currentJoinedTable?.tableName ?? source?.tableName
        }
        if let table = joinedTable(for: alias) { return table.tableName }
        if owns(alias) { return source?.tableName }
        var context = parent
        while let outer = context {
            if let table = outer.joinedTable(for: alias) { return table.tableName }
            if outer.owns(alias), let source = outer.source { return source.tableName }
            context = outer.parent
        }
        return alias.identity.tableName
    }

    // MARK: - Requests with joins

    /// A table of a request with joins: the name that qualifies its
    /// columns, and the table (or common table expression) it reads.
    struct JoinedTable {
        var name: String
        var tableName: String
    }

    /// Names a table of the request with joins generated in this context:
    /// columns qualified with one of `aliases` are qualified with its name.
    func register(_ table: JoinedTable, aliases: [TableAliasBase]) {
        for alias in aliases {
            joinedTables[ObjectIdentifier(alias.identity)] = table
        }
    }

    /// Runs `body` with `table` as the table of unqualified columns.
    func withJoinedTable<T>(_ table: JoinedTable, _ body: () throws -> T) rethrows -> T {
        let saved = currentJoinedTable
        currentJoinedTable = table
        defer { currentJoinedTable = saved }
        return try body()
    }
}

/// The table a request reads, and the aliases that name it.
struct SQLSource: Sendable {
    /// The table name (or the name of a common table expression).
    var tableName: String
    /// The aliases given with `aliased(_:)`, all naming this table.
    var aliases: [TableAliasBase] = []

    /// The name given by the user to the table, if any: the last one given.
    var userName: String? { aliases.last { $0.userName != nil }?.userName }

    /// The name that qualifies the table's columns.
    var resolvedName: String { userName ?? tableName }

    /// `"table"`, or `"table" "alias"` when the alias differs from the name.
    var fromSQL: String {
        if let userName, userName != tableName {
            return tableName.quotedDatabaseIdentifier + " " + userName.quotedDatabaseIdentifier
        }
        return tableName.quotedDatabaseIdentifier
    }
}
