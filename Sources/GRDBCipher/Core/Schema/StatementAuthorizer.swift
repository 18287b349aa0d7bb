import CSQLCipher
import Foundation

/// What SQLite's authorizer tells about a statement while it compiles,
/// which the statement keeps for when it runs.
struct StatementSchemaEffects: OptionSet, Sendable {
    let rawValue: UInt8

    /// The statement creates, alters or drops a table, index, view,
    /// trigger or virtual table, or attaches or detaches a database.
    static let changesSchema = StatementSchemaEffects(rawValue: 1 << 0)

    /// The statement rolls back a transaction or a savepoint, which undoes
    /// the schema changes made since.
    static let rollsBack = StatementSchemaEffects(rawValue: 1 << 1)

    /// The statement commits, or releases a savepoint, which commits when
    /// it is the outermost one.
    static let commits = StatementSchemaEffects(rawValue: 1 << 2)

    /// The statement begins a savepoint (the connection keeps the stack of
    /// savepoints for transaction observers).
    static let beginsSavepoint = StatementSchemaEffects(rawValue: 1 << 3)
}

/// What a transaction or savepoint statement does.
enum StatementTransactionEffect: Equatable, Sendable {
    case beginTransaction
    case commitTransaction
    case rollbackTransaction
    case beginSavepoint(String)
    case releaseSavepoint(String)
    case rollbackSavepoint(String)
}

/// What the authorizer tells about every compiled statement, at little
/// cost: only rare actions record something.
struct StatementCompilationFacts: Sendable {
    /// The transaction or savepoint effect, if any.
    var transactionEffect: StatementTransactionEffect?
    /// Whether the statement is a pragma: SQLCipher runs some pragmas
    /// (`key`, `rekey`, cipher settings) while compiling them, so such a
    /// statement is never compiled a second time.
    var isPragma = false
    /// Whether the statement may delete rows: observers change how it
    /// compiles (no truncate optimization).
    var deletesRows = false
}

/// The tables and columns a statement reads, and the changes it may make
/// (its own, its triggers' and its foreign-key actions'). Recorded only
/// when asked for (see ``StatementAuthorizer/recordsAccesses``).
struct StatementAccesses {
    var selectedRegion = DatabaseRegion()
    var eventKinds: [DatabaseEventKind] = []

    mutating func insertUpdate(table: String, column: String) {
        for index in eventKinds.indices {
            if case .update(let tableName, var columnNames) = eventKinds[index], tableName == table {
                columnNames.insert(column)
                eventKinds[index] = .update(tableName: table, columnNames: columnNames)
                return
            }
        }
        eventKinds.append(.update(tableName: table, columnNames: [column]))
    }
}

/// The authorizer of one connection (`sqlite3_set_authorizer`). It allows
/// every action, and records what the statement being compiled does to the
/// schema, so that the connection can forget its schema cache when such a
/// statement runs.
///
/// When ``recordsAccesses`` is on (while transaction observers or a region
/// recording exist, or to compute a statement's accesses), it also
/// records what the statement reads and writes. While observers watch
/// deletions, it turns off SQLite's truncate optimization so that every
/// deleted row is reported.
///
/// SQLite allows one authorizer per connection: a feature that needs to
/// know more about compiled statements extends this one.
final class StatementAuthorizer {
    /// The effects seen since the last ``takeEffects()``.
    private var effects: StatementSchemaEffects = []
    private var facts = StatementCompilationFacts()
    /// Whether the statement compiled drops something: its deletions are
    /// the schema's, not rows to report.
    private var isDropping = false
    /// Whether reads and writes are recorded into ``accesses``.
    var recordsAccesses = false
    private var accesses = StatementAccesses()
    /// Asked whether deletions in a table are observed, while observers exist.
    weak var deletionObserver: (any StatementDeletionObserver)?

    /// Returns the effects of the statement just compiled, and forgets them.
    @inline(__always)
    func takeEffects() -> StatementSchemaEffects {
        let taken = effects
        effects = []
        return taken
    }

    /// Returns the facts of the statement just compiled, and forgets them.
    @inline(__always)
    func takeFacts() -> StatementCompilationFacts {
        let taken = facts
        facts = StatementCompilationFacts()
        isDropping = false
        return taken
    }

    /// Forgets what was recorded since the last statement was made: SQLite
    /// also compiles when it prepares a statement again after a schema
    /// change, or runs SQL of its own (`sqlcipher_export`).
    @inline(__always)
    func willCompile() {
        if recordsAccesses { accesses = StatementAccesses() }
        if isDropping || facts.transactionEffect != nil || facts.isPragma || facts.deletesRows {
            facts = StatementCompilationFacts()
            isDropping = false
        }
    }

    /// Returns the accesses recorded since the last call, and forgets them.
    func takeAccesses() -> StatementAccesses {
        let taken = accesses
        accesses = StatementAccesses()
        return taken
    }

