import CSQLCipher
import Foundation

/// The compiled form of `Record.fetchOne(db, key:)` for one record type:
/// the SQL of `Record.filter(key:)` (`SELECT * FROM "player" WHERE "id" = ?`),
/// its prepared statement, and the row that records decode from.
///
/// A lookup by primary key is the request an app repeats most, and
/// generating its SQL costs several times more than running it. The plan is
/// built by the general query-interface path the first time, kept in the
/// connection's schema cache (it depends on the primary key and on `*`),
/// and used while the record type still declares the same table and
/// selection. The schema cache drops it, with the statement, whenever the
/// schema changes.
final class KeyLookupPlan {
    /// The record type the plan is for.
    let recordType: ObjectIdentifier

    /// The table, as the record named it when the plan was built.
    let tableName: String

    /// The record's selection when the plan was built.
    let selection: [SQLSelection]

    /// The array of the record's selection last seen to match `selection`:
    /// a record that returns the same array each time (a `static let`,
    /// or the default selection) is checked by identity, without
    /// comparing its elements.
    private var checkedSelection: [any SQLSelectable]

    /// `SELECT ... WHERE "pk" = ?`, with the key as its only parameter.
    let statement: Statement

    /// The row given to ``FetchableRecord/init(row:)``: it reads the
    /// statement's current row.
    let row: Row

    init(recordType: ObjectIdentifier, tableName: String, selection: [any SQLSelectable], statement: Statement) {
        self.recordType = recordType
        self.tableName = tableName
        self.selection = selection.map { $0.sqlSelection }
        checkedSelection = selection
        self.statement = statement
        row = Row(statement: statement)
        row.keyedContainerCache = KeyedDecodingContainerCache()
    }

    deinit {
        // The cached containers of Decodable records refer to the row.
        row.keyedContainerCache = nil
    }

    /// Whether the plan still serves a record type that declares this
    /// table and selection, and no fetch is running its statement.
    @inline(__always)
    func fits(tableName: String, selection: [any SQLSelectable]) -> Bool {
        guard tableName == self.tableName, !statement.isBusy else { return false }
        if selection.withUnsafeBufferPointer({ $0.baseAddress })
            == checkedSelection.withUnsafeBufferPointer({ $0.baseAddress })
        {
            return true
        }
        guard selection.count == self.selection.count else { return false }
        for index in selection.indices where !selection[index].sqlSelection.hasSameSQL(as: self.selection[index]) {
            return false
        }
        checkedSelection = selection
        return true
    }
}

extension SQLSelection {
    /// Whether both selections certainly write the same SQL with no
    /// argument: `*` with the same exclusions, or the same columns. Other
    /// selections are never the same, so that a plan is only trusted where
    /// it is cheap to check.
    func hasSameSQL(as other: SQLSelection) -> Bool {
        switch (impl, other.impl) {
        case let (.allColumns(excluded), .allColumns(otherExcluded)):
            return excluded == otherExcluded
        case let (.expression(expression), .expression(otherExpression)):
            return expression.isSameColumn(as: otherExpression)
        case let (.aliased(expression, name), .aliased(otherExpression, otherName)):
            return name == otherName && expression.isSameColumn(as: otherExpression)
        default:
            return false
        }
    }
}

extension SQLExpression {
    /// Whether both expressions are the same column of the queried table.
    func isSameColumn(as other: SQLExpression) -> Bool {
        if case .column(let name) = impl, case .column(let otherName) = other.impl {
            return name == otherName
        }
        return false
    }
}

extension Statement {
    /// Binds `value` to the only parameter and steps once: true when a row
    /// is available (the caller resets the statement when done with it).
    /// The statement keeps no arguments, but an error carries the value, and
    /// the statement keeps it for decoding errors.
    func stepOnce(binding value: DatabaseValue) throws -> Bool {
        try prepareForValues()
        boundKeyValue = value
        var code = value.bind(to: sqliteStatement, at: 1)
        if code == SQLITE_OK {
            code = sqlite3_step(sqliteStatement)
            if code == SQLITE_ROW { return true }
            if code == SQLITE_DONE {
                // Binding again needs a reset, even after the end.
                reset()
                database.noteAutocommitTransition()
                return false
            }
        }
        let error = valuesError(code, values: [value])
        reset()
        database.noteAutocommitTransition()
        throw error
    }
}

extension Database {
    /// The lookup plan of a record type that declares this table and
    /// selection, built from `sql` (the SQL and arguments of the general
    /// path) when the connection has none. Nil when the lookup must take
    /// the general path: a selection with arguments, a plan whose
    /// statement is already running.
    ///
    /// Not generic, so that no generic metadata is looked up per lookup.
    func keyLookupPlan(
        recordType: ObjectIdentifier, tableName: String, selection: [any SQLSelectable],
        sql: () throws -> (String, StatementArguments)) throws -> KeyLookupPlan?
    {
        try validateSchemaCache()
        if let plan = schemaCache.existingRecordPlans?.keyLookupPlan(for: recordType) {
            return plan.fits(tableName: tableName, selection: selection) ? plan : nil
        }
        let (sql, arguments) = try sql()
        guard arguments.positionalCount == 1, arguments.namedValues.isEmpty else { return nil }
        let statement = try makeStatement(sql: sql)
        guard statement.parameterCount == 1 else { return nil }
        let plan = KeyLookupPlan(recordType: recordType, tableName: tableName, selection: selection, statement: statement)
        schemaCache.recordPlans.setKeyLookupPlan(plan)
        return plan
    }
}

/// Whether the database value of a key of this type may depend on the
/// record's encoding strategies (`Date`, `UUID` and `Data` keys, as
/// ``QueryInterfaceRequest/filter(key:)`` encodes them).
@inline(__always)
func keyValueDependsOnStrategies<Key>(_ type: Key.Type) -> Bool {
    type == Date.self || type == UUID.self || type == Data.self
        || type == Date?.self || type == UUID?.self || type == Data?.self
}
