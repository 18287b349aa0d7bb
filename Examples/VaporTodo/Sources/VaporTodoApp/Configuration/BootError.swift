import GRDBCipher

/// Why the application did not boot. The descriptions never contain a key.
public enum BootError: Error, CustomStringConvertible {
    /// `VAPORTODO_PASSPHRASE_FILE` is not set.
    case passphraseFileNotSet
    /// The passphrase file does not exist or cannot be read.
    case unreadablePassphraseFile(path: String)
    /// The passphrase file is not UTF-8 text.
    case passphraseFileNotUTF8(path: String)
    /// The passphrase file is empty, or holds a line break only.
    case emptyPassphraseFile(path: String)
    /// The database does not open with the passphrase, or fails to open or
    /// migrate. `SQLITE_NOTADB` is a key mistake, which the error's
    /// description tells; the file was then not modified.
    case database(path: String, DatabaseError)

    /// The database error behind a ``database(path:_:)`` failure.
    public var databaseError: DatabaseError? {
        if case .database(_, let error) = self { return error }
        return nil
    }

    /// Whether the database does not open with the passphrase (`SQLITE_NOTADB`):
    /// a wrong passphrase, other cipher settings, or a file that is no SQLCipher database.
    public var isKeyMistake: Bool { databaseError?.resultCode == .SQLITE_NOTADB }

    /// What happened, for the operator.
    public var description: String {
        switch self {
        case .passphraseFileNotSet:
            return "\(BootSettings.passphraseFileVariable) is not set: name a file that holds the database passphrase "
                + "(the passphrase is never read from the command line or from a variable)"
        case .unreadablePassphraseFile(let path):
            return "cannot read the passphrase file \(path) named by \(BootSettings.passphraseFileVariable)"
        case .passphraseFileNotUTF8(let path):
            return "the passphrase file \(path) is not UTF-8 text"
        case .emptyPassphraseFile(let path):
            return "the passphrase file \(path) is empty"
        case .database(let path, let error) where error.resultCode == .SQLITE_NOTADB:
            // GRDBCipher's description names the mistake: a wrong passphrase,
            // a plaintext file, another SQLCipher version's settings.
            return "cannot open \(path) with the passphrase of \(BootSettings.passphraseFileVariable): \(error) "
                + "(the file was not modified)"
        case .database(let path, let error):
            return "cannot open or migrate \(path): \(error)"
        }
    }
}
