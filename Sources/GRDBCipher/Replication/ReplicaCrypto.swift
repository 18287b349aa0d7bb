import CLibCrypto
import Foundation

/// The cryptography of replicas, from OpenSSL's libcrypto: the key that
/// authenticates a replica's metadata, HMAC-SHA-256 and SHA-256. Nothing
/// here encrypts: the pages a replica holds are SQLCipher's ciphertext.
package enum ReplicaCrypto {
    package static let macLength = 32

    /// The key that authenticates the metadata of a generation, derived
    /// from the database key with PBKDF2-HMAC-SHA-512 and the replica's
    /// salt. A passphrase gets SQLCipher's default work; a raw key, already
    /// random, one iteration, and only its key bytes count (not the salt
    /// that SQLCipher's notation may carry, nor the case of its digits).
    static func metadataKey(for key: KeyMaterial, salt: [UInt8]) throws -> [UInt8] {
        var derived = [UInt8](repeating: 0, count: 32)
        let isRawKey = key.isRawKeySpecification
        let material: [UInt8] = isRawKey
            ? key.bytes[2..<66].map { $0 >= UInt8(ascii: "A") ? $0 | 0x20 : $0 } : Array(key.bytes)
        let saltAndLabel = Array("GRDBCipher replica metadata".utf8) + salt
        let done = material.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { passphrase in
                PKCS5_PBKDF2_HMAC(
                    passphrase.baseAddress, CInt(passphrase.count), saltAndLabel, CInt(saltAndLabel.count),
                    CInt(isRawKey ? 1 : 256_000), EVP_sha512(), CInt(derived.count), &derived)
            }
        }
        guard done == 1 else { throw ReplicaError.crypto("key derivation failed") }
        return derived
    }

    /// Whether two database keys are one key for a replica: the same
    /// passphrase, or raw keys with the same key bytes.
    static func isSameKey(_ lhs: KeyMaterial, _ rhs: KeyMaterial) -> Bool {
        guard lhs.isRawKeySpecification, rhs.isRawKeySpecification else { return lhs.hasSameBytes(as: rhs) }
        return zip(lhs.bytes[2..<66], rhs.bytes[2..<66]).allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }

    /// What tells a metadata key from another without revealing it: 16 hex
    /// digits of an HMAC of a constant.
    static func keyCheck(_ metadataKey: [UInt8]) throws -> String {
        String(try mac(Array("GRDBCipher replica key check".utf8), key: metadataKey).hexString.prefix(16))
    }

    /// HMAC-SHA-256 of `data` under `key`.
    package static func mac(_ data: some ContiguousBytes, key: [UInt8]) throws -> [UInt8] {
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
package struct SHA256Digest: ~Copyable {
    private let context: OpaquePointer

    package init() throws {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            throw ReplicaError.crypto("SHA-256 failed")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        _ = EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
    }

    package consuming func finish() throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length: CUnsignedInt = 0
        guard EVP_DigestFinal_ex(context, &output, &length) == 1 else { throw ReplicaError.crypto("SHA-256 failed") }
        return output
    }

    package static func hash(_ data: some ContiguousBytes) throws -> [UInt8] {
        var digest = try SHA256Digest()
        data.withUnsafeBytes { digest.update($0) }
        return try digest.finish()
    }
}
