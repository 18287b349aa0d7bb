import CSQLCipher

// How statements reach the statement listener and the region recording.
// Nothing here runs while neither exists: statements only test
// `observesStatements`.

extension Database {
    /// Called before a statement runs, while something observes statements.
    func statementWillExecute(_ statement: Statement) {
        if selectedRegionRecording != nil {
            selectedRegionRecording!.formUnion(statement.databaseRegion)
        }
        statementListener?.statementWillExecute(statement)
    }

    /// Called after a statement ran, while something observes statements.
    /// Returns the statement's result code, or the failure the listener
    /// turned it into.
    func statementDidFinish(_ statement: Statement, code: CInt) -> CInt {
        guard let statementListener else { return code }
        let finalCode = statementListener.statementDidFinish(statement, code: code)
        // Taken now: the commit that failed may have released the listener.
        commitCancellationError = finalCode != SQLITE_DONE && finalCode != SQLITE_ROW
            ? statementListener.takeCommitCancellationError() : nil
        return finalCode
    }

    /// The error that replaces SQLite's for the statement that just failed
    /// (a commit that a transaction observer cancelled), once; nil if none.
    func takeCommitCancellationError() -> (any Error)? {
        guard let error = commitCancellationError else { return nil }
        commitCancellationError = nil
        return error
    }

    /// Called after a statement with schema or transaction effects ran.
    func statementDidRun(_ statement: Statement, code: CInt) {
        statementDidRun(withSchemaEffects: statement.schemaEffects)
        guard code == SQLITE_DONE, let effect = statement.facts.transactionEffect else { return }
        switch effect {
        case .beginSavepoint(let name):
            savepointStack.begin(name, bufferedEventCount: statementListener?.bufferedEventCount ?? 0)
        case .rollbackSavepoint(let name):
            if let count = savepointStack.rollback(to: name) {
                statementListener?.dropBufferedEvents(keeping: count)
            }
        case .releaseSavepoint(let name):
            savepointStack.release(name)
            if savepointStack.isEmpty {
                statementListener?.flushBufferedEvents()
            }
        case .beginTransaction, .commitTransaction, .rollbackTransaction:
            break
        }
    }

    /// Called when the connection was closed and opened again (after a
    /// failed passphrase change): the listener hears of the transaction
    /// that the closing ended.
    func connectionDidReopenForStatementListener(wasInsideTransaction: Bool) {
        savepointStack.removeAll()
        guard let statementListener, let handle = sqliteConnection else { return }
        statementListener.connectionDidReopen(on: handle, wasInsideTransaction: wasInsideTransaction)
    }

    /// Statements are told to the listener and the recording while one of
    /// them exists, and then compile with their accesses recorded.
    func updateStatementObservation() {
        observesStatements = statementListener != nil || selectedRegionRecording != nil
        statementAuthorizer.recordsAccesses = observesStatements
    }

    /// Runs `fetch`, and returns its result with the union of the regions
    /// read by every statement it ran on this connection (see
    /// ``Statement/databaseRegion``). Recordings nest: an outer recording
    /// also gets what an inner one records.
    ///
    /// This is how an observation learns what a fetch depends on. A
    /// request by key records only the rows it names, and a request with
    /// prefetched associations the tables they read (its statement's
    /// ``Statement/databaseRegion`` says so), as in GRDB.
    func recordingSelectedRegion<T>(_ fetch: () throws -> T) rethrows -> (T, DatabaseRegion) {
        let outer = selectedRegionRecording
        selectedRegionRecording = DatabaseRegion()
        updateStatementObservation()
        defer {
            if let outer {
                selectedRegionRecording = outer.union(selectedRegionRecording ?? DatabaseRegion())
            } else {
                selectedRegionRecording = nil
            }
            updateStatementObservation()
        }
        let value = try fetch()
        return (value, selectedRegionRecording ?? DatabaseRegion())
    }
}
