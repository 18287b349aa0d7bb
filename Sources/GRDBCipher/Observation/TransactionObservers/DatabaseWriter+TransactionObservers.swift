extension DatabaseWriter {
    /// Registers a transaction observer on the writer connection; see
    /// ``Database/add(transactionObserver:extent:)``. Waits for the writes
    /// that run to finish.
    ///
    /// ```swift
    /// let observer = PlayerObserver()
    /// dbQueue.add(transactionObserver: observer)
    /// ```
    ///
    /// - parameter extent: How long the observer stays registered; by
    ///   default until it is deallocated (the writer does not retain it).
    /// - parameter transactionObserver: The observer to add.
    public func add(
        transactionObserver: some TransactionObserver,
        extent: Database.TransactionObservationExtent = .observerLifetime)
    {
        writeWithoutTransaction { $0.add(transactionObserver: transactionObserver, extent: extent) }
    }

    /// Unregisters a transaction observer from the writer connection.
    /// Waits for the writes that run to finish: the observer hears about
    /// nothing after this call.
    public func remove(transactionObserver: some TransactionObserver) {
        writeWithoutTransaction { $0.remove(transactionObserver: transactionObserver) }
    }
}
