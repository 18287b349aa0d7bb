import CSQLCipher

/// The SQL of an INSERT or a full UPDATE of one record type, built once for
/// a shape of persistence container and kept in the connection's schema
/// cache, so that writing many records neither rebuilds SQL nor reads the
/// schema again. A class: the write path holds it without copying its fields.
final class PersistencePlan {
    /// What a plan is for: a record type and a statement kind.
    struct Key: Hashable {
        enum Kind: Hashable {
            case insert(Database.ConflictResolution)
            case update(Database.ConflictResolution)
        }

        let recordType: ObjectIdentifier
        let kind: Kind
    }

    /// The record type and statement kind the plan is for.
    let key: Key

    /// The table, as the record named it when the plan was built.
    let tableName: String

    /// The columns of the container the plan was built for, in order.
    let layout: PersistenceContainer.Layout

    /// The primary key of the table.
    let primaryKey: PrimaryKeyInfo

    /// The column that aliases the rowid, if any: what each insertion
    /// reports. Kept apart, so that an insertion copies no key info.
    let rowIDColumn: String?

    /// The statement.
    let sql: String

    /// The container positions of the values of the parameters, in order
    /// (nil binds NULL); nil when the parameters take all the values of
    /// the container, in order.
    let parameterIndexes: [Int?]?

    /// The prepared statement of `sql`, kept so that each write skips the
    /// statement cache's lookup by SQL text. The connection drops its plans
    /// (and so these statements) when the schema changes and before it closes.
    var statement: Statement?

    /// The statement to run: the plan's own, unless a cursor or a nested
    /// write uses it, then one from the statement cache.
    func preparedStatement(_ db: Database) throws -> Statement {
        if let statement, !statement.isBusy { return statement }
        return try db.cachedStatement(sql: sql)
    }

    init(
        key: Key, tableName: String, container: PersistenceContainer, primaryKey: PrimaryKeyInfo,
        sql: String, parameterIndexes: [Int?]?)
    {
        self.key = key
        self.tableName = tableName
        self.layout = PersistenceContainer.Layout(container)
        self.primaryKey = primaryKey
        self.rowIDColumn = primaryKey.rowIDColumn
        self.sql = sql
        self.parameterIndexes = parameterIndexes
    }

    deinit {
        // The layout's spare storage refers to the layout.
        layout.retire()
    }

    /// Whether the plan fits a record of this table and container.
    @inline(__always)
    func fits(tableName: String, container: PersistenceContainer) -> Bool {
        container.hasColumns(of: layout) && self.tableName == tableName
    }
}

extension PersistencePlan {
    /// `INSERT [OR ...] INTO "table" ("a", "b") VALUES (?,?)`.
    static func insertSQL(
        tableName: String, columns: [String], onConflict conflictResolution: Database.ConflictResolution) -> String
    {
        let columnsSQL = columns.map({ $0.quotedDatabaseIdentifier }).joined(separator: ", ")
        let insert = conflictResolution == .abort ? "INSERT INTO " : "INSERT OR \(conflictResolution.rawValue) INTO "
        return insert + tableName.quotedDatabaseIdentifier
            + " (\(columnsSQL)) VALUES (\(databaseQuestionMarks(count: columns.count)))"
    }

    /// `UPDATE [OR ...] "table" SET "a"=?, "b"=? WHERE "id"=?`.
    static func updateSQL(
        tableName: String, updatedColumns: [String], keyColumns: [String],
        onConflict conflictResolution: Database.ConflictResolution) -> String
    {
        let update = conflictResolution == .abort ? "UPDATE " : "UPDATE OR \(conflictResolution.rawValue) "
        let setSQL = updatedColumns.map { "\($0.quotedDatabaseIdentifier)=?" }.joined(separator: ", ")
        return update + tableName.quotedDatabaseIdentifier + " SET " + setSQL + " WHERE " + whereSQL(keyColumns)
    }

    /// `"a"=? AND "b"=?`.
    static func whereSQL(_ columns: [String]) -> String {
        columns.map { "\($0.quotedDatabaseIdentifier)=?" }.joined(separator: " AND ")
    }
}

extension Statement {
    /// Binds values of a container to the parameters: all of them in order
    /// when `indexes` is nil, else the values at these positions (nil binds
    /// NULL). No `StatementArguments` is built: this is the hot path of
    /// inserts.
    func bindPersistenceValues(of container: PersistenceContainer, at indexes: [Int?]?) throws {
        // A statement that ran to the end was reset already.
        if sqlite3_stmt_busy(sqliteStatement) != 0 { reset() }
        if !boundArguments.isEmpty { boundArguments = StatementArguments() }
        argumentsAreBound = true
        var code = SQLITE_OK
        if let indexes {
            var parameter: CInt = 1
            for index in indexes {
                let value = index.map { container.databaseValue(atIndex: $0) } ?? .null
                code = value.bind(to: sqliteStatement, at: parameter)
                if code != SQLITE_OK { break }
                parameter += 1
            }
        } else {
            code = container.bindValues(to: sqliteStatement)
        }
        if code != SQLITE_OK {
            boundArguments = StatementArguments(Self.values(of: container, at: indexes))
            throw makeError(code)
        }
    }

    /// Runs a statement bound by ``bindPersistenceValues(of:at:)`` to the
    /// end. Its error carries the arguments, as other statement errors do.
    func executePersistence(of container: PersistenceContainer, at indexes: [Int?]?) throws {
        let database = self.database
        try database.checkCanExecute(self)
        let code = stepToCompletion(on: database)
        if code != SQLITE_DONE {
            boundArguments = StatementArguments(Self.values(of: container, at: indexes))
            throw failure(code)
        }
    }

    /// The values of the parameters, as bound by
    /// ``bindPersistenceValues(of:at:)``.
    static func values(of container: PersistenceContainer, at indexes: [Int?]?) -> [DatabaseValue] {
        guard let indexes else { return container.values }
        return indexes.map { index in index.map { container.databaseValue(atIndex: $0) } ?? .null }
    }
}
