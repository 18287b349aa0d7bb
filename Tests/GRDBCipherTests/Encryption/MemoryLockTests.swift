import Foundation
import Testing
@testable import GRDBCipher
#if canImport(Glibc)
import Glibc
#endif

/// Keys locked in memory share pages: unlocking one must not unlock another.
@Suite struct MemoryLockTests {
    /// The `Locked:` size, in kB, that /proc/self/smaps gives the mapping at `address`.
    private func lockedKilobytes(ofMappingAt address: UInt) throws -> Int? {
        // Read to the end: /proc files state no size, and a single read
        // returns only part of this one.
        let descriptor = open("/proc/self/smaps", O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        let smaps = String(decoding: bytes, as: UTF8.self)
        var inside = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
            } else if inside, fields.first == "Locked:", fields.count >= 2 {
                return Int(fields[1])
            }
        }
        return nil
    }

    @Test func unlockingOneRangeKeepsAnotherOnTheSamePageLocked() throws {
        let pageSize = Int(sysconf(CInt(_SC_PAGESIZE)))
        // A mapping of our own: no other lock of the process shares it.
        let base = try #require(mmap(nil, 2 * pageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        #expect(base != MAP_FAILED)
        defer { munmap(base, 2 * pageSize) }
        let first = UnsafeMutableRawBufferPointer(start: base, count: 32)
        let second = UnsafeMutableRawBufferPointer(start: base + 64, count: 32)
        try #require(MemoryLocks.lock(first), "mlock is refused here")
        #expect(MemoryLocks.lock(second))
        let address = UInt(bitPattern: base)
        #expect(try lockedKilobytes(ofMappingAt: address) == pageSize / 1024)
        MemoryLocks.unlock(first)
        #expect(try lockedKilobytes(ofMappingAt: address) == pageSize / 1024, "the second key's page was unlocked")
        MemoryLocks.unlock(second)
        #expect(try lockedKilobytes(ofMappingAt: address) == 0)
    }
}
