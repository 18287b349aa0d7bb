import Foundation

/// Reads files without opening them in this process.
///
/// Closing any descriptor of a file releases every POSIX lock this process
/// holds on it, SQLite's included: the locks of an open pool on its database
/// and on its `-shm`. Another process (the `sqlcipher` shell of a round trip)
/// could then think it is alone, reset the WAL index or delete the WAL under
/// the pool. So the bytes are read by a child process (`cat`), whose
/// descriptors are its own.
enum FileBytes {
    static func read(_ path: String) throws -> Data {
        let run: ChildProcessRun
        do {
            run = try ChildProcessRun(executable: "/bin/cat", arguments: ["--", path], input: Data())
        } catch {
            throw EncryptionCheck.Failure("cannot read \(path): /bin/cat does not run (\(error))")
        }
        guard run.status == 0 else {
            throw EncryptionCheck.Failure("cannot read \(path): \(String(decoding: run.errors, as: UTF8.self))")
        }
        return run.output
    }
}
