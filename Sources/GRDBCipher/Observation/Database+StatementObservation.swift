import CSQLCipher

// How statements reach the observation broker and the region recording.
// Nothing here runs while no observer and no recording exist: statements
// only test `observesStatements`.

extension Database {
    /// Called before a statement runs, while something observes statements.
    func statementWillExecute(_ statement: Statement) {
        if selectedRegionRecording != nil {
            if let narrowed = narrowedSelectedRegion, narrowed.statement === statement {
                narrowedSelectedRegion = nil
                selectedRegionRecording!.formUnion(narrowed.region)
            } else {
                selectedRegionRecording!.formUnion(statement.accesses.selectedRegion)
            }
        }
        observationBroker?.statementWillExecute(statement)
    }

    /// Called after a statement ran, while something observes statements.
    /// Returns the statement's result code, or the failure an observer
    /// turned it into.
    func statementDidFinish(_ statement: Statement, code: CInt) -> CInt {
        guard let observationBroker else { return code }
        return observationBroker.statementDidFinish(statement, code: code)
    }

    /// Called after a statement with schema or transaction effects ran.
    func statementDidRun(_ statement: Statement, code: CInt) {
        statementDidRun(withSchemaEffects: statement.schemaEffects)
        guard code == SQLITE_DONE, let effect = statement.facts.transactionEffect else { return }
        switch effect {
        case .beginSavepoint(let name):
            savepointStack.begin(name, bufferedEventCount: observationBroker?.bufferedEventCount ?? 0)
        case .rollbackSavepoint(let name):
            if let count = savepointStack.rollback(to: name) {
                observationBroker?.dropBufferedEvents(keeping: count)
            }
        case .releaseSavepoint(let name):
            savepointStack.release(name)
            if savepointStack.isEmpty {
                observationBroker?.flushBufferedEvents()
            }
        case .beginTransaction, .commitTransaction, .rollbackTransaction:
            break
        }
    }

    /// Called when the connection was closed and opened again (after a
    /// failed passphrase change): the hooks go on the new handle, and
    /// observers hear about the transaction that the closing ended.
    func connectionDidReopenForObservation(wasInsideTransaction: Bool) {
        savepointStack.removeAll()
        guard let observationBroker, let handle = sqliteConnection else { return }
        observationBroker.installHooks(on: handle)
        observationBroker.transactionDidEndOutsideOfStatements(wasInsideTransaction: wasInsideTransaction)
    }

    /// Makes the broker, and installs the hooks, for a first observer.
    func makeObservationBrokerIfNeeded() -> DatabaseObservationBroker? {
        if let observationBroker { return observationBroker }
        guard let handle = sqliteConnection else { return nil }
        let broker = DatabaseObservationBroker(database: self)
        broker.installHooks(on: handle)
        observationBroker = broker
        statementAuthorizer.broker = broker
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
        statementAuthorizer.broker = nil
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

    /// Statements are told to observation while a broker or a region
    /// recording exists, and then compile with their accesses recorded.
    func updateStatementObservation() {
        observesStatements = observationBroker != nil || selectedRegionRecording != nil
        statementAuthorizer.recordsAccesses = observesStatements
    }

    /// Runs `fetch`, and returns its result with the union of the regions
    /// read by every statement it ran on this connection (see
    /// ``Statement/databaseRegion``). Recordings nest: an outer recording
    /// also gets what an inner one records.
    ///
    /// This is how an observation learns what a fetch depends on. A
    /// request by key records only the rows it names (see
    /// `QueryInterfaceRequest.narrowRecordedRegion`), as in GRDB.
    func recordingSelectedRegion<T>(_ fetch: () throws -> T) rethrows -> (T, DatabaseRegion) {
        let outer = selectedRegionRecording
        selectedRegionRecording = DatabaseRegion()
        updateStatementObservation()
        defer {
            if let outer {
                selectedRegionRecording = outer.union(selectedRegionRecording ?? DatabaseRegion())
            } else {
                selectedRegionRecording = nil
                narrowedSelectedRegion = nil
            }
            updateStatementObservation()
        }
        let value = try fetch()
        return (value, selectedRegionRecording ?? DatabaseRegion())
    }
}
