import GRDBCipher

/// Opening the encrypted pool and migrating it at boot.
public enum TodoDatabase {
    /// The schema's history: each step runs once, in order, before the
    /// application serves its first request.
    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createTodo") { db in
            try db.create(table: "todo") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
                t.column("completed", .boolean).notNull().defaults(to: false)
            }
        }
        return migrator
    }

    /// The pool's configuration: the passphrase, and a busy timeout for the
    /// writer, which otherwise fails at once with `SQLITE_BUSY` when another
    /// connection to the file holds a lock.
    static func configuration(passphrase: String) -> GRDBCipher.Configuration {
        var config = GRDBCipher.Configuration()
        config.passphrase = passphrase
        config.busyMode = .timeout(5)
        return config
    }

    /// Opens the pool at `settings.databasePath` and runs the migrations.
    ///
    /// A wrong passphrase fails at the open, before anything is written to
    /// the file (no WAL, no migration).
    ///
    /// - throws: ``BootError/database(path:_:)``: `SQLITE_NOTADB` when the
    ///   file does not open with the passphrase.
    public static func open(_ settings: BootSettings) throws -> DatabasePool {
        let path = settings.databasePath
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration(passphrase: settings.passphrase))
        } catch let error as DatabaseError {
            throw BootError.database(path: path, error)
        }
        do {
            try migrator.migrate(pool)
        } catch let error as DatabaseError {
            try? pool.close()
            throw BootError.database(path: path, error)
        } catch {
            try? pool.close()
            throw error
        }
        return pool
    }
}
