import Foundation
#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Where an `expect…` function was called, for the failure it records.
struct CallSite: Sendable {
    let fileID: String
    let filePath: StaticString
    let line: UInt
    let column: UInt
}

/// Records failures and skips in the framework that runs the test: Swift
/// Testing when a Swift Testing test runs (`Test.current`), XCTest otherwise.
enum TestFailureReporter {
    /// A failure recorded while ``capturingFailures(_:)`` runs.
    struct CapturedFailure: Sendable {
        let message: String
        let fileID: String
        let line: UInt
    }

    /// Set while ``capturingFailures(_:)`` runs, in its task.
    @TaskLocal private static var capture: LockedFailures?

    /// The kit's own tests: runs `body` and returns the failures the
    /// `expect…` functions recorded meanwhile, which reach no framework.
    static func capturingFailures(_ body: () throws -> Void) rethrows -> [CapturedFailure] {
        let failures = LockedFailures()
        try $capture.withValue(failures) { try body() }
        return failures.all
    }

    /// Records `message` as a failure at `site`, and lets the test go on.
    static func recordFailure(_ message: String, at site: CallSite) {
        if let capture {
            capture.append(CapturedFailure(message: message, fileID: site.fileID, line: site.line))
            return
        }
        #if canImport(Testing)
        if Test.current != nil {
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation(site))
            return
        }
        #endif
        #if canImport(XCTest)
        XCTFail(message, file: site.filePath, line: site.line)
        #else
        FileHandle.standardError.write(Data("\(site.fileID):\(site.line): \(message)\n".utf8))
        #endif
    }

    /// Ends the test as skipped, with `reason`: cancelled in Swift Testing,
    /// `XCTSkip` in XCTest.
    static func skip(_ reason: String, at site: CallSite) throws -> Never {
        #if canImport(Testing)
        if Test.current != nil {
            try Test.cancel(Comment(rawValue: reason), sourceLocation: sourceLocation(site))
        }
        #endif
        #if canImport(XCTest)
        throw XCTSkip(reason, file: site.filePath, line: site.line)
        #else
        throw EncryptionCheck.Unavailable(reason: reason)
        #endif
    }

    /// Runs `check`: records the failure it throws and returns false, or
    /// returns true.
    static func check(at site: CallSite, _ check: () throws -> Void) -> Bool {
        do {
            try check()
            return true
        } catch let failure as EncryptionCheck.Failure {
            recordFailure(failure.message, at: site)
        } catch {
            recordFailure("the check could not run: \(error)", at: site)
        }
        return false
    }

    /// Runs `check` as ``check(at:_:)`` does, but skips the test when the
    /// check cannot run here (``EncryptionCheck/Unavailable``).
    static func checkOrSkip(at site: CallSite, _ check: () throws -> Void) throws -> Bool {
        do {
            try check()
            return true
        } catch let unavailable as EncryptionCheck.Unavailable {
            try skip(unavailable.reason, at: site)
        } catch let failure as EncryptionCheck.Failure {
            recordFailure(failure.message, at: site)
        } catch {
            recordFailure("the check could not run: \(error)", at: site)
        }
        return false
    }

    #if canImport(Testing)
    private static func sourceLocation(_ site: CallSite) -> SourceLocation {
        SourceLocation(
            fileID: site.fileID, filePath: "\(site.filePath)", line: Int(site.line), column: Int(site.column))
    }
    #endif
}

/// The failures captured by ``TestFailureReporter/capturingFailures(_:)``.
final class LockedFailures: @unchecked Sendable {
    // Safe: `failures` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var failures: [TestFailureReporter.CapturedFailure] = []

    func append(_ failure: TestFailureReporter.CapturedFailure) {
        lock.lock()
        defer { lock.unlock() }
        failures.append(failure)
    }

    var all: [TestFailureReporter.CapturedFailure] {
        lock.lock()
        defer { lock.unlock() }
        return failures
    }
}
