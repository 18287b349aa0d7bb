import Foundation

/// The reference `sqlcipher` command-line shell, run as a separate process:
/// an independent peer that reads what your app wrote, and writes what it
/// must read.
///
/// The key and cipher settings go to the shell through its standard input,
/// never its command line (which other users see in `ps`).
///
/// ```swift
/// let count = try SQLCipherShell.run(path, key: key, script: "SELECT COUNT(*) FROM player;")
/// ```
public enum SQLCipherShell {
    /// Where the shell is looked for, after the directories of `PATH`.
    static let usualDirectories = ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]

    /// The path of the `sqlcipher` executable found in `PATH` or the usual
    /// directories, or nil when it is not installed.
    public static var executablePath: String? {
        let pathDirectories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for directory in pathDirectories + usualDirectories {
            let candidate = (directory as NSString).appendingPathComponent("sqlcipher")
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `script` in the shell on the database at `path`, keyed with `key`
    /// and its cipher settings (nil: a plaintext database), and returns what
    /// the shell printed. The shell stops at the first error (`-bail`).
    ///
    /// ```swift
    /// try SQLCipherShell.run(path, key: key, script: """
    ///     CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT);
    ///     INSERT INTO player(name) VALUES ('Arthur');
    ///     """)
    /// ```
    ///
    /// - throws: ``EncryptionCheck/Unavailable`` when the shell is not
    ///   installed; an ``EncryptionCheck/Failure`` with the shell's output
    ///   (without the key) when it exits with an error or reports one.
    @discardableResult
    public static func run(_ path: String, key: TestKey?, script: String) throws -> String {
        guard let executable = executablePath else {
            throw EncryptionCheck.Unavailable(
                reason: "the sqlcipher shell is not installed (looked for it in PATH and "
                    + usualDirectories.joined(separator: ", ")
                    + "): install it (Debian and Ubuntu: apt-get install sqlcipher; macOS: brew install sqlcipher)")
        }
        var input = ""
        if let key {
            // The key pragma prints "ok": sent where it is not mixed with the script's output.
            input += ".output /dev/null\n" + keyStatements(key).joined(separator: "\n") + "\n.output\n"
        }
        input += script + "\n"
        let result = try ChildProcessRun(executable: executable, arguments: ["-batch", "-bail", path], input: Data(input.utf8))
        let output = redacting(key, in: String(decoding: result.output, as: UTF8.self))
        let errors = redacting(key, in: String(decoding: result.errors, as: UTF8.self))
        if result.status != 0 || errors.contains("Error") {
            throw EncryptionCheck.Failure(
                "the sqlcipher shell failed on \(path) (exit status \(result.status)): \(errors.isEmpty ? output : errors)")
        }
        return output
    }

    /// `PRAGMA key` and the cipher settings, in the order SQLCipher needs:
    /// the key, the compatibility, then the settings that override it.
    static func keyStatements(_ key: TestKey) -> [String] {
        var statements: [String]
        switch key.secret {
        case let .passphrase(bytes):
            statements = ["PRAGMA key = '\(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "'", with: "''"))';"]
        case let .rawKey(bytes, salt):
            statements = ["PRAGMA key = \"x'\(hex(bytes))\(salt.map(hex) ?? "")'\";"]
        }
        let settings = key.cipherSettings
        if let value = settings.compatibility { statements.append("PRAGMA cipher_compatibility = \(value);") }
        if let value = settings.pageSize { statements.append("PRAGMA cipher_page_size = \(value);") }
        if let value = settings.kdfIterations { statements.append("PRAGMA kdf_iter = \(value);") }
        if let value = settings.kdfAlgorithm { statements.append("PRAGMA cipher_kdf_algorithm = \(value.rawValue);") }
        if let value = settings.usesHMAC { statements.append("PRAGMA cipher_use_hmac = \(value ? "ON" : "OFF");") }
        if let value = settings.hmacAlgorithm { statements.append("PRAGMA cipher_hmac_algorithm = \(value.rawValue);") }
        if let value = settings.plaintextHeaderSize { statements.append("PRAGMA cipher_plaintext_header_size = \(value);") }
        return statements
    }

    /// `text` without the key, should the shell ever echo it.
    private static func redacting(_ key: TestKey?, in text: String) -> String {
        guard let key else { return text }
        let secret: String
        switch key.secret {
        case let .passphrase(bytes): secret = String(decoding: bytes, as: UTF8.self)
        case let .rawKey(bytes, _): secret = hex(bytes)
        }
        guard !secret.isEmpty else { return text }
        return text.replacingOccurrences(of: secret, with: "<key>", options: .caseInsensitive)
    }

    static func hex(_ bytes: Data) -> String {
        bytes.map { String(format: "%02X", $0) }.joined()
    }
}
