import Foundation
import Testing
@testable import grdbcipher

/// The passphrase file is read into the tool's own buffers, each zeroed
/// before it is freed, and only its first line is kept.
@Suite struct SecretFileTests {
    @Test func everyBufferIsZeroedBeforeItIsFreed() throws {
        let directory = try TemporaryDirectory()
        let passphrase = String(repeating: "correct horse battery staple ", count: 20)  // 580 bytes
        let path = try write(passphrase + "\r\nsecond line\n", to: directory.path("secret"))
        var discarded: [[UInt8]] = []
        // A 16-byte first buffer: the read grows it six times.
        let line = try #require(SecretFile.firstLine(atPath: path, chunkSize: 16) { discarded.append(Array($0)) })
        #expect(line == Data(passphrase.utf8))
        #expect(discarded.count >= 6, "the buffer did not grow: \(discarded.count) buffers")
        for (index, buffer) in discarded.enumerated() {
            #expect(buffer.allSatisfy { $0 == 0 }, "buffer \(index) of \(buffer.count) bytes was freed with secret bytes")
        }
    }

    @Test func aFileWithoutLineBreakAndAMissingFile() throws {
        let directory = try TemporaryDirectory()
        let path = try write("no line break", to: directory.path("secret"))
        #expect(SecretFile.firstLine(atPath: path) == Data("no line break".utf8))
        #expect(SecretFile.firstLine(atPath: directory.path("missing")) == nil)
        let empty = try write("", to: directory.path("empty"))
        #expect(SecretFile.firstLine(atPath: empty) == Data())
    }
}
