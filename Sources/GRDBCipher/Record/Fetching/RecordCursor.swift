/// A cursor of records decoded from the rows of a statement.
///
/// ```swift
/// let players: RecordCursor<Player> = try Player.fetchCursor(db, sql: "SELECT * FROM player")
/// while let player = try players.next() {
///     print(player.name)
/// }
/// ```
///
/// Like every database cursor, it is valid only inside the database access
/// that created it.
public final class RecordCursor<Record: FetchableRecord>: DatabaseCursor {
    @usableFromInline let iteration: StatementIteration
    /// The row given to ``FetchableRecord/init(row:)``: one for the whole
    /// iteration, reading the statement's current row.
    @usableFromInline let row: Row

    /// The statement iterated by the cursor.
    public var _statement: Statement { iteration.statement }

    /// With an adapter, records decode from adapted rows over the statement
    /// row; the adapter is applied to the statement's columns once, here.
    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)? = nil) throws {
        let layout = try adapter.map { try AdaptedRowLayout($0, statement: statement) }
        iteration = try StatementIteration(statement, arguments: arguments)
        row = Row(statement: statement).adapted(with: layout)
        row.keyedContainerCache = KeyedDecodingContainerCache()
    }

    deinit {
        // The cached containers refer to the row: let both go.
        row.keyedContainerCache = nil
    }

    /// The next record, or nil.
    ///
    /// - throws: A ``DatabaseError``, or the error of
    ///   ``FetchableRecord/init(row:)``.
    @inlinable
    public func next() throws -> Record? {
        // Inlined in client code, so that it is specialized for `Record`.
        guard try iteration.step() else { return nil }
        return try Record(row: row)
    }
}

// A database cursor must stay in the database access that created it.
@available(*, unavailable)
extension RecordCursor: Sendable {}
