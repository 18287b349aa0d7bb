import CSQLCipher

/// What follows the statements of a connection from a layer above Core:
/// the transaction observers' broker.
///
/// Core knows nothing of it but this protocol. While a listener is set (or
/// a region is recorded), each statement is told to it before and after it
/// runs; otherwise statements pay one branch, on `observesStatements`.
protocol DatabaseStatementListener: AnyObject {
    /// A statement is about to run.
    func statementWillExecute(_ statement: Statement)

    /// A statement ran to its end or failed with `code`. Returns `code`, or
    /// the failure the listener turned it into (a commit it cancelled).
    func statementDidFinish(_ statement: Statement, code: CInt) -> CInt

    /// The error that replaces SQLite's for the statement that just failed
    /// (a commit the listener cancelled), once; nil if none does.
    func takeCommitCancellationError() -> (any Error)?

    /// How many changes the listener holds back until they can commit: a
    /// savepoint remembers it, to drop what a rollback to it undoes.
    var bufferedEventCount: Int { get }

    /// A rollback to a savepoint undid the changes after the first `count`.
    func dropBufferedEvents(keeping count: Int)

    /// The last savepoint was released outside of a transaction: the held
    /// changes committed.
    func flushBufferedEvents()

    /// The connection closed and opened again on `handle` (after a failed
    /// passphrase change), which ended any transaction it had open.
    func connectionDidReopen(on handle: SQLiteConnection, wasInsideTransaction: Bool)
}
