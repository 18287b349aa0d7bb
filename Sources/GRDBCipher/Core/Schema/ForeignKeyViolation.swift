/// A row that breaks a foreign key, as `PRAGMA foreign_key_check` reports it.
///
/// ``Database/checkForeignKeys()`` throws the first one as a
/// ``DatabaseError``:
///
/// ```swift
/// do {
///     try db.checkForeignKeys()
/// } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
///     // "FOREIGN KEY constraint violation - from player(teamId) to team(id),
///     //  in [id:1 teamId:2 name:"Arthur"]"
///     print(error.message!)
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_foreign_key_check>
public struct ForeignKeyViolation: Sendable {
    /// The table of the row that breaks the foreign key.
    public var originTable: String

    /// The rowid of the row that breaks the foreign key, or nil if the
    /// table is a `WITHOUT ROWID` table.
    public var originRowID: Int64?

    /// The table the foreign key refers to.
    public var destinationTable: String

    /// The identifier of the broken foreign key in its table: the
    /// ``ForeignKeyInfo/id`` of one of ``Database/foreignKeys(on:in:)``.
    public var foreignKeyId: Int

    /// A violation from a row of `PRAGMA foreign_key_check` (table, rowid,
    /// parent, fkid).
    public init(row: Row) {
        originTable = row[0]
        originRowID = row[1]
        destinationTable = row[2]
        foreignKeyId = row[3]
    }

    /// A description of the violation with the columns of the foreign key
    /// and the content of the row, when the database can tell them:
    ///
    /// ```
    /// FOREIGN KEY constraint violation - from player(teamId) to team(id), in [id:1 teamId:2 name:"Arthur"]
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if SQLite fails.
    public func failureDescription(_ db: Database) throws -> String {
        let originRow = try originRowID.flatMap { rowID in
            try Row.fetchOne(db, sql: "SELECT * FROM \(originTable.quotedDatabaseIdentifier) WHERE rowid = \(rowID)")
        }
        let foreignKey = try db.foreignKeys(on: originTable).first { $0.id == foreignKeyId }
        var text = "FOREIGN KEY constraint violation - from \(originTable)"
        if let foreignKey {
            text += "(\(foreignKey.originColumns.joined(separator: ", ")))"
            text += " to \(destinationTable)(\(foreignKey.destinationColumns.joined(separator: ", ")))"
        } else {
            text += " to \(destinationTable)"
        }
        if let originRow {
            text += ", in \(originRow)"
        } else if let originRowID {
            text += ", in rowid \(originRowID)"
        }
        return text
    }

    /// The violation as a ``DatabaseError`` with the extended code
    /// `SQLITE_CONSTRAINT_FOREIGNKEY`, and ``failureDescription(_:)`` (or
    /// ``description`` if it fails) as message.
    public func databaseError(_ db: Database) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY,
            message: (try? failureDescription(db)) ?? description)
    }
}

extension ForeignKeyViolation: CustomStringConvertible {
    /// A short description of the violation:
    ///
    /// ```
    /// FOREIGN KEY constraint violation - from player to team, in rowid 1
    /// ```
    public var description: String {
        var text = "FOREIGN KEY constraint violation - from \(originTable) to \(destinationTable)"
        if let originRowID {
            text += ", in rowid \(originRowID)"
        }
        return text
    }
}
