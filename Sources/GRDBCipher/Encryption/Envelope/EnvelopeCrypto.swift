import CLibCrypto
import Foundation

/// The cryptography of key envelopes, from OpenSSL's libcrypto: random
/// bytes, AES-256-GCM, and scrypt. Every buffer that held key bytes is
/// zeroed before it is freed.
enum EnvelopeCrypto {
    static let keyLength = 32
    static let nonceLength = 12
    static let tagLength = 16

    /// Bytes from the system's CSPRNG (through OpenSSL).
    ///
    /// - throws: A ``DatabaseError`` if OpenSSL has no entropy to give.
    static func randomBytes(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, CInt(count)) == 1 else {
            throw DatabaseEnvelopeError.crypto("the system's random number generator failed")
        }
        return bytes
    }

    /// Encrypts `plaintext` with AES-256-GCM; `authenticated` is bound to it
    /// (a change to it fails the opening). Returns the ciphertext followed by
    /// the 16-byte tag.
    static func seal(
        _ plaintext: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, nonce: [UInt8], authenticated: [UInt8]
    ) throws -> [UInt8] {
        try withContext { context in
            var output = [UInt8](repeating: 0, count: plaintext.count + tagLength)
            var length: CInt = 0
            guard EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil) == 1,
                  EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, CInt(nonce.count), nil) == 1,
                  EVP_EncryptInit_ex(context, nil, nil, key.bindMemory(to: UInt8.self).baseAddress, nonce) == 1,
                  EVP_EncryptUpdate(context, nil, &length, authenticated, CInt(authenticated.count)) == 1,
                  EVP_EncryptUpdate(
                    context, &output, &length, plaintext.bindMemory(to: UInt8.self).baseAddress,
                    CInt(plaintext.count)) == 1
            else { throw DatabaseEnvelopeError.crypto("AES-256-GCM encryption failed") }
            var finalLength: CInt = 0
            let tagged = output.withUnsafeMutableBufferPointer { buffer -> Bool in
                EVP_EncryptFinal_ex(context, buffer.baseAddress! + Int(length), &finalLength) == 1
                    && EVP_CIPHER_CTX_ctrl(
                        context, EVP_CTRL_GCM_GET_TAG, CInt(tagLength), buffer.baseAddress! + plaintext.count) == 1
            }
            guard tagged else { throw DatabaseEnvelopeError.crypto("AES-256-GCM encryption failed") }
            return output
        }
    }

    /// Decrypts what ``seal(_:key:nonce:authenticated:)`` returned into
    /// zeroable memory, or returns nil when the tag does not match: a wrong
    /// key, or a ciphertext or authenticated data that changed.
    static func open(
        _ sealed: [UInt8], key: UnsafeRawBufferPointer, nonce: [UInt8], authenticated: [UInt8]
    ) throws -> KeyMaterial? {
        guard sealed.count > tagLength else { return nil }
        let ciphertextLength = sealed.count - tagLength
        return try withContext { context in
            let output = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: ciphertextLength)
            defer {
                secureZero(UnsafeMutableRawBufferPointer(output))
                output.deallocate()
            }
            var length: CInt = 0
            var tag = Array(sealed[ciphertextLength...])
            guard EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil) == 1,
                  EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, CInt(nonce.count), nil) == 1,
                  EVP_DecryptInit_ex(context, nil, nil, key.bindMemory(to: UInt8.self).baseAddress, nonce) == 1,
                  EVP_DecryptUpdate(context, nil, &length, authenticated, CInt(authenticated.count)) == 1,
                  EVP_DecryptUpdate(context, output.baseAddress, &length, sealed, CInt(ciphertextLength)) == 1,
                  EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, CInt(tagLength), &tag) == 1
            else { throw DatabaseEnvelopeError.crypto("AES-256-GCM decryption failed") }
            var finalLength: CInt = 0
            guard EVP_DecryptFinal_ex(context, output.baseAddress! + Int(length), &finalLength) == 1 else {
                return nil
            }
            return KeyMaterial(copying: UnsafeRawBufferPointer(output))
        }
    }

    /// A 32-byte key derived from a passphrase with scrypt.
    ///
    /// - throws: A ``DatabaseError`` if the parameters are refused (too much
    ///   memory, for instance).
    static func scrypt(_ passphrase: KeyMaterial, salt: [UInt8], parameters: ScryptParameters) throws -> KeyMaterial {
        let output = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: keyLength)
        defer {
            secureZero(UnsafeMutableRawBufferPointer(output))
            output.deallocate()
        }
        try parameters.checkBudget()
        // The memory scrypt needs (128·r·N bytes, plus a margin).
        let maxMemory = UInt64(128) * parameters.blockSize * parameters.cost + 1 << 20
        let status = passphrase.bytes.withMemoryRebound(to: CChar.self) { bytes in
            EVP_PBE_scrypt(
                bytes.baseAddress, passphrase.count, salt, salt.count,
                parameters.cost, parameters.blockSize, parameters.parallelization, maxMemory,
                output.baseAddress, keyLength)
        }
        guard status == 1 else { throw DatabaseEnvelopeError.crypto("scrypt refused its parameters") }
        return KeyMaterial(copying: UnsafeRawBufferPointer(output))
    }

    private static func withContext<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        guard let context = EVP_CIPHER_CTX_new() else {
            throw DatabaseEnvelopeError.crypto("OpenSSL could not allocate a cipher context")
        }
        defer { EVP_CIPHER_CTX_free(context) }
        return try body(context)
    }
}

