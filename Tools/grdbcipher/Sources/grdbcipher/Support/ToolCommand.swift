import ArgumentParser
import Foundation
import GRDBCipher

/// A subcommand: `execute()` does the work, and every error it throws is
/// reported on standard error with its documented exit status.
protocol ToolCommand: ParsableCommand {
    func execute() throws
}

extension ToolCommand {
    func run() throws {
        Diagnostics.silenceSQLCipherLog()
        do {
            try execute()
        } catch let error as ToolError {
            Diagnostics.report(error.message)
            throw ExitCode(error.status.rawValue)
        } catch let error as DatabaseError {
            let (status, message) = Diagnostics.explain(error)
            Diagnostics.report(message)
            throw ExitCode(status.rawValue)
        } catch let error as ExitCode {
            throw error
        } catch let error as CleanExit {
            throw error
        } catch let error as ValidationError {
            throw error
        } catch {
            Diagnostics.report("\(error)")
            throw ExitCode(ExitStatus.failure.rawValue)
        }
    }
}

/// Messages to standard error. They are built from file names and SQLite's
/// errors, which never carry the key: no passphrase reaches them.
enum Diagnostics {
    static func report(_ message: String) {
        FileHandle.standardError.write(Data("grdbcipher: \(message)\n".utf8))
    }

    static func note(_ message: String) {
        FileHandle.standardError.write(Data("\(message)\n".utf8))
    }

    /// SQLCipher logs "hmac check failed" on a wrong key: the tool says it
    /// better, once. The log is process-wide: one connection routes it.
    static func silenceSQLCipherLog() {
        var configuration = Configuration()
        configuration.cipherLogDestination = .discarded
        _ = try? DatabaseQueue(named: nil, configuration: configuration)
    }

    /// The exit status and message for an error of the library.
    static func explain(_ error: DatabaseError) -> (ExitStatus, String) {
        var message = error.message ?? "SQLite error \(error.resultCode.rawValue)"
        if let hint = error.hint { message += " (\(hint))" }
        switch error.resultCode {
        case .SQLITE_NOTADB:
            return (.doesNotOpen, message)
        default:
            return (.failure, message)
        }
    }
}
