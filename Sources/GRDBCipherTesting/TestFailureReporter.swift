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
    /// Records `message` as a failure at `site`, and lets the test go on.
    static func recordFailure(_ message: String, at site: CallSite) {
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
