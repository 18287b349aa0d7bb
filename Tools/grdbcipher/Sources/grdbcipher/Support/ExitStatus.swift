import ArgumentParser

/// The exit statuses of `grdbcipher`, documented in its README and `--help`.
/// Scripts rely on them: never renumber.
enum ExitStatus: Int32 {
    /// The command did what it was asked.
    case success = 0
    /// The operation failed (an SQLite or file system error); the input is unchanged.
    case failure = 1
    /// `verify` found damage: a page failed authentication or SQLite's integrity check failed.
    case damaged = 2
    /// The file does not open: wrong passphrase, wrong cipher settings, or not a database.
    case doesNotOpen = 3
    /// The command refused: plaintext output without `--plaintext-ok`, an
    /// existing output without `--replace`, or an input of the wrong kind.
    case refused = 4
    /// The input file does not exist or cannot be read.
    case missingInput = 5
    /// Bad arguments or options, or no passphrase source (ArgumentParser's own usage status).
    case usage = 64
}

/// An error the tool reports in its own words, with its exit status.
struct ToolError: Error, CustomStringConvertible {
    let status: ExitStatus
    let message: String

    init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    var description: String { message }
}
