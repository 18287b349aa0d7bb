extension Database {
    /// How long a transaction observer stays registered.
    public enum TransactionObservationExtent: Sendable {
        /// Until the observer is deallocated: the connection keeps a weak
        /// reference to it.
        case observerLifetime
        /// Until the end of the current transaction, or of the next one
        /// outside of a transaction: the connection keeps the observer
        /// until then.
        case nextTransaction
        /// Until the connection closes: the connection keeps the observer.
        case databaseLifetime
    }
}
