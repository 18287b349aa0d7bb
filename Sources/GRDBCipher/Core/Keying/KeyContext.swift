import Foundation

/// The keys shared by the connections of one queue or pool: raw keys derived
/// once per passphrase and salt (pools only), the passphrase changes made
/// through them, and whether WAL frames written with a previous key remain.
/// Keys live as long as the queue or pool and are zeroed when released.
final class KeyContext: @unchecked Sendable {
    // Safe: every stored property is only touched while `lock` is held.
    private let lock = NSLock()
    private var derived: [(passphrase: KeyMaterial, salt: [UInt8], rawKey: KeyMaterial?)] = []
    /// For each passphrase a connection may still be configured with, the
    /// passphrase that replaced it. Never chained: a change updates every
    /// entry, so a rotation back to an earlier passphrase cannot loop.
    private var replacements: [(configured: KeyMaterial, current: KeyMaterial)] = []
    /// Called after a passphrase change, so that the pool closes its readers.
    private var changeObserver: (@Sendable () -> Void)?
    /// Set when a rotation could not truncate the WAL because a reader held
    /// frames written with the old key.
    private var oldKeyFramesPending = false
    let reusesDerivedKeys: Bool

    init(reusesDerivedKeys: Bool) {
        self.reusesDerivedKeys = reusesDerivedKeys
    }

    /// Registers the function called after each passphrase change.
    func observeChanges(_ observer: @escaping @Sendable () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        changeObserver = observer
    }

    /// Whether WAL frames written with a previous key may remain.
    var hasOldKeyFramesPending: Bool {
        lock.lock()
        defer { lock.unlock() }
        return oldKeyFramesPending
    }

    func setOldKeyFramesPending(_ pending: Bool) {
        lock.lock()
        defer { lock.unlock() }
        oldKeyFramesPending = pending
    }

    /// The passphrase to use for `passphrase`, after the changes made through
    /// the pool: a connection whose `prepareDatabase` still supplies an old
    /// passphrase gets the current one.
    func currentPassphrase(for passphrase: KeyMaterial) -> KeyMaterial {
        lock.lock()
        defer { lock.unlock() }
        return replacements.first(where: { $0.configured.hasSameBytes(as: passphrase) })?.current ?? passphrase
    }

    /// Records a passphrase change made on a connection, once it is known
    /// to have succeeded. `old` is nil for a connection keyed with `PRAGMA
    /// key`: the change is then only announced, so that a pool closes its
    /// readers.
    func recordChange(from old: KeyMaterial?, to new: KeyMaterial) {
        lock.lock()
        if let old {
            for index in replacements.indices where replacements[index].current.hasSameBytes(as: old) {
                replacements[index].current = new
            }
            if !replacements.contains(where: { $0.configured.hasSameBytes(as: old) }) {
                replacements.append((old, new))
            }
            replacements.removeAll { $0.configured.hasSameBytes(as: $0.current) }
            derived.removeAll { $0.passphrase.hasSameBytes(as: old) }
        }
        let observer = changeObserver
        lock.unlock()
        observer?()
    }

    /// The raw key for this passphrase and salt, derived on first use (one
    /// derivation at a time: concurrent openings wait for it instead of
    /// repeating it). nil when derivation is disabled or failed for them.
    func rawKey(for passphrase: KeyMaterial, salt: [UInt8], settings: CipherSettings) -> KeyMaterial? {
        guard reusesDerivedKeys else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let entry = derived.first(where: { $0.salt == salt && $0.passphrase.hasSameBytes(as: passphrase) }) {
            return entry.rawKey
        }
        let rawKey = KeyDerivation.rawKeySpecification(passphrase: passphrase, salt: salt, settings: settings)
        // Kept as long as the pool: never swapped out, where the system allows.
        rawKey?.lockInMemory()
        derived.append((passphrase, salt, rawKey))
        return rawKey
    }

    /// Forgets the raw key derived for this passphrase and salt, which did
    /// not open the file. Keeps no copy of the passphrase.
    func forgetDerivedKey(passphrase: KeyMaterial, salt: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        derived.removeAll { $0.salt == salt && $0.passphrase.hasSameBytes(as: passphrase) }
    }

    /// Stops using derived keys for this salt: its file opened with a
    /// passphrase whose derived key failed, so it uses cipher settings that
    /// the derivation does not match.
    func markUnusable(salt: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        unusableSalts.insert(salt)
    }

    /// Salts whose file did not open with a derived key.
    private var unusableSalts: Set<[UInt8]> = []

    /// Whether derived keys may be tried for this salt.
    func allowsDerivedKeys(salt: [UInt8]) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return reusesDerivedKeys && !unusableSalts.contains(salt)
    }

    /// Forgets every key (they are zeroed as they are released).
    func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        derived.removeAll()
        replacements.removeAll()
    }
}
