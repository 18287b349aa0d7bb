extension Database {
    /// Registers a transaction observer on this connection: it hears about
    /// the changes and transactions of this connection from now on.
    ///
    /// ```swift
    /// let observer = PlayerObserver()
    /// try dbQueue.write { db in
    ///     db.add(transactionObserver: observer)
    /// }
    /// ```
    ///
    /// Does nothing on a read-only connection, which has no change to tell.
    ///
    /// - parameter extent: How long the observer stays registered; by
    ///   default until it is deallocated (the connection does not retain it).
    /// - parameter transactionObserver: The observer to add.
    public func add(
        transactionObserver: some TransactionObserver,
        extent: TransactionObservationExtent = .observerLifetime)
    {
        guard !configuration.readonly, let broker = makeObservationBrokerIfNeeded() else { return }
        // Deletions compile differently while they are observed (no
        // truncate optimization): compile them again.
        removeCachedStatements(matching: { $0.facts.deletesRows })
        broker.add(transactionObserver, extent: extent)
    }

    /// Unregisters a transaction observer from this connection. It hears
    /// about nothing after this call.
    public func remove(transactionObserver: some TransactionObserver) {
        guard let observationBroker else { return }
        removeCachedStatements(matching: { $0.facts.deletesRows })
        observationBroker.remove(transactionObserver)
        dropObservationBrokerIfUnused()
    }

    /// Registers closures called when the current transaction ends, or the
    /// next one outside of a transaction: `onCommit` if it commits,
    /// `onRollback` if it rolls back. They run on the connection's thread,
    /// after the transaction observers registered before.
    ///
    /// ```swift
    /// try db.inSavepoint {
    ///     try player.insert(db)
    ///     db.afterNextTransaction { _ in
    ///         notifyPlayerCreated()   // only once the insert is committed
    ///     }
    ///     return .commit
    /// }
    /// ```
    ///
    /// On a read-only connection, neither closure is ever called (GRDB traps).
    public func afterNextTransaction(
        onCommit: @escaping @Sendable (Database) -> Void,
        onRollback: @escaping @Sendable (Database) -> Void = { _ in })
    {
        add(
            transactionObserver: TransactionCompletionHandler(onCommit: onCommit, onRollback: onRollback),
            extent: .nextTransaction)
    }

    /// Tells the transaction observers interested in `region` that it may
    /// have changed, in ways the connection could not see (another process,
    /// a virtual table): their ``TransactionObserver/databaseDidChange()``
    /// is called. They hear about the end of the transaction as usual.
    ///
    /// Tables of the region that do not exist are ignored; the full
    /// database region means every table of every schema (temporary and
    /// attached ones included). From a read-only access, nothing is told,
    /// as in GRDB: read-only transactions are not observed.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try db.notifyChanges(in: Table("player"))
    /// }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the region cannot be computed.
    public func notifyChanges(in region: some DatabaseRegionConvertible) throws {
        guard !isReadOnly, let observationBroker else { return }
        let kinds = try region.databaseRegion(self).canonicalTables(self).impactfulEventKinds(self)
        observationBroker.notifyChanges(withEventsOfKinds: kinds)
    }
}

/// The observer of ``Database/afterNextTransaction(onCommit:onRollback:)``.
private final class TransactionCompletionHandler: TransactionObserver {
    let onCommit: @Sendable (Database) -> Void
    let onRollback: @Sendable (Database) -> Void

    init(onCommit: @escaping @Sendable (Database) -> Void, onRollback: @escaping @Sendable (Database) -> Void) {
        self.onCommit = onCommit
        self.onRollback = onRollback
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) { }
    func databaseDidCommit(_ db: Database) { onCommit(db) }
    func databaseDidRollback(_ db: Database) { onRollback(db) }
}

extension DatabaseRegion {
    /// The region with the tables named as the schema names them, and
    /// without the tables that do not exist; the full database stays full.
    ///
    /// - throws: A ``DatabaseError`` if the schema cannot be read.
    func canonicalTables(_ db: Database) throws -> DatabaseRegion {
        guard let tableColumns else { return self }
        var region = DatabaseRegion()
        for (table, columns) in tableColumns {
            guard let name = try db.canonicalTableName(table) else { continue }
            region.formUnion(columns.map { DatabaseRegion(table: name, columns: $0) } ?? DatabaseRegion(table: name))
        }
        return region
    }

    /// Every kind of change that can modify the region: inserts, deletes
    /// and updates of the columns in each of its tables. The full database
    /// means the tables of every schema.
    ///
    /// - throws: A ``DatabaseError`` if the schema cannot be read.
    func impactfulEventKinds(_ db: Database) throws -> [DatabaseEventKind] {
        var tableColumns: [(table: String, columns: Set<String>?)] = []
        if let regionTables = self.tableColumns {
            tableColumns = regionTables
        } else {
            for schemaID in try db.schemaIdentifiers() {
                tableColumns += try String.fetchAll(
                    db, sql: "SELECT name FROM \(schemaID.quotedName).sqlite_master WHERE type = 'table'")
                    .map { ($0, nil) }
            }
        }
        return try tableColumns.flatMap { table, columns -> [DatabaseEventKind] in
            let columnNames = try columns ?? Set(db.columns(in: table).map(\.name))
            return [
                .delete(tableName: table),
                .insert(tableName: table),
                .update(tableName: table, columnNames: columnNames),
            ]
        }
    }
}
