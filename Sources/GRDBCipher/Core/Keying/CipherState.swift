/// What a connection knows of its encryption: whether and how it was keyed,
/// whether its cipher settings were applied, and the keys it shares with
/// the other connections of its pool.
///
/// The connection holds one (`Database.cipherState`): the encryption layer
/// enters Core there, and only the encryption layer reads or changes it.
struct CipherState {
    /// Whether a key was applied to the connection.
    var isKeyed = false

    /// Whether the configuration's cipher settings were applied.
    var settingsApplied = false

    /// Whether the configuration's preparation functions are running: a key
    /// they apply (`usePassphrase`) may be followed by cipher pragmas that
    /// the library does not see, so a new file is not given a key derived
    /// with the configuration's settings.
    var runsPreparationFunctions = false

    /// The passphrase the connection was keyed with, if any: a rotation
    /// needs it to prove the old key. Cleared when the connection closes.
    var passphrase: KeyMaterial?

    /// The key the connection was last given, applied or not: what a failed
    /// first read is diagnosed with (see `KeyMistake`). Cleared with the
    /// other keys.
    var givenKey: KeyMaterial?

    /// The keys shared with the other connections of a pool, if any.
    let keyContext: KeyContext?

    /// Set when the connection was keyed with a raw key derived by the pool.
    var derivedKeyAttempt: (passphrase: KeyMaterial, salt: [UInt8])?

    /// Whether the first key of this opening may be a derived raw key.
    private var allowsDerivedKey = false

    init(keyContext: KeyContext?) {
        self.keyContext = keyContext
    }

    /// Whether the next key may be a derived raw key: only the first key of
    /// a connection opened by a pool.
    var allowsDerivedKeyNow: Bool { allowsDerivedKey && !isKeyed }

    /// Drops every key the connection holds, when it closes: a closed
    /// queue or pool that the application keeps keeps no passphrase.
    mutating func forgetKeys() {
        passphrase = nil
        givenKey = nil
        derivedKeyAttempt = nil
    }

    /// Forgets the previous opening's state, before the connection opens.
    mutating func reset(allowsDerivedKey: Bool) {
        self.allowsDerivedKey = allowsDerivedKey
        derivedKeyAttempt = nil
        isKeyed = false
        settingsApplied = false
        passphrase = nil
        givenKey = nil
    }
}

extension CipherState {
    /// Refuses to open anything unless the linked library is SQLCipher 4.5
    /// or later, and routes SQLCipher's log as configured.
    static func checkLinkedLibrary(configuration: Configuration) throws {
        try SQLCipherLibrary.checkLinkedLibrary()
        SQLCipherLibrary.routeLog(to: configuration.cipherLogDestination)
    }
}
