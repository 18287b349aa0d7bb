/// Why a replication or a restore failed.
///
/// Messages name objects of the replica and positions, never a key.
public enum ReplicaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The replica holds nothing to restore.
    case empty
    /// The key given is not the key of the replica.
    case wrongKey
    /// An object of the replica fails its authentication, is truncated, or
    /// is not where the replica's order puts it: the store altered it.
    case altered(String)
    /// An object the replica needs is missing.
    case incomplete(String)
    /// The replica holds no state at or before the time asked.
    case noStateAtTime(String)
    /// The restored file did not pass the integrity checks.
    case verificationFailed(String)
    /// The store failed (a missing folder, EIO, a full disk, an HTTP error).
    case store(String)
    /// The database cannot be replicated as it is (not in WAL mode, say).
    case unsupported(String)
    /// The output of a restore exists already.
    case outputExists(String)
    /// libcrypto failed.
    case crypto(String)

    /// What failed, in words: object names and positions, never a key.
    public var description: String {
        switch self {
        case .empty: "the replica holds no generation"
        case .wrongKey: "the key is not the key of this replica"
        case .altered(let detail): "the replica was altered: \(detail)"
        case .incomplete(let detail): "the replica is incomplete: \(detail)"
        case .noStateAtTime(let detail): "the replica holds no state at or before \(detail)"
        case .verificationFailed(let detail): "the restored database failed its checks: \(detail)"
        case .store(let detail): "the replica store failed: \(detail)"
        case .unsupported(let detail): "cannot replicate: \(detail)"
        case .outputExists(let path): "the output exists already: \(path)"
        case .crypto(let detail): "cryptography failed: \(detail)"
        }
    }
}
