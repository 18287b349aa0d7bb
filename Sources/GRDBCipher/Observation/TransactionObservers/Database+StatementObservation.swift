import CSQLCipher

// The observation broker as the connection's statement listener: made for
// the first transaction observer, dropped with the last one.

extension Database {
    /// The transaction observers' broker, nil while there is no observer:
    /// the connection's statement listener.
    var observationBroker: DatabaseObservationBroker? {
        // Invariant: DatabaseObservationBroker is the only class that adopts
        // DatabaseStatementListener, so the slot holds one or nothing
        // (checked in debug builds by unsafeDowncast).
        get { statementListener.map { unsafeDowncast($0, to: DatabaseObservationBroker.self) } }
        set { statementListener = newValue }
    }

    /// Makes the broker, and installs the hooks, for a first observer.
    func makeObservationBrokerIfNeeded() -> DatabaseObservationBroker? {
        if let observationBroker { return observationBroker }
        guard let handle = sqliteConnection else { return nil }
        let broker = DatabaseObservationBroker(database: self)
        broker.installHooks(on: handle)
        observationBroker = broker
        statementAuthorizer.deletionObserver = broker
        updateStatementObservation()
        return broker
    }

    /// Drops the broker, and the hooks, once no observer is left.
    func dropObservationBrokerIfUnused() {
        guard let observationBroker, observationBroker.canBeDropped else { return }
        if let handle = sqliteConnection {
            DatabaseObservationBroker.uninstallHooks(from: handle)
            changeGeneration.installHooks(on: handle)
        }
        self.observationBroker = nil
        statementAuthorizer.deletionObserver = nil
        updateStatementObservation()
    }

    /// Runs `body`, work of the connection's own (a passphrase change, an
    /// export), without telling transaction observers about it.
    func withTransactionObservationSuspended<T>(_ body: () throws -> T) rethrows -> T {
        guard let broker = observationBroker else { return try body() }
        broker.suspensionCount += 1
        defer { broker.suspensionCount -= 1 }
        return try body()
    }

    func observationBrokerDidEndTransaction() {
        dropObservationBrokerIfUnused()
    }
}
