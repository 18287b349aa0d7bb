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
}

/// The authorizer of one connection (`sqlite3_set_authorizer`). It allows
/// every action, and records what the statement being compiled does to the
/// schema, so that the connection can forget its schema cache when such a
/// statement runs.
///
/// SQLite allows one authorizer per connection: a feature that needs to
/// know more about compiled statements extends this one.
final class StatementAuthorizer {
    /// The effects seen since the last ``takeEffects()``.
    private var effects: StatementSchemaEffects = []

    /// Returns the effects of the statement just compiled, and forgets them.
    @inline(__always)
    func takeEffects() -> StatementSchemaEffects {
        let taken = effects
        effects = []
        return taken
    }

    /// Installs the authorizer on `handle`. The connection must keep this
    /// object alive as long as `handle` is open.
    func install(on handle: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_set_authorizer(handle, { context, action, argument1, _, _, _ in
            // Called for every column a statement reads: leave at once
            // for all actions that do not touch the schema.
            switch action {
            case SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE,
                SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
                SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE,
                SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW,
                SQLITE_ALTER_TABLE, SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE, SQLITE_ATTACH, SQLITE_DETACH:
                let authorizer = Unmanaged<StatementAuthorizer>.fromOpaque(context!).takeUnretainedValue()
                authorizer.effects.insert(.changesSchema)
            case SQLITE_TRANSACTION, SQLITE_SAVEPOINT:
                // The first argument is the operation: BEGIN, COMMIT,
                // RELEASE or ROLLBACK.
                guard let argument1 else { break }
                let authorizer = Unmanaged<StatementAuthorizer>.fromOpaque(context!).takeUnretainedValue()
                if strcasecmp(argument1, "ROLLBACK") == 0 {
                    authorizer.effects.insert(.rollsBack)
                } else if strcasecmp(argument1, "COMMIT") == 0 || strcasecmp(argument1, "RELEASE") == 0 {
                    authorizer.effects.insert(.commits)
                }
            default:
                break
            }
            return SQLITE_OK
        }, context)
    }
}
