#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

/// A TextOutputStream that collects the dump.
final class DumpBuffer: TextOutputStream {
    var text = ""
    func write(_ string: String) { text += string }
}

func dumped(_ body: (DumpBuffer) throws -> Void) rethrows -> String {
    let buffer = DumpBuffer()
    try body(buffer)
    return "\n" + buffer.text
}

let dumpPrograms: [Program] = [
    Program("dump-formats") {
        let dbQueue = try makeQueue(traced: false)
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score REAL, photo BLOB, teamId INTEGER REFERENCES team(id));
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
                CREATE INDEX byName ON player(name);
                CREATE VIEW best AS SELECT * FROM player WHERE score > 10;
                CREATE TRIGGER t AFTER DELETE ON team BEGIN DELETE FROM player WHERE teamId = OLD.id; END;
                INSERT INTO team VALUES (1, 'Reds');
                INSERT INTO player VALUES (1, 'Arthur', 12.5, x'0102', 1), (2, 'O''Brien', NULL, NULL, NULL), (3, 'multi
                line', 1e100, x'', 1), (4, '', -0.0, NULL, NULL);
                """)
        }
        try dbQueue.read { db in
            let sql: SQL = "SELECT * FROM player ORDER BY id"
            step("debug") { try dumped { try db.dumpSQL(sql, to: $0) } }
            step("debug headers") { try dumped { try db.dumpSQL(sql, format: .debug(header: true, separator: ",", nullValue: "NULL"), to: $0) } }
            step("json") { try dumped { try db.dumpSQL(sql, format: .json(), to: $0) } }
            step("json encoder") {
                let encoder = JSONDumpFormat.defaultEncoder
                encoder.outputFormatting = [.sortedKeys]
                return try dumped { try db.dumpSQL(sql, format: .json(encoder: encoder), to: $0) }
            }
            step("line") { try dumped { try db.dumpSQL(sql, format: .line(nullValue: "-"), to: $0) } }
            step("list") { try dumped { try db.dumpSQL(sql, format: .list(header: true, separator: "|", nullValue: "∅"), to: $0) } }
            step("quote") { try dumped { try db.dumpSQL(sql, format: .quote(header: true), to: $0) } }
            step("two statements") { try dumped { try db.dumpSQL("SELECT 1 AS a; SELECT 'x' AS b, NULL AS c", to: $0) } }
            step("no rows") { try dumped { try db.dumpSQL("SELECT * FROM player WHERE 0", format: .debug(header: true), to: $0) } }
            step("request") { try dumped { try db.dumpRequest(Table("player").select(Column("name")).order(Column("id")), to: $0) } }
            step("tables") { try dumped { try db.dumpTables(["team", "player"], to: $0) } }
            step("tables stable") { try dumped { try db.dumpTables(["best"], stableOrder: true, to: $0) } }
            step("schema") { try dumped { try db.dumpSchema(to: $0) } }
            step("content") { try dumped { try db.dumpContent(to: $0) } }
            step("content json") { try dumped { try db.dumpContent(format: .json(), to: $0) } }
            step("missing table") { try dumped { try db.dumpTables(["nope"], to: $0) } }
            step("bad sql") { try dumped { try db.dumpSQL("SELECT nope", to: $0) } }
        }
        step("reader dumpContent") { try dumped { try dbQueue.dumpContent(to: $0) } }
    },
]

// `dumpRequest` of requests that prefetch associations (`including(all:)`): the rows of the
// request, then, for each prefetched association, its key path and the rows of its request,
// and the statements each runs.
let dumpPrefetchPrograms: [Program] = [
    Program("dump-request-prefetch") {
        let dbQueue = try makeAssociationKeyDatabase()
        try dbQueue.read { db in
            let books = KeyAuthor.books.order(Column("id"))
            step("to-many") {
                try dumped { try db.dumpRequest(KeyAuthor.including(all: books).order(Column("id")), to: $0) }
            }
            step("to-many, headers") {
                try dumped {
                    try db.dumpRequest(
                        KeyAuthor.including(all: books).order(Column("id")),
                        format: .debug(header: true), to: $0)
                }
            }
            step("to-many, json") {
                try dumped { try db.dumpRequest(KeyAuthor.including(all: books).order(Column("id")), format: .json(), to: $0) }
            }
            step("to-many, line") {
                try dumped { try db.dumpRequest(KeyAuthor.including(all: books).order(Column("id")), format: .line(), to: $0) }
            }
            step("to-many, list") {
                try dumped {
                    try db.dumpRequest(KeyAuthor.including(all: books).order(Column("id")), format: .list(header: true), to: $0)
                }
            }
            step("to-many, quote") {
                try dumped { try db.dumpRequest(KeyAuthor.including(all: books).order(Column("id")), format: .quote(), to: $0) }
            }
            step("two associations") {
                try dumped {
                    try db.dumpRequest(
                        KeyAuthor
                            .including(all: books)
                            .including(all: KeyAuthor.writings.filter(Column("title") == "A2"))
                            .order(Column("id")),
                        to: $0)
                }
            }
            step("nested") {
                try dumped {
                    try db.dumpRequest(
                        KeyAuthor.including(all: books.including(all: KeyBook.reviews.order(Column("id")))).order(Column("id")),
                        to: $0)
                }
            }
            step("through") {
                try dumped {
                    try db.dumpRequest(KeyAuthor.including(all: KeyAuthor.reviews.order(Column("id"))).order(Column("id")), to: $0)
                }
            }
            step("through two tables") {
                try dumped {
                    try db.dumpRequest(KeyAuthor.including(all: KeyAuthor.reviewers.order(Column("id"))).order(Column("id")), to: $0)
                }
            }
            step("in a joined association") {
                try dumped {
                    try db.dumpRequest(
                        KeyBook.including(required: KeyBook.author.including(all: books)).order(Column("id")),
                        to: $0)
                }
            }
            step("in a joined to-many association") {
                try dumped {
                    try db.dumpRequest(
                        KeyAuthor.including(optional: books.including(all: KeyBook.reviews)).order(Column("id")),
                        to: $0)
                }
            }
            step("no base row") {
                try dumped { try db.dumpRequest(KeyAuthor.filter(Column("id") > 10).including(all: books), to: $0) }
            }
            step("base rows without associated rows") {
                try dumped { try db.dumpRequest(KeyAuthor.filter(Column("id") == 3).including(all: books), to: $0) }
            }
            step("a typed request") {
                try dumped { try db.dumpRequest(KeyAuthor.including(all: books).asRequest(of: Row.self).limit(1), to: $0) }
            }
        }
        step("from the queue") {
            try dumped { try dbQueue.dumpRequest(KeyAuthor.including(all: KeyAuthor.books).filter(Column("id") == 2), to: $0) }
        }
    },
]
