import Foundation
import Testing
@testable import GRDBCipher

/// Keys given by a provider, and what stays of them in memory: once a pool
/// keyed by a provider is closed and released, no writable page of the
/// process holds the passphrase or the key derived from it.
@Suite(.serialized) struct KeyProviderMemoryTests {
    /// Bytes that the test keeps only masked, so that its own memory never
    /// holds them in clear (the scan would find the test, not the library).
    struct MaskedBytes: Sendable {
        let masked: [UInt8]

        static func maskByte(_ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: 0x5A &+ index &* 37) }

        init(maskingAndZeroing clear: inout [UInt8]) {
            masked = clear.enumerated().map { $0.element ^ Self.maskByte($0.offset) }
            clear.withUnsafeMutableBytes { secureZero($0) }
        }

        /// The clear bytes, for a moment: the caller zeroes them.
        func unmasked() -> [UInt8] {
            masked.enumerated().map { $0.element ^ Self.maskByte($0.offset) }
        }

        /// Whether `memory` holds the clear bytes at `offset`, compared
        /// without unmasking them.
        func matches(_ memory: UnsafeRawBufferPointer, at offset: Int) -> Bool {
            guard offset + masked.count <= memory.count else { return false }
            for index in masked.indices where memory[offset + index] ^ Self.maskByte(index) != masked[index] {
                return false
            }
            return true
        }
    }

    @Test func aProviderCanKeyAPoolAndItsErrorsAreTheOpeningsErrors() throws {
        let dir = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.keyProvider = { .passphrase("provided passphrase") }
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: configuration)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1)") }
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT x FROM t") } == 1)
        try dbPool.close()
        #expect(try DatabaseFile.isEncrypted(atPath: dir.path("db.sqlite")))
        #expect(!String(describing: configuration).contains("provided passphrase"))

        struct VaultDown: Error {}
        var failing = Configuration()
        failing.keyProvider = { throw VaultDown() }
        #expect(throws: VaultDown.self) { try DatabaseQueue(path: dir.path("db.sqlite"), configuration: failing) }
        var wrong = Configuration()
        wrong.keyProvider = { .passphrase("wrong passphrase") }
        let error = #expect(throws: DatabaseError.self) { try DatabaseQueue(path: dir.path("db.sqlite"), configuration: wrong) }
        #expect(error?.resultCode == .SQLITE_NOTADB)
    }

    @Test func noKeyIsLeftInWritableMemoryOnceAProviderKeyedPoolIsClosed() throws {
        let found = try keysInMemoryAfterAProviderKeyedPool(keepsPool: false)
        #expect(found.isEmpty, "found in writable memory: \(found)")
    }

    @Test func aClosedPoolThatStaysReferencedKeepsNoKey() throws {
        let found = try keysInMemoryAfterAProviderKeyedPool(keepsPool: true)
        #expect(found.isEmpty, "found in writable memory while the closed pool is referenced: \(found)")
    }

    /// Uses and closes a pool keyed by a provider, released or still
    /// referenced, then scans writable memory for its passphrase and the
    /// key the pool derived (computed again here, and kept masked).
    private func keysInMemoryAfterAProviderKeyedPool(keepsPool: Bool) throws -> [String] {
        let dir = try TemporaryDirectory()
        let path = dir.path("db.sqlite")
        var generator = SystemRandomNumberGenerator()
        var clearPassphrase = (0..<24).map { _ in UInt8.random(in: 0x21...0x7E, using: &generator) }
        let passphrase = MaskedBytes(maskingAndZeroing: &clearPassphrase)
        var settings = CipherSettings()
        settings.kdfIterations = 4_000
        var closedPool: DatabasePool? = try useProviderKeyedPool(at: path, passphrase: passphrase, settings: settings)
        if !keepsPool { closedPool = nil }
        let salt = try #require(KeyDerivation.salt(ofDatabaseAt: path))
        let (derivedKey, derivedKeyHex) = try maskedDerivedKey(passphrase: passphrase, salt: salt, settings: settings)
        let found = try scanWritableMemory(for: [
            ("passphrase", passphrase), ("derived key", derivedKey), ("derived key in hex", derivedKeyHex),
        ])
        withExtendedLifetime(closedPool) {}
        return found
    }

    @Test func theScanFindsAKeyThatIsStillInMemory() throws {
        var generator = SystemRandomNumberGenerator()
        var clear = (0..<24).map { _ in UInt8.random(in: 0x21...0x7E, using: &generator) }
        let kept = clear.withUnsafeBytes { KeyMaterial(copying: $0) }
        let needle = MaskedBytes(maskingAndZeroing: &clear)
        let found = try scanWritableMemory(for: [("kept", needle)])
        withExtendedLifetime(kept) {}
        #expect(found == ["kept"], "the scan misses what it looks for")
    }

    /// Opens, uses and closes a pool keyed by a provider that gives the
    /// passphrase as bytes and zeroes its own copies.
    private func useProviderKeyedPool(at path: String, passphrase: MaskedBytes, settings: CipherSettings) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.cipherSettings = settings
        configuration.keyProvider = {
            var bytes = passphrase.unmasked()
            defer { bytes.withUnsafeMutableBytes { secureZero($0) } }
            var data = Data(bytes)
            defer { data.withUnsafeMutableBytes { secureZero($0) } }
            return .passphrase(data)
        }
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE t (x INTEGER)")
            for x in 0..<100 { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [x]) }
        }
        // Several readers, each keyed with the derived key.
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            _ = try? dbPool.read { db in try Int.fetchOne(db, sql: "SELECT SUM(x) FROM t") }
        }
        try dbPool.close()
        return dbPool
    }

    /// The derived key in binary and in hex, masked.
    private func maskedDerivedKey(
        passphrase: MaskedBytes, salt: [UInt8], settings: CipherSettings
    ) throws -> (MaskedBytes, MaskedBytes) {
        var clear = passphrase.unmasked()
        let material = clear.withUnsafeBytes { KeyMaterial(copying: $0) }
        clear.withUnsafeMutableBytes { secureZero($0) }
        let specification = try #require(KeyDerivation.rawKeySpecification(passphrase: material, salt: salt, settings: settings))
        // x'<64 hex digits of the key><32 of the salt>'
        var hex = Array(specification.bytes[2..<66])
        var binary = stride(from: 0, to: hex.count, by: 2).map { index -> UInt8 in
            func value(_ digit: UInt8) -> UInt8 { digit <= UInt8(ascii: "9") ? digit - UInt8(ascii: "0") : (digit | 0x20) - UInt8(ascii: "a") + 10 }
            return value(hex[index]) << 4 | value(hex[index + 1])
        }
        return (MaskedBytes(maskingAndZeroing: &binary), MaskedBytes(maskingAndZeroing: &hex))
    }

    /// `count` bytes of the process's memory at `address`, nil if any of
    /// them cannot be read.
    private static func read(_ memory: FileHandle, at address: UInt64, count: Int) -> Data? {
        guard (try? memory.seek(toOffset: address)) != nil,
              let data = try? memory.read(upToCount: count), data.count == count
        else { return nil }
        return data
    }

    /// The names of the needles found in the writable mappings of the process.
    private func scanWritableMemory(for needles: [(String, MaskedBytes)]) throws -> [String] {
        // Read to its end: a /proc file reports no size, and a reader that
        // trusts the size stops early (after the first mappings).
        let mapsHandle = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        let maps = String(decoding: try mapsHandle.readToEnd() ?? Data(), as: UTF8.self)
        try mapsHandle.close()
        let memory = try #require(FileHandle(forReadingAtPath: "/proc/self/mem"))
        defer { try? memory.close() }
        var found: Set<String> = []
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, fields[1].hasPrefix("rw"), !line.hasSuffix("[vvar]"), !line.hasSuffix("[vsyscall]") else {
                continue
            }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt64(bounds[0], radix: 16), let end = UInt64(bounds[1], radix: 16) else {
                continue
            }
            // Huge mappings are reservations (of the allocator, of thread
            // stacks), not heap in use: they are skipped. A chunk that cannot
            // be read (a mapping changed by another thread) is skipped, and
            // the rest of its region still scanned.
            guard end - start <= 512 << 20 else { continue }
            var offset = start
            while offset < end {
                let length = Int(min(end - offset, 1 << 20))
                let chunk = Self.read(memory, at: offset, count: length)
                guard let chunk else {
                    offset += UInt64(length)
                    continue
                }
                chunk.withUnsafeBytes { bytes in
                    for (name, needle) in needles where !found.contains(name) {
                        let first = needle.masked[0] ^ MaskedBytes.maskByte(0)
                        var index = 0
                        while index < bytes.count {
                            guard let pointer = memchr(bytes.baseAddress! + index, Int32(first), bytes.count - index) else { break }
                            let hit = UnsafeRawPointer(pointer) - bytes.baseAddress!
                            if needle.matches(bytes, at: hit) {
                                found.insert(name)
                                break
                            }
                            index = hit + 1
                        }
                    }
                }
                if offset + UInt64(chunk.count) >= end { break }
                // A needle split across two chunks: overlap them.
                offset += UInt64(max(chunk.count - 64, 1))
            }
        }
        return found.sorted()
    }
}
