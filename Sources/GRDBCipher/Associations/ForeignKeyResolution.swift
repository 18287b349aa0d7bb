// Finding the columns that join two tables, as GRDB finds them: the
// columns given in full, or a foreign key of the schema that matches what
// is given, or, given the origin columns only, the destination's primary key.

/// The (origin, destination) column pairs of a foreign key.
typealias ForeignKeyMapping = [(origin: String, destination: String)]

/// The foreign key of an association, resolved against the schema when
/// the SQL is generated.
struct ForeignKeyResolution: Sendable {
    var originTable: String
    var destinationTable: String
    var foreignKey: ForeignKey?

    /// The column pairs, from the origin table to the destination table.
    ///
    /// - throws: A ``DatabaseError`` if the origin table does not exist, or
    ///   if no foreign key, or several, match (GRDB traps on these).
    func mapping(_ db: Database) throws -> ForeignKeyMapping {
        let originColumns = foreignKey?.originColumns
        let destinationColumns = foreignKey?.destinationColumns
        if let originColumns, let destinationColumns {
            guard originColumns.count == destinationColumns.count else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "Number of columns don't match in the foreign key from '\(originTable)' to '\(destinationTable)'")
            }
            return Array(zip(originColumns, destinationColumns))
        }
        let originIsView: Bool
        if try db.tableExists(originTable) {
            originIsView = false
        } else if try db.viewExists(originTable) {
            originIsView = true
        } else {
            throw DatabaseError.noSuchTable(originTable)
        }
        if !originIsView {
            let candidates = try db.foreignKeys(on: originTable).filter { info in
                guard info.destinationTable.lowercased() == destinationTable.lowercased() else { return false }
                if let originColumns, Set(originColumns.map { $0.lowercased() }) != Set(info.originColumns.map { $0.lowercased() }) {
                    return false
                }
                if let destinationColumns,
                   Set(destinationColumns.map { $0.lowercased() }) != Set(info.destinationColumns.map { $0.lowercased() })
                {
                    return false
                }
                return true
            }
            if candidates.count == 1 { return candidates[0].mapping }
            if candidates.count > 1 {
                throw inferenceError("Ambiguous foreign key from '\(originTable)' to '\(destinationTable)'.")
            }
        } else if originColumns == nil {
            throw inferenceError("Could not infer foreign key from '\(originTable)' to '\(destinationTable)'.")
        }
        if let originColumns {
            if try db.tableExists(destinationTable) {
                let primaryKey = try db.primaryKey(destinationTable).columns
                if primaryKey.count == originColumns.count {
                    return Array(zip(originColumns, primaryKey))
                }
            } else if try db.viewExists(destinationTable) {
                throw DatabaseError(
                    resultCode: .SQLITE_ERROR,
                    message: """
                        Could not infer foreign key from '\(originTable)' to '\(destinationTable)'. \
                        To fix this error, provide an explicit `ForeignKey` in the association definition, \
                        with both origin and destination columns.
                        """)
            } else {
                throw DatabaseError.noSuchTable(destinationTable)
            }
        }
        throw inferenceError("Could not infer foreign key from '\(originTable)' to '\(destinationTable)'.")
    }

    private func inferenceError(_ problem: String) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_ERROR,
            message: problem + " To fix this error, provide an explicit `ForeignKey` in the association definition.")
    }
}