    /// Installs the authorizer on `handle`. The connection must keep this
    /// object alive as long as `handle` is open.
    func install(on handle: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_set_authorizer(handle, { context, action, argument1, argument2, _, _ in
            // Called for every column a statement reads: leave at once
            // for all actions that record nothing.
            switch action {
            case SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE,
                SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
                SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE,
                SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW,
                SQLITE_ALTER_TABLE, SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE, SQLITE_ATTACH, SQLITE_DETACH:
                let authorizer = Unmanaged<StatementAuthorizer>.fromOpaque(context!).takeUnretainedValue()
                authorizer.effects.insert(.changesSchema)
                switch action {
                case SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE,
                    SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW,
                    SQLITE_DROP_VTABLE:
                    authorizer.isDropping = true
                default:
                    break
                }
            case SQLITE_TRANSACTION, SQLITE_SAVEPOINT:
                // The first argument is the operation: BEGIN, COMMIT,
                // RELEASE or ROLLBACK; the second one the savepoint name.
                guard let argument1 else { break }
                let authorizer = Unmanaged<StatementAuthorizer>.fromOpaque(context!).takeUnretainedValue()
                authorizer.recordTransaction(isSavepoint: action == SQLITE_SAVEPOINT, argument1, argument2)
            case SQLITE_PRAGMA:
                let authorizer = Unmanaged<StatementAuthorizer>.fromOpaque(context!).takeUnretainedValue()
                authorizer.facts.isPragma = true
            case SQLITE_DELETE:
                let authorizer = Unmanaged<StatementAuthorizer>.fromOpaque(context!).takeUnretainedValue()
                return authorizer.authorizeDeletion(argument1)
            case SQLITE_READ, SQLITE_INSERT, SQLITE_UPDATE:
                let authorizer = Unmanaged<StatementAuthorizer>.fromOpaque(context!).takeUnretainedValue()
                if authorizer.recordsAccesses {
                    authorizer.recordAccess(action, argument1, argument2)
                }
            default:
                break
            }
            return SQLITE_OK
        }, context)
    }

    private func recordTransaction(isSavepoint: Bool, _ operation: UnsafePointer<CChar>, _ name: UnsafePointer<CChar>?) {
        if strcasecmp(operation, "ROLLBACK") == 0 {
            effects.insert(.rollsBack)
            if isSavepoint {
                facts.transactionEffect = name.map { .rollbackSavepoint(String(cString: $0)) }
            } else {
                facts.transactionEffect = .rollbackTransaction
            }
        } else if strcasecmp(operation, "COMMIT") == 0 {
            effects.insert(.commits)
            facts.transactionEffect = .commitTransaction
        } else if strcasecmp(operation, "RELEASE") == 0 {
            effects.insert(.commits)
            facts.transactionEffect = name.map { .releaseSavepoint(String(cString: $0)) }
        } else if strcasecmp(operation, "BEGIN") == 0 {
            if isSavepoint {
                effects.insert(.beginsSavepoint)
                facts.transactionEffect = name.map { .beginSavepoint(String(cString: $0)) }
            } else {
                facts.transactionEffect = .beginTransaction
            }
        }
    }

    private func authorizeDeletion(_ table: UnsafePointer<CChar>?) -> CInt {
        // Deleting from the schema tables is how DROP works: neither an
        // event nor a truncation.
        guard !isDropping, let table, strncmp(table, "sqlite_", 7) != 0 else { return SQLITE_OK }
        facts.deletesRows = true
        guard recordsAccesses || deletionObserver != nil else { return SQLITE_OK }
        let tableName = String(cString: table)
        if recordsAccesses {
            accesses.eventKinds.append(.delete(tableName: tableName))
        }
        if let deletionObserver, deletionObserver.observesDeletions(in: tableName) {
            // The deletion runs row by row, and each row is reported.
            return SQLITE_IGNORE
        }
        return SQLITE_OK
    }

    private func recordAccess(_ action: CInt, _ argument1: UnsafePointer<CChar>?, _ argument2: UnsafePointer<CChar>?) {
        guard let argument1 else { return }
        let table = String(cString: argument1)
        switch action {
        case SQLITE_READ:
            guard let argument2 else { return }
            if argument2.pointee == 0 {
                // No column: `SELECT COUNT(*) FROM t` depends on every row.
                accesses.selectedRegion.formUnion(DatabaseRegion(table: table))
            } else {
                accesses.selectedRegion.formUnion(DatabaseRegion(table: table, columns: [String(cString: argument2)]))
            }
        case SQLITE_INSERT:
            accesses.eventKinds.append(.insert(tableName: table))
        case SQLITE_UPDATE:
            guard let argument2 else { return }
            accesses.insertUpdate(table: table, column: String(cString: argument2))
        default:
            break
        }
    }
}

/// What the authorizer asks, while a DELETE compiles, of the layer that
/// observes changes: whether it wants the deletions of a table row by row
/// (which turns off SQLite's truncate optimization). Core knows nothing of
/// that layer but this protocol.
protocol StatementDeletionObserver: AnyObject {
    /// Whether an observer wants the deletions in `table`.
    func observesDeletions(in table: String) -> Bool
}
