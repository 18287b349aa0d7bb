import CSQLCipher

/// The function an ``FTS5WrapperTokenizer`` calls for each token it
/// outputs. Let its errors through: they stop the tokenization.
public typealias FTS5WrapperTokenCallback = (_ token: String, _ flags: FTS5TokenFlags) throws -> Void

/// A custom tokenizer that post-processes the tokens of another one: drops
/// stop words, adds synonyms, folds characters.
///
/// ```swift
/// final class StopWords: FTS5WrapperTokenizer {
///     static let name = "stopwords"
///     let wrappedTokenizer: any FTS5Tokenizer
///
///     init(db: Database, arguments: [String]) throws {
///         wrappedTokenizer = try db.makeTokenizer(.unicode61())
///     }
///
///     func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
///                 tokenCallback: FTS5WrapperTokenCallback) throws {
///         if ["a", "the"].contains(token) { return }
///         try tokenCallback(token, flags)
///     }
/// }
/// ```
public protocol FTS5WrapperTokenizer: FTS5CustomTokenizer {
    /// The tokenizer whose tokens are post-processed.
    var wrappedTokenizer: any FTS5Tokenizer { get }

    /// Outputs what a token of the wrapped tokenizer becomes: nothing, the
    /// token, another token, or several (synonyms after the first carry
    /// ``FTS5TokenFlags/colocated``). Pass `flags` on unchanged, but for
    /// `.colocated`.
    ///
    /// - throws: The errors of `tokenCallback`, and your own: both stop the
    ///   tokenization.
    func accept(
        token: String,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback) throws
}

extension FTS5WrapperTokenizer {
    /// Tokenizes with the wrapped tokenizer, and gives each token to
    /// ``accept(token:flags:for:tokenCallback:)``; what it outputs goes to
    /// `tokenCallback` with the offsets of the original token.
    public func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        let relay = FTS5TokenRelay(
            accept: { token, flags, emit in
                try self.accept(token: token, flags: flags, for: tokenization, tokenCallback: emit)
            },
            outerContext: context,
            outerCallback: tokenCallback)
        let code = withExtendedLifetime(relay) {
            wrappedTokenizer.tokenize(
                context: Unmanaged.passUnretained(relay).toOpaque(),
                tokenization: tokenization,
                pText: pText,
                nText: nText,
                tokenCallback: { context, flags, token, length, start, end in
                    guard let context else { return SQLITE_ERROR }
                    let relay = Unmanaged<FTS5TokenRelay>.fromOpaque(context).takeUnretainedValue()
                    return relay.relay(token, length: length, flags: flags, start: start, end: end)
                })
        }
        return code == SQLITE_OK ? relay.failure ?? SQLITE_OK : code
    }
}

/// Carries the tokens of the wrapped tokenizer to `accept`, and what it
/// outputs to SQLite's callback.
private final class FTS5TokenRelay {
    let accept: (String, FTS5TokenFlags, FTS5WrapperTokenCallback) throws -> Void
    let outerContext: UnsafeMutableRawPointer?
    let outerCallback: FTS5TokenCallback
    /// The code that stopped the tokenization, if any.
    var failure: CInt?

    init(
        accept: @escaping (String, FTS5TokenFlags, FTS5WrapperTokenCallback) throws -> Void,
        outerContext: UnsafeMutableRawPointer?,
        outerCallback: @escaping FTS5TokenCallback)
    {
        self.accept = accept
        self.outerContext = outerContext
        self.outerCallback = outerCallback
    }

    func relay(_ token: UnsafePointer<CChar>?, length: CInt, flags: CInt, start: CInt, end: CInt) -> CInt {
        guard let token, length >= 0 else { return SQLITE_OK }
        let bytes = UnsafeRawBufferPointer(start: token, count: Int(length))
        // A token that is not UTF-8 is skipped, as when tokenizing to strings.
        guard let string = String(validating: bytes, as: UTF8.self) else { return SQLITE_OK }
        do {
            try accept(string, FTS5TokenFlags(rawValue: flags)) { output, outputFlags in
                var output = output
                let code = output.withUTF8 { utf8 in
                    utf8.withMemoryRebound(to: CChar.self) { chars in
                        self.outerCallback(self.outerContext, outputFlags.rawValue, chars.baseAddress, CInt(chars.count), start, end)
                    }
                }
                if code != SQLITE_OK { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
            }
            return SQLITE_OK
        } catch let error as DatabaseError {
            failure = error.extendedResultCode.rawValue
        } catch {
            failure = SQLITE_ERROR
        }
        return failure!
    }
}
