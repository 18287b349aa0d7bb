#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads SQLite's write-ahead log as bytes, without a connection and
/// without the key: the frame headers are plain (page numbers, commit
/// marks, salts and checksums), the pages are SQLCipher's ciphertext.
///
/// A WAL is a 32-byte header followed by frames, each a 24-byte header and
/// one page. The header's salts change each time the WAL restarts from its
/// beginning; a frame belongs to the current WAL only when its salts are the
/// header's and its checksum continues the running checksum of the frames
/// before it. Frames left from an earlier WAL fail those checks, and so do
/// frames being written: only whole, committed transactions are read.
struct WALFile {
    static let headerSize = 32
    static let frameHeaderSize = 24

    /// The header of a WAL: what identifies its current content.
    struct Header: Equatable, Sendable {
        var bigEndianChecksums: Bool
        var pageSize: Int
        var checkpointSequence: UInt32
        var salt1: UInt32
        var salt2: UInt32
        var checksum: Checksum
    }

    /// The running checksum of a WAL.
    struct Checksum: Equatable, Sendable {
        var s1: UInt32
        var s2: UInt32
    }

    /// Committed frames read from a WAL.
    struct Frames {
        /// The bytes of the frames, headers included: from `start` to `end`.
        var bytes: [UInt8]
        var start: Int
        var end: Int
        /// The running checksum at `end`.
        var checksum: Checksum
        /// The size of the database in pages after the last commit read.
        var databasePageCount: Int
    }

    let path: String

    /// The header, or nil when the WAL is missing, empty or not valid (a WAL
    /// that was never written, or truncated by a checkpoint).
    func header() throws -> Header? {
        guard let bytes = try read(at: 0, count: Self.headerSize), bytes.count == Self.headerSize else { return nil }
        let magic = Self.bigEndianWord(bytes, 0)
        guard magic == 0x377f_0682 || magic == 0x377f_0683 else { return nil }
        let bigEndian = magic == 0x377f_0683
        let pageSize = Int(Self.bigEndianWord(bytes, 8))
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else { return nil }
        let computed = Self.checksum(bytes[0..<24], bigEndian: bigEndian, from: Checksum(s1: 0, s2: 0))
        let stored = Checksum(s1: Self.bigEndianWord(bytes, 24), s2: Self.bigEndianWord(bytes, 28))
        guard computed == stored else { return nil }
        return Header(
            bigEndianChecksums: bigEndian, pageSize: pageSize, checkpointSequence: Self.bigEndianWord(bytes, 12),
            salt1: Self.bigEndianWord(bytes, 16), salt2: Self.bigEndianWord(bytes, 20), checksum: stored)
    }

    /// The committed frames of the WAL described by `header`, from the
    /// frame at `start` (whose running checksum is `checksum`), up to the
    /// last commit frame found within `limit` bytes, or nil when no whole
    /// transaction follows `start`. A transaction larger than `limit` is
    /// read whole.
    func committedFrames(after start: Int, checksum: Checksum, header: Header, limit: Int) throws -> Frames? {
        let frameSize = Self.frameHeaderSize + header.pageSize
        var bytes: [UInt8] = []
        var running = checksum
        var lastCommit: (end: Int, checksum: Checksum, pageCount: Int)?
        var offset = start
        let chunkFrames = max(1, (1 << 20) / frameSize)
        reading: while true {
            guard let chunk = try read(at: offset, count: chunkFrames * frameSize), chunk.count >= frameSize else { break }
            var position = 0
            while position + frameSize <= chunk.count {
                let frame = chunk[position..<(position + frameSize)]
                let base = frame.startIndex
                guard Self.bigEndianWord(chunk, base + 8) == header.salt1,
                      Self.bigEndianWord(chunk, base + 12) == header.salt2
                else { break reading }
                var next = Self.checksum(chunk[base..<(base + 8)], bigEndian: header.bigEndianChecksums, from: running)
                next = Self.checksum(
                    chunk[(base + Self.frameHeaderSize)..<(base + frameSize)], bigEndian: header.bigEndianChecksums,
                    from: next)
                guard next == Checksum(s1: Self.bigEndianWord(chunk, base + 16), s2: Self.bigEndianWord(chunk, base + 20))
                else { break reading }
                running = next
                bytes.append(contentsOf: frame)
                offset += frameSize
                position += frameSize
                let commitSize = Int(Self.bigEndianWord(chunk, base + 4))
                if commitSize != 0 {
                    lastCommit = (offset, running, commitSize)
                    if offset - start >= limit { break reading }
                }
            }
        }
        guard let lastCommit else { return nil }
        bytes.removeLast(bytes.count - (lastCommit.end - start))
        return Frames(
            bytes: bytes, start: start, end: lastCommit.end, checksum: lastCommit.checksum,
            databasePageCount: lastCommit.pageCount)
    }

    /// The running checksum stored in the frame that ends at `end`, or nil
    /// when the WAL is shorter.
    func checksum(ofFrameEndingAt end: Int, pageSize: Int) throws -> Checksum? {
        let frameStart = end - Self.frameHeaderSize - pageSize
        guard frameStart >= Self.headerSize, let bytes = try read(at: frameStart, count: Self.frameHeaderSize),
              bytes.count == Self.frameHeaderSize
        else { return nil }
        return Checksum(s1: Self.bigEndianWord(bytes, 16), s2: Self.bigEndianWord(bytes, 20))
    }

    /// Up to `count` bytes at `offset`, or nil when the file does not exist.
    private func read(at offset: Int, count: Int) throws -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw ReplicaError.store("cannot open the WAL: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var total = 0
        while total < count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + total, count - total, off_t(offset + total))
            }
            if read < 0 {
                if errno == EINTR { continue }
                throw ReplicaError.store("cannot read the WAL: \(String(cString: strerror(errno)))")
            }
            if read == 0 { break }
            total += read
        }
        bytes.removeLast(count - total)
        return bytes
    }

    /// The big-endian 32-bit word at `offset` of `bytes`.
    static func bigEndianWord(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    /// SQLite's WAL checksum of `bytes` (a multiple of 8 bytes), continuing
    /// `from`: 32-bit words in the byte order the magic number names.
    static func checksum(_ bytes: ArraySlice<UInt8>, bigEndian: Bool, from: Checksum) -> Checksum {
        var s1 = from.s1
        var s2 = from.s2
        bytes.withUnsafeBytes { raw in
            let words = raw.count / 4
            var index = 0
            while index + 1 < words {
                var x0 = raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
                var x1 = raw.loadUnaligned(fromByteOffset: index * 4 + 4, as: UInt32.self)
                if bigEndian {
                    x0 = UInt32(bigEndian: x0)
                    x1 = UInt32(bigEndian: x1)
                } else {
                    x0 = UInt32(littleEndian: x0)
                    x1 = UInt32(littleEndian: x1)
                }
                s1 = s1 &+ x0 &+ s2
                s2 = s2 &+ x1 &+ s1
                index += 2
            }
        }
        return Checksum(s1: s1, s2: s2)
    }
}
