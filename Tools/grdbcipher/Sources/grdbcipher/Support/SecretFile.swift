import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the first line of a secret file (a passphrase file) into memory
/// that the tool owns, with `read(2)`: every buffer it lets go of is zeroed
/// first, and no other copy is made (Foundation's file reading grows buffers
/// of its own and frees them unzeroed).
enum SecretFile {
    /// The most bytes read before a line break: a passphrase file is small.
    static let maximumSize = 1 << 20

    /// The bytes of the first line of the file at `path` (before `\n` or
    /// `\r\n`), or nil when it cannot be read or has no line break within
    /// ``maximumSize`` bytes. The caller zeroes the result.
    ///
    /// - parameter chunkSize: The first buffer's size (it doubles as needed).
    /// - parameter discarded: Called with each buffer after it was zeroed,
    ///   before it is freed (tests check that it holds zeros only).
    static func firstLine(
        atPath path: String, chunkSize: Int = 4096,
        discarded: ((UnsafeRawBufferPointer) -> Void)? = nil) -> Data?
    {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunkSize, 1), alignment: 1)
        func discard(_ buffer: UnsafeMutableRawBufferPointer) {
            zero(buffer)
            discarded?(UnsafeRawBufferPointer(buffer))
            buffer.deallocate()
        }
        defer { discard(buffer) }
        var count = 0
        var lineEnd: Int?
        while lineEnd == nil {
            if count == buffer.count {
                guard buffer.count < maximumSize else { return nil }
                let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: min(buffer.count * 2, maximumSize), alignment: 1)
                bigger.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                discard(buffer)
                buffer = bigger
            }
            let got = read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            if got < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if got == 0 { break }
            lineEnd = buffer[count..<(count + got)].firstIndex(of: UInt8(ascii: "\n"))
            count += got
        }
        var length = lineEnd ?? count
        if length > 0, buffer[length - 1] == UInt8(ascii: "\r") { length -= 1 }
        return Data(bytes: buffer.baseAddress!, count: length)
    }

    /// Zeroes `buffer` in a way the optimizer keeps.
    private static func zero(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        #if canImport(Darwin)
        _ = memset_s(base, buffer.count, 0, buffer.count)
        #else
        explicit_bzero(base, buffer.count)
        #endif
    }
}
