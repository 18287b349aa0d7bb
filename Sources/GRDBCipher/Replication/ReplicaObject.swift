import Foundation

/// One object of a replica: a snapshot of the database file, or a segment
/// of WAL frames, followed by its authenticated header.
///
/// An object is its body, then a trailer: the header as JSON, the header's
/// length (4 bytes, big-endian), the HMAC-SHA-256 of the magic and the
/// header under the replica's metadata key, and the magic `GRDBRPL1`. The
/// header binds the body (its length and SHA-256), the object's place in
/// its generation (its index and the MAC of the object before it), and its
/// place in the WAL: a store cannot alter, truncate, reorder or drop an
/// object in the middle of a generation without failing a check at restore.
struct ReplicaObject {
    static let magic = Array("GRDBRPL1".utf8)

    struct Header: Codable, Equatable, Sendable {
        enum Kind: String, Codable, Sendable {
            /// The database file as it was at the end of `walEnd`.
            case snapshot
            /// The WAL frames from `walStart` to `walEnd`: whole transactions.
            case segment
            /// The key envelope of the database (its data key wrapped by the
            /// key-encryption key), as it was at `time`; the WAL fields
            /// repeat the object before it.
            case envelope
        }

        var format = 1
        var generation: String
        var index: Int
        var kind: Kind
        /// When the replicator read the state, in milliseconds since 1970
        /// (UTC): a commit is at most one poll interval older.
        var time: Int64
        var pageSize: Int
        /// The size of the database, in pages, once the object is applied.
        var databasePageCount: Int
        /// The WAL the object comes from: its checkpoint sequence and salts.
        var walSequence: UInt32
        var walSalt1: UInt32
        var walSalt2: UInt32
        var walStart: Int
        var walEnd: Int
        /// The running checksum of the WAL at `walEnd`.
        var walChecksum1: UInt32
        var walChecksum2: UInt32
        /// Whether the replicator restarted the WAL right after this
        /// object: the next object then starts a new WAL, one checkpoint
        /// sequence later.
        var restartsWAL: Bool
        var bodyLength: Int
        var bodySHA256: String
        var previousMAC: String

        var date: Date { Date(timeIntervalSince1970: Double(time) / 1000) }
    }

    var header: Header
    var mac: [UInt8]
    var body: Data

    /// The name of an object in its store: its generation, index, kind and
    /// time, so that a listing plans a restore before reading objects (the
    /// header read with the object must then agree).
    static func name(generation: String, index: Int, kind: Header.Kind, time: Int64) -> String {
        let paddedIndex = String(index).leftPadded(to: 10)
        return "generations/\(generation)/\(paddedIndex)-\(kind.rawValue)-\(time)"
    }

    /// The name of a generation: the time it started (milliseconds, 13
    /// digits, so that names sort by time), random digits, and the check of
    /// its key, so that a listing tells which key each generation needs.
    static func generationName(millis: Int64, random: String, keyCheck: String) -> String {
        String(millis).leftPadded(to: 13) + random + "_" + keyCheck
    }

    /// The key check a generation's name carries, or nil for another name.
    static func keyCheck(ofGeneration generation: String) -> String? {
        let parts = generation.split(separator: "_")
        guard parts.count == 2, parts[1].count == 16 else { return nil }
        return String(parts[1])
    }

    /// The parts of an object name, or nil when it is not one.
    static func parseName(_ name: String) -> (generation: String, index: Int, kind: Header.Kind, time: Int64)? {
        let parts = name.split(separator: "/")
        guard parts.count == 3, parts[0] == "generations" else { return nil }
        let fields = parts[2].split(separator: "-")
        guard fields.count == 3, let index = Int(fields[0]), let kind = Header.Kind(rawValue: String(fields[1])),
              let time = Int64(fields[2])
        else { return nil }
        return (String(parts[1]), index, kind, time)
    }

    /// The bytes of an object: body, header, length, MAC, magic.
    static func encode(header: Header, body: Data, key: [UInt8]) throws -> (data: Data, mac: [UInt8]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let headerBytes = try Array(encoder.encode(header))
        let mac = try ReplicaCrypto.mac(magic + headerBytes, key: key)
        var data = body
        data.append(contentsOf: headerBytes)
        let length = UInt32(headerBytes.count)
        data.append(contentsOf: [UInt8(length >> 24), UInt8((length >> 16) & 0xff), UInt8((length >> 8) & 0xff), UInt8(length & 0xff)])
        data.append(contentsOf: mac)
        data.append(contentsOf: magic)
        return (data, mac)
    }

