import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Passphrase bytes that are zeroed when the last reference goes away.
///
/// A `String` passphrase cannot be wiped from memory; the library converts it
/// to bytes once and keeps only this buffer.
final class KeyMaterial: @unchecked Sendable, CustomStringConvertible {
    // Safe: the buffer is written once in `init`, read-only afterwards, and
    // wiped in `deinit` when no other reference can read it; `isLocked` is
    // set by `lockInMemory()` before the key is shared (see `KeyContext`).
    private let buffer: UnsafeMutableBufferPointer<UInt8>

    init(_ bytes: [UInt8]) {
        buffer = .allocate(capacity: max(bytes.count, 1))
        _ = buffer.initialize(from: bytes)
        count = bytes.count
    }

    /// Copies the passphrase's UTF-8 bytes straight into the buffer, with no
    /// intermediate array left unzeroed on the heap.
    convenience init(_ passphrase: String) {
        var passphrase = passphrase
        let (buffer, count) = passphrase.withUTF8 { Self.allocateCopy(of: UnsafeRawBufferPointer($0)) }
        self.init(buffer: buffer, count: count)
    }

    /// Copies the bytes straight into the buffer.
    convenience init(_ passphrase: Data) {
        let (buffer, count) = passphrase.withUnsafeBytes { Self.allocateCopy(of: $0) }
        self.init(buffer: buffer, count: count)
    }

    /// Copies the bytes straight into the buffer.
    convenience init(copying bytes: UnsafeRawBufferPointer) {
        let (buffer, count) = Self.allocateCopy(of: bytes)
        self.init(buffer: buffer, count: count)
    }

    private init(buffer: UnsafeMutableBufferPointer<UInt8>, count: Int) {
        self.buffer = buffer
        self.count = count
    }

    private static func allocateCopy(of bytes: UnsafeRawBufferPointer) -> (UnsafeMutableBufferPointer<UInt8>, Int) {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        _ = UnsafeMutableRawBufferPointer(buffer).initializeMemory(as: UInt8.self, from: bytes)
        return (buffer, bytes.count)
    }

    /// SQLCipher's raw key notation, `x'<key hex><salt hex>'`, written
    /// straight into zeroable memory.
    static func rawKeySpecification(key: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer?) -> KeyMaterial {
        let hexCount = 2 * (key.count + (salt?.count ?? 0))
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: hexCount + 3)
        let digits: StaticString = "0123456789abcdef"
        var index = 0
        func append(_ byte: UInt8) {
            buffer[index] = byte
            index += 1
        }
        append(UInt8(ascii: "x"))
        append(UInt8(ascii: "'"))
        for bytes in [key, salt ?? UnsafeRawBufferPointer(start: nil, count: 0)] {
            for byte in bytes {
                append(digits.utf8Start[Int(byte >> 4)])
                append(digits.utf8Start[Int(byte & 0x0F)])
            }
        }
        append(UInt8(ascii: "'"))
        return KeyMaterial(buffer: buffer, count: index)
    }

    /// Whether SQLCipher takes the bytes as a raw key, without derivation,
    /// whatever API delivered them. Its own test: 67 or 99 bytes, `x'` in any
    /// case, 64 or 96 hex digits; the last byte is not checked.
    var isRawKeySpecification: Bool {
        guard count == 67 || count == 99, bytes[0] | 0x20 == UInt8(ascii: "x"),
              bytes[1] == UInt8(ascii: "'") else { return false }
        return bytes[2..<(count - 1)].allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }
    }

    let count: Int

    var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: buffer[0..<count])
    }

    var isEmpty: Bool { count == 0 }

    /// Throws for a key longer than SQLCipher can take: it reads key
    /// lengths as C ints.
    static func checkLength(_ count: Int) throws {
        guard count <= Int(CInt.max) else {
            throw DatabaseError.misuse("the passphrase is too long: at most \(CInt.max) bytes")
        }
    }

    /// Never the bytes.
    var description: String { "<redacted>" }

    /// Set when the buffer is locked in memory (see ``lockInMemory()``).
    private var isLocked = false

    /// Locks the buffer in memory, so that it is never written to swap,
    /// where the system allows it (`mlock` may fail for lack of privilege
    /// or over `RLIMIT_MEMLOCK`: the key then stays in ordinary memory).
    /// For keys kept for a long time, such as a pool's derived key.
    func lockInMemory() {
        guard !isLocked, let base = buffer.baseAddress else { return }
        isLocked = MemoryLocks.lock(UnsafeMutableRawBufferPointer(start: base, count: buffer.count))
    }

    deinit {
        secureZero(UnsafeMutableRawBufferPointer(buffer))
        if isLocked, let base = buffer.baseAddress {
            MemoryLocks.unlock(UnsafeMutableRawBufferPointer(start: base, count: buffer.count))
        }
        buffer.deallocate()
    }
}

/// `mlock(2)` that nests. The system locks whole pages, and does not count:
/// `munlock` of one key would unlock the page of another key that shares
/// it, still in use. This counts the locks of each page in the process, and
/// unlocks a page only when its last lock goes.
///
/// SQLCipher keeps copies of its keys too; it locks them only with
/// `PRAGMA cipher_memory_security = ON` (see ``CipherSettings``).
enum MemoryLocks {
    private static let lockCounts = LockedValue<[UInt: Int]>([:])
    private static let pageSize = UInt(max(sysconf(CInt(_SC_PAGESIZE)), 1))

    private static func pages(of range: UnsafeMutableRawBufferPointer) -> [UInt] {
        guard let base = range.baseAddress, range.count > 0 else { return [] }
        let first = UInt(bitPattern: base) & ~(pageSize - 1)
        let last = (UInt(bitPattern: base) + UInt(range.count) - 1) & ~(pageSize - 1)
        return Array(stride(from: first, through: last, by: Int(pageSize)))
    }

    /// Locks the pages of `range` in memory. Returns false, and locks
    /// nothing, if the system refuses (no privilege, `RLIMIT_MEMLOCK`).
    static func lock(_ range: UnsafeMutableRawBufferPointer) -> Bool {
        let pages = pages(of: range)
        return lockCounts.withLock { counts in
            var lockedNow: [UInt] = []
            for page in pages where counts[page] == nil {
                guard mlock(UnsafeRawPointer(bitPattern: page), Int(pageSize)) == 0 else {
                    for page in lockedNow { munlock(UnsafeRawPointer(bitPattern: page), Int(pageSize)) }
                    return false
                }
                lockedNow.append(page)
                counts[page] = 0
            }
            for page in pages { counts[page, default: 0] += 1 }
            return true
        }
    }

    /// Releases one lock of each page of `range`, locked by ``lock(_:)``.
    static func unlock(_ range: UnsafeMutableRawBufferPointer) {
        let pages = pages(of: range)
        lockCounts.withLock { counts in
            for page in pages {
                guard let count = counts[page] else { continue }
                if count <= 1 {
                    counts[page] = nil
                    munlock(UnsafeRawPointer(bitPattern: page), Int(pageSize))
                } else {
                    counts[page] = count - 1
                }
            }
        }
    }
}

/// Zeroes memory in a way the optimizer may not remove as a dead store.
func secureZero(_ buffer: UnsafeMutableRawBufferPointer) {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return }
    #if canImport(Darwin)
    _ = memset_s(base, buffer.count, 0, buffer.count)
    #else
    explicit_bzero(base, buffer.count)
    #endif
}
