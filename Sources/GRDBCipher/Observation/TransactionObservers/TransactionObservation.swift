/// A registered transaction observer and how long it stays registered.
final class TransactionObservation {
    let extent: Database.TransactionObservationExtent

    /// False after ``TransactionObserver/stopObservingDatabaseChangesUntilNextTransaction()``:
    /// changes are no longer told, the end of the transaction still is.
    var isEnabled = true

    private weak var weakObserver: (any TransactionObserver)?
    private var strongObserver: (any TransactionObserver)?

    var observer: (any TransactionObserver)? { strongObserver ?? weakObserver }

    /// False once a weakly held observer is gone, or a `.nextTransaction`
    /// observer was told about the end of its transaction.
    var isObserving: Bool { observer != nil }

    init(_ observer: some TransactionObserver, extent: Database.TransactionObservationExtent) {
        self.extent = extent
        switch extent {
        case .observerLifetime:
            weakObserver = observer
        case .nextTransaction, .databaseLifetime:
            strongObserver = observer
        }
    }

    func isWrapping(_ observer: some TransactionObserver) -> Bool {
        self.observer === observer
    }

    func observes(eventsOfKind kind: DatabaseEventKind) -> Bool {
        observer?.observes(eventsOfKind: kind) ?? false
    }

    func databaseDidChange(with event: DatabaseEvent) {
        if isEnabled { observer?.databaseDidChange(with: event) }
    }

    func databaseDidChange() {
        if isEnabled { observer?.databaseDidChange() }
    }

    func databaseWillCommit() throws {
        try observer?.databaseWillCommit()
    }

    func databaseDidCommit(_ db: Database) {
        // A `.nextTransaction` observer is released first: whatever it
        // does in its callback belongs to another transaction.
        guard let observer = takeObserverForEndOfTransaction() else { return }
        observer.databaseDidCommit(db)
    }

    func databaseDidRollback(_ db: Database) {
        guard let observer = takeObserverForEndOfTransaction() else { return }
        observer.databaseDidRollback(db)
    }

    private func takeObserverForEndOfTransaction() -> (any TransactionObserver)? {
        let observer = self.observer
        if extent == .nextTransaction { strongObserver = nil }
        return observer
    }
}

/// An observation interested in the statement that runs, and which of the
/// statement's changes it wants.
struct StatementObservation {
    let observation: TransactionObservation
    /// The kinds the observer wants, or nil for every change of the statement.
    let observedKinds: [DatabaseEventKind]?
    /// The kinds the statement announced when it compiled.
    let statementKinds: [DatabaseEventKind]

    func tracks(_ event: DatabaseEvent) -> Bool {
        guard let observedKinds else { return true }
        if observedKinds.contains(where: { $0.matches(event) }) { return true }
        // A change the statement did not announce (the shadow tables of
        // FTS virtual tables): told, as GRDB does.
        return !statementKinds.contains(where: { $0.matches(event) })
    }
}
