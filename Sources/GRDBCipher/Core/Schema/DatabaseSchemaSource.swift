/// A source of schema information that SQLite does not provide: the primary
/// key of a view, so that records can be read from a view by key.
///
/// ```swift
/// struct ViewKeys: DatabaseSchemaSource {
///     func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
///         view.name == "playerView" ? ["id"] : nil
///     }
/// }
///
/// var config = Configuration()
/// config.schemaSource = ViewKeys()
/// // Later: try PlayerView.find(db, id: 42)
/// ```
///
/// A schema source is off during migrations (they see SQLite's schema,
/// as written). Switch it on and off with
/// ``Database/withSchemaSource(_:execute:)``.
public protocol DatabaseSchemaSource: Sendable {
    /// The primary key columns of a view, in order, or nil to leave the view
    /// without a primary key.
    ///
    /// The columns must exist in the view (a missing column is a
    /// programming error: a trap), must not be NULL, and must identify a
    /// row.
    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]?
}

extension DatabaseSchemaSource {
    /// Nil: the view has no primary key.
    public func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        nil
    }

    /// A schema source that asks this one first, then `other` for what this
    /// one leaves nil. Answers are never merged.
    ///
    /// ```swift
    /// config.schemaSource = AppViews().then(LibraryViews())
    /// ```
    public func then(_ other: some DatabaseSchemaSource) -> some DatabaseSchemaSource {
        ChainedSchemaSource(first: self, second: other)
    }
}

/// Two schema sources, asked in order.
private struct ChainedSchemaSource<First: DatabaseSchemaSource, Second: DatabaseSchemaSource>: DatabaseSchemaSource {
    let first: First
    let second: Second

    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        if let columns = try first.columnsForPrimaryKey(db, inView: view) { return columns }
        return try second.columnsForPrimaryKey(db, inView: view)
    }
}

extension Database {
    /// Runs `block` with another schema source (none with nil), then
    /// restores the previous one. The schema cache is cleared before and
    /// after, so that nothing learned from one source is used with the
    /// other.
    ///
    /// ```swift
    /// try migrator.registerMigration("fillViews") { db in
    ///     try db.withSchemaSource(ViewKeys()) {
    ///         try PlayerView.deleteOne(db, id: 1)
    ///     }
    /// }
    /// ```
    ///
    /// - throws: The error of `block`.
    public func withSchemaSource<T>(
        _ schemaSource: (any DatabaseSchemaSource)?,
        execute block: () throws -> T) rethrows -> T
    {
        let previous = self.schemaSource
        self.schemaSource = schemaSource
        clearSchemaCache()
        defer {
            self.schemaSource = previous
            clearSchemaCache()
        }
        return try block()
    }

    /// The primary key that the schema source gives a view, or nil.
    func primaryKeyFromSchemaSource(ofView view: DatabaseObjectID) throws -> PrimaryKeyInfo? {
        guard let schemaSource,
              try objectExists(view.name, type: .view, in: view.schemaID),
              let names = try schemaSource.columnsForPrimaryKey(self, inView: view),
              !names.isEmpty,
              let viewColumns = try columnsIfExist(in: view)
        else { return nil }
        let keyColumns = names.enumerated().map { index, name in
            guard var column = viewColumns.first(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) else {
                fatalError("No such column in \(view.schemaID.viewDescription(view.name)): \(name)")
            }
            column.primaryKeyIndex = index + 1
            return column
        }
        return .columns(keyColumns, tableHasRowID: false)
    }
}

extension DatabaseSchemaID {
    /// `view name`, `temporary view name` or `view schema.name`, as error
    /// messages name a view.
    func viewDescription(_ viewName: String) -> String {
        switch name {
        case "main": "view \(viewName)"
        case "temp": "temporary view \(viewName)"
        default: "view \(name).\(viewName)"
        }
    }
}
