import CLibCrypto
import Foundation

/// The cryptography of replicas, from OpenSSL's libcrypto: the key that
/// authenticates a replica's metadata, HMAC-SHA-256 and SHA-256. Nothing
/// here encrypts: the pages a replica holds are SQLCipher's ciphertext.
enum ReplicaCrypto {
    static let macLength = 32

    /// The key that authenticates the metadata of a replica, derived from
    /// the database key with PBKDF2-HMAC-SHA-512 and the replica's salt.
    /// A passphrase gets SQLCipher's default work; a raw key, already
    /// random, one iteration.
    static func metadataKey(for key: DatabaseKey, salt: [UInt8], iterations: Int) throws -> [UInt8] {
        var derived = [UInt8](repeating: 0, count: 32)
        let material = key.material.bytes
        let label = Array("GRDBCipher replica metadata".utf8)
        let saltAndLabel = label + salt
        let done = material.withMemoryRebound(to: CChar.self) { passphrase in
            PKCS5_PBKDF2_HMAC(
                passphrase.baseAddress, CInt(passphrase.count), saltAndLabel, CInt(saltAndLabel.count),
                CInt(iterations), EVP_sha512(), CInt(derived.count), &derived)
        }
        guard done == 1 else { throw ReplicaError.crypto("key derivation failed") }
        return derived
    }

    /// The iterations of ``metadataKey(for:salt:iterations:)`` for a key.
    static func iterations(for key: DatabaseKey) -> Int {
        key.isRawKey ? 1 : 256_000
    }

    /// HMAC-SHA-256 of `data` under `key`.
    static func mac(_ data: some ContiguousBytes, key: [UInt8]) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: macLength)
        var length = 0
        let done = data.withUnsafeBytes { bytes in
            key.withUnsafeBytes { keyBytes in
                EVP_Q_mac(
                    nil, "HMAC", nil, "SHA256", nil, keyBytes.baseAddress, keyBytes.count,
                    bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &output, output.count, &length)
            }
        }
        guard done != nil, length == macLength else { throw ReplicaError.crypto("HMAC-SHA-256 failed") }
        return output
    }

    /// Random bytes from the system's CSPRNG (through OpenSSL).
    static func randomBytes(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, CInt(count)) == 1 else {
            throw ReplicaError.crypto("the system's random number generator failed")
        }
        return bytes
    }

    /// Compares two MACs in constant time.
    static func isEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}

/// SHA-256, fed in pieces (a snapshot is hashed as it is copied).
struct SHA256Digest: ~Copyable {
    private let context: OpaquePointer

    init() throws {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            throw ReplicaError.crypto("SHA-256 failed")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        _ = EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
    }

    consuming func finish() throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length: CUnsignedInt = 0
        guard EVP_DigestFinal_ex(context, &output, &length) == 1 else { throw ReplicaError.crypto("SHA-256 failed") }
        return output
    }

    static func hash(_ data: some ContiguousBytes) throws -> [UInt8] {
        var digest = try SHA256Digest()
        data.withUnsafeBytes { digest.update($0) }
        return try digest.finish()
    }
}

extension Array where Element == UInt8 {
    /// The bytes in lowercase hexadecimal.
    var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(count * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of a hexadecimal string, or nil if it is not one.
    init?(hexString: String) {
        let utf8 = Array(hexString.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self = bytes
    }
}
