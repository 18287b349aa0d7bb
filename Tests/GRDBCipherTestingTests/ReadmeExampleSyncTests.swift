import Foundation
import Testing

/// The README's example test is ReadmeExampleTests.swift, verbatim: the code
/// block that follows the line `<!-- ReadmeExampleTests.swift -->` in the
/// README must be the file, byte for byte.
@Suite struct ReadmeExampleSyncTests {
    @Test func theReadmeShowsTheExampleTestThatRuns() throws {
        let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let readmeURL = testsFolder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
        let readme = try String(contentsOf: readmeURL, encoding: .utf8)
        let example = try String(contentsOf: testsFolder.appendingPathComponent("ReadmeExampleTests.swift"), encoding: .utf8)

        let marker = "<!-- ReadmeExampleTests.swift -->\n```swift\n"
        let start = try #require(readme.range(of: marker), "README.md has no \(marker)")
        let end = try #require(readme.range(of: "\n```\n", range: start.upperBound..<readme.endIndex), "the code block does not end")
        let block = String(readme[start.upperBound..<end.lowerBound]) + "\n"
        guard block != example else { return }
        let blockLines = block.split(separator: "\n", omittingEmptySubsequences: false)
        let exampleLines = example.split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(blockLines, exampleLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(blockLines.count, exampleLines.count)
        Issue.record("""
            README.md's example differs from Tests/GRDBCipherTestingTests/ReadmeExampleTests.swift at line \(line + 1):
            README: \(line < blockLines.count ? String(blockLines[line]) : "(end)")
            file:   \(line < exampleLines.count ? String(exampleLines[line]) : "(end)")
            Copy the file into the README (or the README into the file).
            """)
    }
}
