extension Database {
    /// Opens the connection, first with the pool's derived key when it
    /// may, then with the passphrase when that key does not open the file.
    func openTryingDerivedKey() throws {
        do {
            try openConnection(allowsDerivedKey: cipherState.keyContext?.reusesDerivedKeys ?? false)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            // A derived key that does not open the file: either the file
            // uses other cipher settings, or the passphrase is wrong.
            guard let attempt = cipherState.derivedKeyAttempt else { throw error }
            cipherState.keyContext?.forgetDerivedKey(passphrase: attempt.passphrase, salt: attempt.salt)
            try openConnection(allowsDerivedKey: false)
            // The passphrase opened it: other settings. Derived keys cannot
            // work for this file, whatever the passphrase. (A wrong
            // passphrase threw above and disables nothing for the others.)
            cipherState.keyContext?.markUnusable(salt: attempt.salt)
        }
    }
}
