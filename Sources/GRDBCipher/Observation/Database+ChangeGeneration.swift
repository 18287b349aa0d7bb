import CSQLCipher
import Synchronization

/// A count of the accesses of one connection that changed the database,
/// readable from any thread.
///
/// A pool's value observation fetches its initial value on a reader, then
/// registers on the writer. If no access of the writer changed the database
/// in between, the reader saw what the writer sees, and the writer need not
/// fetch again. GRDB learns this from SQLite's snapshots, which SQLCipher
/// 4.6.1 is built without; this count tells the same for the changes made
/// through the pool's writer, the only ones value observations notice.
///
/// The count grows when an access ends, after its commits: a read that
/// begins after it loaded a value sees at least the changes of the accesses
/// that value counts. It grows for an access that changed a row or the
/// schema, and it may grow for an access that changed nothing in the end
/// (a rolled-back transaction): one more fetch, never a missed change.
final class ChangeGeneration: Sendable {
    private let count = Atomic<UInt64>(0)
    // Only touched by the connection's own accesses, one at a time.
    private nonisolated(unsafe) var totalChangesAtLastEnd: Int64 = 0
    private nonisolated(unsafe) var changesSchema = false

    /// The current count.
    var value: UInt64 { count.load(ordering: .acquiring) }

    /// Notes that a statement of the current access changed the schema.
    func schemaDidChange() {
        changesSchema = true
    }

    /// Called at the end of each access of the connection.
    func accessDidEnd(_ connection: OpaquePointer?) {
        guard let connection else { return }
        let totalChanges = sqlite3_total_changes64(connection)
        guard totalChanges != totalChangesAtLastEnd || changesSchema else { return }
        totalChangesAtLastEnd = totalChanges
        changesSchema = false
        count.add(1, ordering: .releasing)
    }
}

extension DatabasePool {
    /// How many accesses of the writer changed the database so far.
    var writerChangeGeneration: UInt64 { writer.changeGeneration.value }
}
