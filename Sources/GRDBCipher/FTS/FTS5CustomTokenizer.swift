import CSQLCipher

/// A tokenizer of your own, written against FTS5's C interface: register
/// it with ``Database/add(tokenizer:)``, then name it in a table's
/// definition.
///
/// ```swift
/// final class MyTokenizer: FTS5CustomTokenizer {
///     static let name = "my_tokenizer"
///     init(db: Database, arguments: [String]) throws { ... }
///     func tokenize(context:tokenization:pText:nText:tokenCallback:) -> CInt { ... }
/// }
///
/// config.prepareDatabase { db in db.add(tokenizer: MyTokenizer.self) }
/// try db.create(virtualTable: "document", using: FTS5()) { t in
///     t.tokenizer = MyTokenizer.tokenizerDescriptor()
///     t.column("content")
/// }
/// ```
///
/// Most tokenizers are easier to write as an ``FTS5WrapperTokenizer``.
public protocol FTS5CustomTokenizer: FTS5Tokenizer {
    /// The name SQLite knows the tokenizer by. Not one of SQLite's own
    /// (`ascii`, `porter`, `unicode61`, `trigram`).
    static var name: String { get }

    /// A tokenizer for a table whose `tokenize` option gives these
    /// arguments after the name. SQLite creates tokenizers when it needs
    /// them.
    ///
    /// - throws: An error if the arguments are wrong: the statement that
    ///   needed the tokenizer fails.
    init(db: Database, arguments: [String]) throws
}

extension FTS5CustomTokenizer {
    /// The descriptor of this tokenizer with arguments, for
    /// ``FTS5TableDefinition/tokenizer``: `tokenize='name arg1 arg2'`.
    public static func tokenizerDescriptor(arguments: [String] = []) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: [name] + arguments)
    }
}

extension Database {
    /// Registers a custom tokenizer on this connection, under its name.
    /// Register it in ``Configuration/prepareDatabase(_:)`` so that every
    /// connection of a pool knows it.
    ///
    /// ```swift
    /// config.prepareDatabase { db in db.add(tokenizer: MyTokenizer.self) }
    /// ```
    public func add<Tokenizer: FTS5CustomTokenizer>(tokenizer: Tokenizer.Type) {
        let api = FTS5.api(self)
        let factory = FTS5TokenizerFactory(db: self) { db, arguments in
            try Tokenizer(db: db, arguments: arguments)
        }
        var methods = fts5_tokenizer()
        methods.xCreate = { userData, argv, argc, instanceOut in
            guard let userData, let instanceOut else { return SQLITE_ERROR }
            let factory = Unmanaged<FTS5TokenizerFactory>.fromOpaque(userData).takeUnretainedValue()
            var arguments: [String] = []
            if let argv {
                for index in 0..<Int(argc) {
                    if let argument = argv[index] { arguments.append(String(cString: argument)) }
                }
            }
            do {
                let instance = FTS5TokenizerInstance(try factory.make(arguments))
                instanceOut.pointee = OpaquePointer(Unmanaged.passRetained(instance).toOpaque())
                return SQLITE_OK
            } catch let error as DatabaseError {
                return error.extendedResultCode.rawValue
            } catch {
                return SQLITE_ERROR
            }
        }
        methods.xDelete = { instance in
            guard let instance else { return }
            Unmanaged<FTS5TokenizerInstance>.fromOpaque(UnsafeRawPointer(instance)).release()
        }
        methods.xTokenize = { instance, context, flags, text, length, tokenCallback in
            guard let instance, let tokenCallback else { return SQLITE_ERROR }
            let tokenizer = Unmanaged<FTS5TokenizerInstance>.fromOpaque(UnsafeRawPointer(instance))
                .takeUnretainedValue().tokenizer
            return tokenizer.tokenize(
                context: context, tokenization: FTS5Tokenization(rawValue: flags),
                pText: text, nText: length, tokenCallback: tokenCallback)
        }
        // SQLite keeps the factory until the connection closes (xDestroy),
        // or until a tokenizer of the same name replaces it.
        let userData = Unmanaged.passRetained(factory).toOpaque()
        let code = api.pointee.xCreateTokenizer(
            UnsafeMutablePointer(mutating: api), Tokenizer.name, userData, &methods,
            { userData in
                guard let userData else { return }
                Unmanaged<FTS5TokenizerFactory>.fromOpaque(userData).release()
            })
        // SQLite fails only out of memory, after it called xDestroy.
        precondition(code == SQLITE_OK, "could not register the FTS5 tokenizer \(Tokenizer.name)")
    }
}

/// What SQLite keeps for a registered tokenizer: how to make instances,
/// and the connection they are made for.
private final class FTS5TokenizerFactory {
    // Unowned: SQLite releases the factory when the connection closes,
    // and only calls it while the connection runs a statement.
    unowned let db: Database
    let make: (Database, [String]) throws -> any FTS5Tokenizer

    init(db: Database, make: @escaping (Database, [String]) throws -> any FTS5Tokenizer) {
        self.db = db
        self.make = make
    }

    func make(_ arguments: [String]) throws -> any FTS5Tokenizer {
        try make(db, arguments)
    }
}

/// A tokenizer instance, as SQLite holds it (`Fts5Tokenizer *`).
private final class FTS5TokenizerInstance {
    let tokenizer: any FTS5Tokenizer

    init(_ tokenizer: any FTS5Tokenizer) {
        self.tokenizer = tokenizer
    }
}
