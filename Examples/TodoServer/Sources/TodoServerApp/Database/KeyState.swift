import GRDBCipher
import Synchronization

/// The key the database is encrypted with now: the one given at boot until
/// an online rotation replaces it. Backups are keyed with it.
final class KeyState: Sendable {
    private let current: Mutex<ServerConfiguration.Encryption>

    init(_ encryption: ServerConfiguration.Encryption) {
        current = Mutex(encryption)
    }

    /// The current key.
    var encryption: ServerConfiguration.Encryption {
        current.withLock { $0 }
    }

    /// Records the key of a rotation that succeeded.
    func rotated(to passphrase: String) {
        current.withLock { $0 = .passphrase(passphrase) }
    }

    /// Records the key-encryption key of a rewrap that succeeded.
    func rewrapped(to keyEncryptionKey: KeyEncryptionKey) {
        current.withLock { $0 = .envelope(keyEncryptionKey) }
    }
}
