import Foundation
import Logging
import TodoServerApp

// The executable: configuration from the environment (never from argv),
// exit statuses 2 (configuration), 3 (the database does not open with the
// key: nothing was written to it), 1 (anything else).

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("TodoServer: \(message)\n".utf8))
    exit(status)
}

var logger = Logger(label: "TodoServer")
logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info

let configuration: ServerConfiguration
do {
    configuration = try ServerConfiguration.fromEnvironment(ProcessInfo.processInfo.environment)
} catch {
    fail("\(error)", status: 2)
}
// The passphrase is in memory now; child processes need not inherit it.
unsetenv("GRDBCIPHER_PASSPHRASE")
logger.info("starting: \(configuration)")

let server: TodoServer
do {
    server = try buildApplication(configuration, logger: logger)
} catch let error as StartupError {
    if case .wrongKey = error { fail("\(error)", status: 3) }
    fail("\(error)", status: 1)
} catch {
    fail("\(error)", status: 1)
}

do {
    try await server.application.runService()
    logger.info("stopped")
} catch {
    fail("\(error)", status: 1)
}
