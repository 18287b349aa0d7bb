import CSQLCipher
import Synchronization

/// A count of the accesses of one connection that committed a change,
/// readable from any thread.
///
/// Other threads learn from it whether a connection changed the database
/// since they last looked: a pool's value observation compares the count
/// of the writer before and after it fetched on a reader, where GRDB uses
/// SQLite's snapshots, which SQLCipher 4.6.1 is built without.
///
/// SQLite's commit and rollback hooks tell the commits (whoever owns the
/// hooks later forwards them here): a transaction rolled back counts for
/// nothing. The count grows when an access ends, after its commits: a read
/// that begins after it loaded a value sees at least the changes of the
/// accesses that value counts.
final class ChangeGeneration: Sendable {
    private let count = Atomic<UInt64>(0)
    // Only touched by the connection's own accesses, one at a time.
    private nonisolated(unsafe) var commits = 0
    /// Set by a commit until its statement ends: a failing commit is
    /// followed by a rollback in the same statement.
    private nonisolated(unsafe) var commitInProgress = false

    /// The current count.
    var value: UInt64 { count.load(ordering: .acquiring) }

    /// A transaction is about to commit (nothing vetoed it).
    func willCommit() {
        commits += 1
        commitInProgress = true
    }

    /// A transaction rolled back, maybe the one whose commit failed.
    func didRollBack() {
        if commitInProgress {
            commits -= 1
            commitInProgress = false
        }
    }

    /// A statement ended: its commit, if any, is done.
    @inline(__always)
    func statementDidEnd() {
        commitInProgress = false
    }

    /// Called at the end of each access of the connection.
    func accessDidEnd() {
        commitInProgress = false
        guard commits > 0 else { return }
        commits = 0
        count.add(1, ordering: .releasing)
    }

    /// Installs the commit and rollback hooks that count commits, until a
    /// transaction observer takes them over.
    func installHooks(on handle: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_commit_hook(handle, { context in
            Unmanaged<ChangeGeneration>.fromOpaque(context!).takeUnretainedValue().willCommit()
            return 0
        }, context)
        sqlite3_rollback_hook(handle, { context in
            Unmanaged<ChangeGeneration>.fromOpaque(context!).takeUnretainedValue().didRollBack()
        }, context)
    }
}
