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
    SecretEnvironment.scrub()
    fail("\(error)", status: 2)
}
// The secrets are in memory now: child processes need not inherit them, and
// /proc/<pid>/environ need not show them.
let scrubbed = SecretEnvironment.scrub()
logger.info("starting: \(configuration)")
for name in scrubbed.removed {
    if scrubbed.overwritten.contains(name) {
        logger.info("\(name) removed from the environment and overwritten in /proc/self/environ")
    } else {
        logger.warning("\(name) removed from the environment, but /proc/self/environ may still show it")
    }
}

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
    try await server.run(shutdownTimeout: configuration.shutdownTimeout, logger: logger)
    logger.info("stopped")
} catch {
    fail("\(error)", status: 1)
}