/// The cost of scrypt for a passphrase key-encryption key: `N` (``cost``),
/// `r` (``blockSize``) and `p` (``parallelization``). The envelope stores
/// them, so that a later open derives the same key.
public struct ScryptParameters: Sendable, Hashable, Codable {
    /// `N`, a power of two: the memory and time grow with it.
    public var cost: UInt64
    /// `r`.
    public var blockSize: UInt64
    /// `p`.
    public var parallelization: UInt64

    /// `N` = 2¹⁷, `r` = 8, `p` = 1: 128 MiB and a few hundred milliseconds,
    /// OWASP's advice for scrypt.
    public static let `default` = ScryptParameters(cost: 1 << 17, blockSize: 8, parallelization: 1)

    /// `N` = 2¹⁰: for tests only, where a derivation must be fast. Never
    /// for a key that protects real data.
    public static let insecureForTestsOnly = ScryptParameters(cost: 1 << 10, blockSize: 8, parallelization: 1)

    public init(cost: UInt64, blockSize: UInt64, parallelization: UInt64) {
        self.cost = cost
        self.blockSize = blockSize
        self.parallelization = parallelization
    }

    /// The most memory a derivation may take: 128·r·N bytes, at most
    /// 256 MiB (twice ``default``).
    public static let maximumMemory: UInt64 = 256 << 20
    /// The most work a derivation may take: N·r·p, at most 2²⁴ (16 times
    /// ``default``, a few seconds).
    public static let maximumWork: UInt64 = 1 << 24

    /// Refuses parameters that are not scrypt's (N a power of two above 1,
    /// r and p above 0) or that cost more than ``maximumMemory`` and
    /// ``maximumWork``. An envelope's parameters are read before anything
    /// authenticates them: an altered envelope must not make an open
    /// allocate gigabytes or derive for minutes.
    ///
    /// - throws: A ``DatabaseEnvelopeError`` (`.malformed`).
    public func checkBudget() throws {
        let (n, r, p) = (cost, blockSize, parallelization)
        guard n > 1, n & (n - 1) == 0, r > 0, p > 0 else {
            throw DatabaseEnvelopeError(.malformed, "invalid scrypt parameters: N must be a power of two above 1, r and p above 0")
        }
        // Each factor is checked first: the products cannot overflow.
        guard n <= Self.maximumMemory, r <= Self.maximumMemory, p <= Self.maximumWork,
              128 * r <= Self.maximumMemory, 128 * r * n <= Self.maximumMemory,
              n * r <= Self.maximumWork, n * r * p <= Self.maximumWork
        else {
            throw DatabaseEnvelopeError(
                .malformed,
                "scrypt parameters N = \(n), r = \(r), p = \(p) exceed this library's budget (128·r·N at most "
                    + "\(Self.maximumMemory >> 20) MiB, N·r·p at most 2^24)")
        }
    }
}