    /// Reads and authenticates an object.
    ///
    /// - throws: ``ReplicaError/altered(_:)`` when it is not an object, its
    ///   MAC fails, or its body is not the one its header names.
    static func decode(_ data: Data, name: String, key: [UInt8]) throws -> ReplicaObject {
        let trailer = try trailer(of: data, name: name)
        guard ReplicaCrypto.isEqual(try ReplicaCrypto.mac(magic + trailer.headerBytes, key: key), trailer.mac) else {
            throw ReplicaError.altered("\(name) fails its authentication")
        }
        return try checked(data, name: name, headerBytes: trailer.headerBytes, mac: trailer.mac, bodyLength: trailer.bodyLength)
    }

    /// Reads an object without its authentication: only to find the key
    /// that authenticates it (an envelope's body), after which it is
    /// decoded again with ``decode(_:name:key:)``.
    static func decodeUnauthenticated(_ data: Data, name: String) throws -> ReplicaObject {
        let trailer = try trailer(of: data, name: name)
        return try checked(data, name: name, headerBytes: trailer.headerBytes, mac: trailer.mac, bodyLength: trailer.bodyLength)
    }

    /// The header, MAC and body length an object's trailer gives, read
    /// from its end without copying its body (a snapshot is the size of
    /// the database).
    private static func trailer(of data: Data, name: String) throws -> (headerBytes: [UInt8], mac: [UInt8], bodyLength: Int) {
        let trailerSize = 4 + ReplicaCrypto.macLength + magic.count
        let end = data.endIndex
        guard data.count >= trailerSize, Array(data[(end - magic.count)..<end]) == magic else {
            throw ReplicaError.altered("\(name) is not a replica object")
        }
        let macStart = end - magic.count - ReplicaCrypto.macLength
        let lengthStart = macStart - 4
        let length = Int(WALFile.bigEndianWord(Array(data[lengthStart..<macStart]), 0))
        guard length <= lengthStart - data.startIndex else { throw ReplicaError.altered("\(name) is truncated") }
        return (
            Array(data[(lengthStart - length)..<lengthStart]), Array(data[macStart..<(macStart + ReplicaCrypto.macLength)]),
            lengthStart - length - data.startIndex)
    }

    private static func checked(_ data: Data, name: String, headerBytes: [UInt8], mac: [UInt8], bodyLength: Int) throws
        -> ReplicaObject
    {
        guard let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes)) else {
            throw ReplicaError.altered("\(name) has a header that cannot be read")
        }
        let body = data.prefix(bodyLength)
        guard body.count == header.bodyLength, try SHA256Digest.hash(body).hexString == header.bodySHA256 else {
            throw ReplicaError.altered("\(name) has a body its header does not name")
        }
        guard let parsed = parseName(name), parsed.generation == header.generation, parsed.index == header.index,
              parsed.kind == header.kind, parsed.time == header.time
        else { throw ReplicaError.altered("\(name) holds another object (\(header.generation) #\(header.index))") }
        return ReplicaObject(header: header, mac: mac, body: body)
    }
}

/// The root object of a replica: the salt of the derivation of its
/// metadata keys. Each generation's name carries the check of its own key
/// (see `generationName`): a key change starts a generation under the new key.
///
/// The work of the derivation is not stored: a store that lowered it would
/// make the key checks it holds cheap to attack.
struct ReplicaRoot: Codable, Equatable {
    static let name = "replica.json"

    var format = 2
    var salt: String

    var saltBytes: [UInt8] {
        get throws {
            guard let bytes = [UInt8](hexString: salt), bytes.count == 16 else {
                throw ReplicaError.altered("\(Self.name) is not valid")
            }
            return bytes
        }
    }

    /// Reads the root object of a store, or nil when the store is empty.
    static func read(from store: any ReplicaStore) async throws -> ReplicaRoot? {
        guard let data = try await store.read(name) else { return nil }
        guard let root = try? JSONDecoder().decode(ReplicaRoot.self, from: data), root.format == 2 else {
            throw ReplicaError.altered("\(name) is not valid")
        }
        return root
    }

    /// The salt of the replica in `store`, whose root object is created when
    /// the store is empty and `creating` is true.
    ///
    /// - throws: ``ReplicaError/empty`` for an empty store not created.
    static func salt(in store: any ReplicaStore, creating: Bool) async throws -> [UInt8] {
        if let root = try await read(from: store) { return try root.saltBytes }
        guard creating else { throw ReplicaError.empty }
        let salt = try ReplicaCrypto.randomBytes(16)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try await store.write(try encoder.encode(ReplicaRoot(salt: salt.hexString)), to: name)
        // Two replicators that started together keep the salt that stayed.
        return try await read(from: store)?.saltBytes ?? salt
    }
}

extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
