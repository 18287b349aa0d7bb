import Foundation
import Testing
@testable import GRDBCipher

/// Collects what a dump prints.
private final class Collector: TextOutputStream {
    var text = ""

    func write(_ string: String) {
        text += string
    }
}

/// Runs `dump` with a fresh collector and returns what it printed.
private func printed(_ dump: (Collector) throws -> Void) throws -> String {
    let collector = Collector()
    try dump(collector)
    return collector.text
}

/// Where a test database lives: the dump must read both the same way.
enum DumpStorage: String, CaseIterable, CustomTestStringConvertible {
    case encryptedFile
    case inMemory

    var testDescription: String { rawValue }
}

/// A database queue, and the folder of its file, if any, which lives as long
/// as the fixture.
private struct DumpFixture {
    let directory: TemporaryDirectory?
    let dbQueue: DatabaseQueue

    init(_ storage: DumpStorage, sql: String) throws {
        switch storage {
        case .encryptedFile:
            let directory = try TemporaryDirectory()
            self.directory = directory
            dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"), configuration: keyed(dumpPassphrase))
        case .inMemory:
            directory = nil
            dbQueue = try DatabaseQueue()
        }
        if !sql.isEmpty {
            try dbQueue.write { db in try db.execute(sql: sql) }
        }
    }
}

private let dumpPassphrase = "dump-test-passphrase-7f3a"

/// One row per kind of value, in `id` order.
private let valuesSQL = """
    CREATE TABLE item(id INTEGER PRIMARY KEY, label TEXT, value);
    INSERT INTO item VALUES (1, 'null', NULL);
    INSERT INTO item VALUES (2, 'integer', 42);
    INSERT INTO item VALUES (3, 'negative', -7);
    INSERT INTO item VALUES (4, 'max', 9223372036854775807);
    INSERT INTO item VALUES (5, 'min', -9223372036854775808);
    INSERT INTO item VALUES (6, 'real', 3.25);
    INSERT INTO item VALUES (7, 'whole real', -2.0);
    INSERT INTO item VALUES (8, 'text', 'O''Brien says "hi"');
    INSERT INTO item VALUES (9, 'multiline', 'line 1' || char(10) || 'line 2');
    INSERT INTO item VALUES (10, 'unicode', 'café 🙂');
    INSERT INTO item VALUES (11, 'empty text', '');
    INSERT INTO item VALUES (12, 'nul text', 'a' || char(0) || 'b');
    INSERT INTO item VALUES (13, 'utf8 blob', CAST('abc' AS BLOB));
    INSERT INTO item VALUES (14, 'invalid utf8 blob', X'C328');
    INSERT INTO item VALUES (15, 'uuid blob', X'0123456789ABCDEF0123456789ABCDEF');
    INSERT INTO item VALUES (16, 'nul blob', X'610062');
    INSERT INTO item VALUES (17, 'empty blob', X'');
    """

/// Tables of several kinds of primary keys, and a view.
private let librarySQL = """
    CREATE TABLE author(id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL);
    CREATE TABLE book(id INTEGER PRIMARY KEY, authorId TEXT REFERENCES author(id), title TEXT);
    CREATE TABLE note(body TEXT);
    CREATE TABLE tag(book INTEGER, name TEXT, PRIMARY KEY (name, book)) WITHOUT ROWID;
    CREATE TABLE shelf(name TEXT);
    CREATE VIEW bookTitle AS SELECT title FROM book ORDER BY id DESC;
    INSERT INTO author VALUES ('zola', 'Émile Zola');
    INSERT INTO author VALUES ('hugo', 'Victor Hugo');
    INSERT INTO book VALUES (3, 'hugo', 'Les Misérables');
    INSERT INTO book VALUES (1, 'zola', 'Germinal');
    INSERT INTO book VALUES (2, NULL, 'Anonymous');
    INSERT INTO note(rowid, body) VALUES (2, 'second');
    INSERT INTO note(rowid, body) VALUES (1, 'first');
    INSERT INTO tag VALUES (1, 'novel');
    INSERT INTO tag VALUES (3, 'classic');
    INSERT INTO tag VALUES (1, 'classic');
    """

/// Objects of every kind, in mixed case, with internal ones to leave out.
private let schemaSQL = """
    CREATE TABLE zebra(name);
    CREATE TABLE Apple(name);
    CREATE TABLE mango(id INTEGER PRIMARY KEY AUTOINCREMENT, name);
    CREATE INDEX mango_name ON mango(name);
    CREATE INDEX Mango_id_name ON mango(id, name);
    CREATE INDEX grdb_hidden ON mango(name, id);
    CREATE TRIGGER apple_cleanup AFTER DELETE ON Apple BEGIN DELETE FROM zebra; END;
    CREATE VIEW banana AS SELECT name FROM Apple;
    CREATE TABLE grdb_migrations(identifier TEXT NOT NULL PRIMARY KEY);
    CREATE VIRTUAL TABLE search USING fts4(body);
    INSERT INTO grdb_migrations VALUES ('v1');
    INSERT INTO mango(name) VALUES ('ripe');
    INSERT INTO search(body) VALUES ('hello');
    ANALYZE;
    """

private let schemaDump = """
    sqlite_master
    CREATE TABLE Apple(name);
    CREATE TRIGGER apple_cleanup AFTER DELETE ON Apple BEGIN DELETE FROM zebra; END;
    CREATE VIEW banana AS SELECT name FROM Apple;
    CREATE TABLE mango(id INTEGER PRIMARY KEY AUTOINCREMENT, name);
    CREATE INDEX Mango_id_name ON mango(id, name);
    CREATE INDEX mango_name ON mango(name);
    CREATE VIRTUAL TABLE search USING fts4(body);
    CREATE TABLE zebra(name);

    """

@Suite("Dump")
struct DumpTests {
    // MARK: - Formats

    @Test(arguments: DumpStorage.allCases)
    func debugFormatPrintsEachKindOfValue(_ storage: DumpStorage) throws {
        let fixture = try DumpFixture(storage, sql: valuesSQL)
        let output = try printed { try fixture.dbQueue.dumpSQL("SELECT label, value FROM item ORDER BY id", to: $0) }
        #expect(output == """
            null|
            integer|42
            negative|-7
            max|9223372036854775807
            min|-9223372036854775808
            real|3.25
            whole real|-2.0
            text|O'Brien says "hi"
            multiline|line 1
            line 2
            unicode|café 🙂
            empty text|
            nul text|a
            utf8 blob|abc
            invalid utf8 blob|X'C328'
            uuid blob|01234567-89AB-CDEF-0123-456789ABCDEF
            nul blob|a\u{0}b
            empty blob|

            """)
    }

    @Test(arguments: DumpStorage.allCases)
    func listFormatPrintsEachKindOfValue(_ storage: DumpStorage) throws {
        let fixture = try DumpFixture(storage, sql: valuesSQL)
        let output = try printed {
            try fixture.dbQueue.dumpSQL("SELECT label, value FROM item ORDER BY id", format: .list(), to: $0)
        }
        // Text and blobs print as C strings: up to a NUL, invalid UTF-8 repaired.
        #expect(output == """
            null|
            integer|42
            negative|-7
            max|9223372036854775807
            min|-9223372036854775808
            real|3.25
            whole real|-2.0
            text|O'Brien says "hi"
            multiline|line 1
            line 2
            unicode|café 🙂
            empty text|
            nul text|a
            utf8 blob|abc
            invalid utf8 blob|\u{FFFD}(
            uuid blob|\u{1}#Eg\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{1}#Eg\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}
            nul blob|a
            empty blob|

            """)
    }

    @Test(arguments: DumpStorage.allCases)
    func quoteFormatPrintsSQLLiterals(_ storage: DumpStorage) throws {
        let fixture = try DumpFixture(storage, sql: valuesSQL)
        let output = try printed {
            try fixture.dbQueue.dumpSQL("SELECT label, value FROM item ORDER BY id", format: .quote(), to: $0)
        }
        #expect(output == """
            'null',NULL
            'integer',42
            'negative',-7
            'max',9223372036854775807
            'min',-9223372036854775808
            'real',3.25
            'whole real',-2.0
            'text','O''Brien says "hi"'
            'multiline','line 1
            line 2'
            'unicode','café 🙂'
            'empty text',''
            'nul text','a'
            'utf8 blob',X'616263'
            'invalid utf8 blob',X'C328'
            'uuid blob',X'0123456789ABCDEF0123456789ABCDEF'
            'nul blob',X'610062'
            'empty blob',X''

            """)
    }

    @Test(arguments: DumpStorage.allCases)
    func jsonFormatPrintsOneObjectPerLine(_ storage: DumpStorage) throws {
        let fixture = try DumpFixture(storage, sql: valuesSQL)
        let output = try printed {
            try fixture.dbQueue.dumpSQL("SELECT label, value FROM item ORDER BY id", format: .json(), to: $0)
        }
        #expect(output == #"""
            [{"label":"null","value":null},
            {"label":"integer","value":42},
            {"label":"negative","value":-7},
            {"label":"max","value":9223372036854775807},
            {"label":"min","value":-9223372036854775808},
            {"label":"real","value":3.25},
            {"label":"whole real","value":-2},
            {"label":"text","value":"O'Brien says \"hi\""},
            {"label":"multiline","value":"line 1\nline 2"},
            {"label":"unicode","value":"café 🙂"},
            {"label":"empty text","value":""},
            {"label":"nul text","value":"a"},
            {"label":"utf8 blob","value":"YWJj"},
            {"label":"invalid utf8 blob","value":"wyg="},
            {"label":"uuid blob","value":"ASNFZ4mrze8BI0VniavN7w=="},
            {"label":"nul blob","value":"YQBi"},
            {"label":"empty blob","value":""}]

            """#)
    }

    @Test func jsonFormatDoesNotEscapeSlashes() throws {
        let output = try inMemoryDatabase { db throws in
            try printed { try db.dumpSQL("SELECT 'https://example.com/a' AS url", format: .json(), to: $0) }
        }
        #expect(output == #"[{"url":"https://example.com/a"}]"# + "\n")
    }

    @Test func jsonFormatUsesTheGivenEncoder() throws {
        let output = try inMemoryDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE measure(id INTEGER PRIMARY KEY, v REAL);
                INSERT INTO measure VALUES (1, 1.5), (2, 9e999), (3, -9e999);
                """)
            let encoder = JSONDumpFormat.defaultEncoder
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: "+∞", negativeInfinity: "-∞", nan: "?")
            return try printed {
                try db.dumpSQL("SELECT v, id FROM measure ORDER BY id", format: .json(encoder: encoder), to: $0)
            }
        }
        // Keys keep the column order; each value is on its own line.
        #expect(output == """
            [
              {
                "v":1.5,
                "id":1
              },
              {
                "v":"+∞",
                "id":2
              },
              {
                "v":"-∞",
                "id":3
              }
            ]

            """)
    }

    @Test func theDefaultEncoderPrintsInfinitiesAsStrings() throws {
        let output = try inMemoryDatabase { db throws in
            try printed { try db.dumpSQL("SELECT 9e999 AS up, -9e999 AS down", format: .json(), to: $0) }
        }
        #expect(output == #"[{"up":"inf","down":"-inf"}]"# + "\n")
    }

    @Test(arguments: DumpStorage.allCases)
    func lineFormatPrintsOneValuePerLine(_ storage: DumpStorage) throws {
        let fixture = try DumpFixture(storage, sql: valuesSQL)
        let sql: SQL = "SELECT id, label, value FROM item WHERE id IN (1, 2, 9, 14) ORDER BY id"
        let output = try printed { try fixture.dbQueue.dumpSQL(sql, format: .line(), to: $0) }
        #expect(output == [
            "   id = 1",
            "label = null",
            "value = ",
            "",
            "   id = 2",
            "label = integer",
            "value = 42",
            "",
            "   id = 9",
            "label = multiline",
            "value = line 1",
            "line 2",
            "",
            "   id = 14",
            "label = invalid utf8 blob",
            "value = \u{FFFD}(",
            "",
        ].joined(separator: "\n"))
    }

    @Test func lineFormatAlignsNamesByCharacters() throws {
        let output = try inMemoryDatabase { db throws in
            try printed { try db.dumpSQL(#"SELECT 1 AS "é", NULL AS "abc""#, format: .line(nullValue: "NULL"), to: $0) }
        }
        #expect(output == "  é = 1\nabc = NULL\n")
    }

    @Test func headersSeparatorsAndNullValues() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE player(id INTEGER PRIMARY KEY, team TEXT, name TEXT);
                INSERT INTO player VALUES (1, 'red', 'Arthur'), (2, NULL, 'Barbara');
                """)
            let sql: SQL = "SELECT * FROM player ORDER BY id"
            #expect(try printed { try db.dumpSQL(sql, format: .debug(header: true), to: $0) } == """
                id|team|name
                1|red|Arthur
                2||Barbara

                """)
            #expect(try printed { try db.dumpSQL(sql, format: .debug(separator: " ; ", nullValue: "∅"), to: $0) } == """
                1 ; red ; Arthur
                2 ; ∅ ; Barbara

                """)
            #expect(try printed { try db.dumpSQL(sql, format: .list(header: true, separator: "\t"), to: $0) } == """
                id\tteam\tname
                1\tred\tArthur
                2\t\tBarbara

                """)
            #expect(try printed { try db.dumpSQL(sql, format: .list(nullValue: "NULL"), to: $0) } == """
                1|red|Arthur
                2|NULL|Barbara

                """)
            #expect(try printed { try db.dumpSQL(sql, format: .quote(header: true, separator: " "), to: $0) } == """
                'id' 'team' 'name'
                1 'red' 'Arthur'
                2 NULL 'Barbara'

                """)
        }
    }

    @Test func aStatementWithoutRowsPrintsNoHeader() throws {
        try inMemoryDatabase { db throws in
            let sql: SQL = "SELECT 1 AS a WHERE 0"
            #expect(try printed { try db.dumpSQL(sql, format: .debug(header: true), to: $0) } == "")
            #expect(try printed { try db.dumpSQL(sql, format: .list(header: true), to: $0) } == "")
            #expect(try printed { try db.dumpSQL(sql, format: .quote(header: true), to: $0) } == "")
            #expect(try printed { try db.dumpSQL(sql, format: .line(), to: $0) } == "")
            #expect(try printed { try db.dumpSQL(sql, format: .json(), to: $0) } == "[]\n")
        }
    }

    @Test func aStatementWithoutColumnsPrintsNothing() throws {
        try inMemoryDatabase { db throws in
            for (index, format) in [AnyDumpFormat(.debug()), .init(.list()), .init(.quote()), .init(.line()), .init(.json())]
                .enumerated()
            {
                let output = try printed { try db.dumpSQL("CREATE TABLE t\(sql: String(index))(a)", format: format, to: $0) }
                #expect(output == "")
            }
        }
    }

    @Test func quotedHeadersDoubleQuotes() throws {
        let output = try inMemoryDatabase { db throws in
            try printed { try db.dumpSQL(#"SELECT 1 AS "it's", 2 AS "a""b""#, format: .quote(header: true), to: $0) }
        }
        #expect(output == "'it''s','a\"b'\n1,2\n")
    }

    @Test func duplicateColumnsArePrintedTwice() throws {
        try inMemoryDatabase { db throws in
            let sql: SQL = "SELECT 1 AS name, 'x' AS name"
            #expect(try printed { try db.dumpSQL(sql, format: .debug(header: true), to: $0) } == "name|name\n1|x\n")
            #expect(try printed { try db.dumpSQL(sql, format: .json(), to: $0) } == #"[{"name":1,"name":"x"}]"# + "\n")
            #expect(try printed { try db.dumpSQL(sql, format: .line(), to: $0) } == "name = 1\nname = x\n")
        }
    }

    @Test func grdbColumnsAreNotPrinted() throws {
        try inMemoryDatabase { db throws in
            let sql: SQL = "SELECT 1 AS a, 2 AS grdb_hidden, 3 AS b"
            // The header lists every column, as GRDB's does; the values skip GRDB's own.
            #expect(try printed { try db.dumpSQL(sql, format: .debug(header: true), to: $0) } == "a|grdb_hidden|b\n1|3\n")
            #expect(try printed { try db.dumpSQL(sql, format: .list(), to: $0) } == "1|3\n")
            #expect(try printed { try db.dumpSQL(sql, format: .quote(), to: $0) } == "1,3\n")
            #expect(try printed { try db.dumpSQL(sql, format: .line(), to: $0) } == "a = 1\nb = 3\n")
            #expect(try printed { try db.dumpSQL(sql, format: .json(), to: $0) } == #"[{"a":1,"b":3}]"# + "\n")
            // A row with only GRDB columns prints nothing in the line format.
            #expect(try printed { try db.dumpSQL("SELECT 1 AS grdb_x", format: .line(), to: $0) } == "")
        }
    }

    // MARK: - Several statements

    private static let severalStatements: SQL = """
        CREATE TABLE t(a, b);
        INSERT INTO t VALUES (1, 'x');
        INSERT INTO t VALUES (2, 'y');
        SELECT * FROM t ORDER BY a;
        -- a comment between statements
        SELECT b FROM t ORDER BY b DESC;
        SELECT NULL WHERE 0;
        """

    @Test(arguments: DumpStorage.allCases)
    func severalStatementsInEachFormat(_ storage: DumpStorage) throws {
        func run(_ format: some DumpFormat) throws -> String {
            let fixture = try DumpFixture(storage, sql: "")
            return try printed { output in
                try fixture.dbQueue.write { db in try db.dumpSQL(Self.severalStatements, format: format, to: output) }
            }
        }
        #expect(try run(.debug(header: true)) == "a|b\n1|x\n2|y\nb\ny\nx\n")
        #expect(try run(.list()) == "1|x\n2|y\ny\nx\n")
        #expect(try run(.quote()) == "1,'x'\n2,'y'\n'y'\n'x'\n")
        #expect(try run(.json()) == """
            [{"a":1,"b":"x"},
            {"a":2,"b":"y"}]
            [{"b":"y"},
            {"b":"x"}]
            []

            """)
        // A blank line between rows and between statements, none at the end.
        #expect(try run(.line()) == """
            a = 1
            b = x

            a = 2
            b = y

            b = y

            b = x

            """)
    }

    @Test func dumpSQLBindsTheArgumentsOfEachStatement() throws {
        try inMemoryDatabase { db throws in
            let name = "O'Brien"
            let output = try printed {
                try db.dumpSQL("SELECT \(name) AS name; SELECT \(2) + \(3) AS sum, \(nil as Int?) AS none", to: $0)
            }
            #expect(output == "O'Brien\n5|\n")

            let named = try printed {
                try db.dumpSQL(SQL(sql: "SELECT :a, :b", arguments: ["a": 1, "b": "two"]), format: .quote(), to: $0)
            }
            #expect(named == "1,'two'\n")
        }
    }

    @Test func dumpRequestPrintsTheRowsOfARequest() throws {
        struct Player: TableRecord { }
        try inMemoryDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
                INSERT INTO player VALUES (1, 'Arthur', 500), (2, 'Barbara', 1000);
                """)
            let request = Player.filter(Column("score") > 600).select(Column("name"), Column("score"))
            let output = try printed { try db.dumpRequest(request, to: $0) }
            #expect(output == "Barbara|1000\n")
            let quoted = try printed { try db.dumpRequest(SQLRequest<Row>(sql: "SELECT name FROM player ORDER BY id"), format: .quote(), to: $0) }
            #expect(quoted == "'Arthur'\n'Barbara'\n")
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE player (name TEXT); INSERT INTO player VALUES ('Craig')") }
        #expect(try printed { try dbQueue.dumpRequest(Player.all(), to: $0) } == "Craig\n")
    }

    @Test func dumpRequestPrintsThePrefetchedRows() throws {
        // The output GRDB 7.10 prints for the same requests: the rows, then
        // each prefetched association's key path and rows (GRDB's own
        // `grdb_` columns hidden), nested prefetches after their parent.
        struct Author: TableRecord {
            static let books = hasMany(Book.self)
            static let reviews = hasMany(Review.self, through: books, using: Book.reviews)
        }
        struct Book: TableRecord {
            static let reviews = hasMany(Review.self)
        }
        struct Review: TableRecord { }
        try inMemoryDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT);
                CREATE TABLE review (id INTEGER PRIMARY KEY, bookId INTEGER REFERENCES book(id), stars INTEGER);
                INSERT INTO author VALUES (1, 'Ann'), (2, 'Bob');
                INSERT INTO book VALUES (1, 1, 'A1'), (2, 1, 'A2');
                INSERT INTO review VALUES (1, 2, 5);
                """)
            let books = Author.books.order(Column("id"))
            let nested = try printed {
                try db.dumpRequest(Author.including(all: books.including(all: Book.reviews)).order(Column("id")), to: $0)
            }
            #expect(nested == "1|Ann\n2|Bob\n\nbooks\n1|1|A1\n2|1|A2\n\nreviews\n1|2|5\n")
            let headers = try printed {
                try db.dumpRequest(Author.including(all: books).filter(Column("id") == 2), format: .debug(header: true), to: $0)
            }
            #expect(headers == "id|name\n2|Bob\n\nbooks\n")
            let through = try printed { try db.dumpRequest(Author.including(all: Author.reviews).filter(Column("id") == 1), to: $0) }
            #expect(through == "1|Ann\n\nbooks.reviews\n1|2|5\n")
            let joined = try printed {
                try db.dumpRequest(Book.including(required: Book.belongsTo(Author.self).including(all: books)).filter(Column("id") == 1), to: $0)
            }
            #expect(joined == "1|1|A1|1|Ann\n\nauthor.books\n1|1|A1\n2|1|A2\n")
            // No row: no prefetch runs, and nothing more is printed.
            #expect(try printed { try db.dumpRequest(Author.including(all: books).filter(Column("id") > 9), to: $0) } == "")
        }
    }

    @Test func dumpSQLRejectsUnusedArguments() throws {
        try inMemoryDatabase { db throws in
            let collector = Collector()
            let error = #expect(throws: DatabaseError.self) {
                try db.dumpSQL(SQL(sql: "SELECT ?", arguments: [1, 2]), to: collector)
            }
            #expect(error?.message?.contains("wrong number of statement arguments") == true)
        }
    }

    @Test func rowsPrintedBeforeAnErrorStayPrinted() throws {
        try inMemoryDatabase { db throws in
            let collector = Collector()
            #expect(throws: DatabaseError.self) {
                try db.dumpSQL("SELECT 'before'; SELECT * FROM missing; SELECT 'after'", to: collector)
            }
            #expect(collector.text == "before\n")
        }
    }

    // MARK: - Tables

    @Test(arguments: DumpStorage.allCases)
    func tablesArePrintedInPrimaryKeyOrder(_ storage: DumpStorage) throws {
        let dbQueue = try DumpFixture(storage, sql: librarySQL).dbQueue
        // INTEGER PRIMARY KEY, TEXT PRIMARY KEY, rowid, composite WITHOUT ROWID key.
        #expect(try printed { try dbQueue.dumpTables(["book"], to: $0) } == """
            1|zola|Germinal
            2||Anonymous
            3|hugo|Les Misérables

            """)
        #expect(try printed { try dbQueue.dumpTables(["author"], format: .quote(), to: $0) } == """
            'hugo','Victor Hugo'
            'zola','Émile Zola'

            """)
        #expect(try printed { try dbQueue.dumpTables(["note"], to: $0) } == "first\nsecond\n")
        #expect(try printed { try dbQueue.dumpTables(["tag"], to: $0) } == "1|classic\n3|classic\n1|novel\n")
    }

    @Test func severalTablesAreNamedAndSeparated() throws {
        let fixture = try DumpFixture(.encryptedFile, sql: librarySQL)
        #expect(try printed { try fixture.dbQueue.dumpTables([], to: $0) } == "")
        #expect(try printed { try fixture.dbQueue.dumpTables(["author", "shelf", "book"], to: $0) } == """
            author
            hugo|Victor Hugo
            zola|Émile Zola

            shelf

            book
            1|zola|Germinal
            2||Anonymous
            3|hugo|Les Misérables

            """)
        #expect(try printed { try fixture.dbQueue.dumpTables(["note"], tableHeader: .always, to: $0) } == """
            note
            first
            second

            """)
        #expect(try printed { try fixture.dbQueue.dumpTables(["author", "note"], format: .json(), to: $0) } == """
            author
            [{"id":"hugo","name":"Victor Hugo"},
            {"id":"zola","name":"Émile Zola"}]

            note
            [{"body":"first"},
            {"body":"second"}]

            """)
    }

    @Test func lineFormatTablesGetOneBlankLineBetweenThem() throws {
        let fixture = try DumpFixture(.inMemory, sql: librarySQL)
        let output = try printed { try fixture.dbQueue.dumpTables(["author", "shelf", "note"], format: .line(), to: $0) }
        #expect(output == """
            author
              id = hugo
            name = Victor Hugo

              id = zola
            name = Émile Zola

            shelf

            note
            body = first

            body = second

            """)
    }

    @Test func viewsKeepTheirOrderUnlessAStableOrderIsAsked() throws {
        let fixture = try DumpFixture(.encryptedFile, sql: librarySQL)
        #expect(try printed { try fixture.dbQueue.dumpTables(["bookTitle"], to: $0) } == """
            Les Misérables
            Anonymous
            Germinal

            """)
        #expect(try printed { try fixture.dbQueue.dumpTables(["bookTitle"], stableOrder: true, to: $0) } == """
            Anonymous
            Germinal
            Les Misérables

            """)
        // Tables always use their primary key, whatever stableOrder says.
        #expect(try printed { try fixture.dbQueue.dumpTables(["note"], stableOrder: true, to: $0) } == "first\nsecond\n")
    }

    @Test func tableNamesAreQuotedAndMatchedRegardlessOfCase() throws {
        let fixture = try DumpFixture(.inMemory, sql: #"""
            CREATE TABLE "odd ""name"""(k TEXT PRIMARY KEY, v);
            INSERT INTO "odd ""name""" VALUES ('b', 2), ('a', 1);
            """#)
        #expect(try printed { try fixture.dbQueue.dumpTables([#"odd "name""#], to: $0) } == "a|1\nb|2\n")
        #expect(try printed { try fixture.dbQueue.dumpTables([#"ODD "NAME""#], tableHeader: .always, to: $0) } == """
            ODD "NAME"
            a|1
            b|2

            """)
    }

    @Test func aMissingTableIsAnError() throws {
        let fixture = try DumpFixture(.inMemory, sql: librarySQL)
        let collector = Collector()
        let error = #expect(throws: DatabaseError.self) {
            try fixture.dbQueue.dumpTables(["book", "missing"], to: collector)
        }
        #expect(error?.message?.contains("no such table") == true)
        #expect(collector.text.hasPrefix("book\n1|zola|Germinal\n"))
    }

    // MARK: - Schema and content

    @Test(arguments: DumpStorage.allCases)
    func schemaIsGroupedByTableWithoutInternalObjects(_ storage: DumpStorage) throws {
        let fixture = try DumpFixture(storage, sql: schemaSQL)
        #expect(try printed { try fixture.dbQueue.dumpSchema(to: $0) } == schemaDump)
    }

    @Test(arguments: DumpStorage.allCases)
    func contentIsTheSchemaThenEveryTable(_ storage: DumpStorage) throws {
        let fixture = try DumpFixture(storage, sql: schemaSQL)
        #expect(try printed { try fixture.dbQueue.dumpContent(to: $0) } == schemaDump + """

            Apple

            mango
            1|ripe

            search
            hello

            zebra

            """)
        #expect(try printed { try fixture.dbQueue.dumpContent(format: .quote(header: true), to: $0) } == schemaDump + """

            Apple

            mango
            'id','name'
            1,'ripe'

            search
            'body'
            'hello'

            zebra

            """)
    }

    @Test(arguments: DumpStorage.allCases)
    func anEmptyDatabase(_ storage: DumpStorage) throws {
        let fixture = try DumpFixture(storage, sql: "")
        #expect(try printed { try fixture.dbQueue.dumpSchema(to: $0) } == "sqlite_master\n")
        #expect(try printed { try fixture.dbQueue.dumpContent(to: $0) } == "sqlite_master\n")
        #expect(try printed { try fixture.dbQueue.dumpContent(format: .json(), to: $0) } == "sqlite_master\n")
    }

    @Test func contentOfTheLibraryInJSON() throws {
        let fixture = try DumpFixture(.encryptedFile, sql: librarySQL)
        #expect(try printed { try fixture.dbQueue.dumpContent(format: .json(), to: $0) } == """
            sqlite_master
            CREATE TABLE author(id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL);
            CREATE TABLE book(id INTEGER PRIMARY KEY, authorId TEXT REFERENCES author(id), title TEXT);
            CREATE VIEW bookTitle AS SELECT title FROM book ORDER BY id DESC;
            CREATE TABLE note(body TEXT);
            CREATE TABLE shelf(name TEXT);
            CREATE TABLE tag(book INTEGER, name TEXT, PRIMARY KEY (name, book)) WITHOUT ROWID;

            author
            [{"id":"hugo","name":"Victor Hugo"},
            {"id":"zola","name":"Émile Zola"}]

            book
            [{"id":1,"authorId":"zola","title":"Germinal"},
            {"id":2,"authorId":null,"title":"Anonymous"},
            {"id":3,"authorId":"hugo","title":"Les Misérables"}]

            note
            [{"body":"first"},
            {"body":"second"}]

            shelf
            []

            tag
            [{"book":1,"name":"classic"},
            {"book":3,"name":"classic"},
            {"book":1,"name":"novel"}]

            """)
    }

    // MARK: - Readers

    @Test func aPoolDumpsItsEncryptedFile() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("pool.sqlite"), configuration: keyed(dumpPassphrase))
        try dbPool.write { db in try db.execute(sql: schemaSQL) }
        #expect(try printed { try dbPool.dumpSchema(to: $0) } == schemaDump)
        #expect(try printed { try dbPool.dumpTables(["mango", "search"], to: $0) } == "mango\n1|ripe\n\nsearch\nhello\n")
        #expect(try printed { try dbPool.dumpSQL("SELECT name FROM mango", to: $0) } == "ripe\n")
        let content = try printed { try dbPool.dumpContent(to: $0) }
        #expect(content.hasPrefix(schemaDump + "\nApple\n\nmango\n1|ripe\n"))
        try dbPool.close()
    }

    @Test func aSnapshotDumpsTheStateItWasMadeIn() throws {
        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("pool.sqlite"), configuration: keyed(dumpPassphrase))
        try dbPool.write { db in try db.execute(sql: librarySQL) }
        let snapshot = try dbPool.makeSnapshot()
        try dbPool.write { db in try db.execute(sql: "DELETE FROM note WHERE body = 'first'") }
        #expect(try printed { try snapshot.dumpTables(["note"], to: $0) } == "first\nsecond\n")
        #expect(try printed { try dbPool.dumpTables(["note"], to: $0) } == "second\n")
        try snapshot.close()
        try dbPool.close()
    }

    @Test func readerDumpsNestInsideAnAccess() throws {
        let fixture = try DumpFixture(.encryptedFile, sql: librarySQL)
        let dbQueue = fixture.dbQueue
        // Inside a write, the dump sees the uncommitted changes of the write.
        let inWrite = try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO note(body) VALUES ('third')")
            return try printed { try dbQueue.dumpTables(["note"], to: $0) }
        }
        #expect(inWrite == "first\nsecond\nthird\n")
        let inRead = try dbQueue.read { _ in try printed { try dbQueue.dumpSQL("SELECT COUNT(*) FROM note", to: $0) } }
        #expect(inRead == "3\n")

        let directory = try TemporaryDirectory()
        let dbPool = try DatabasePool(path: directory.path("pool.sqlite"), configuration: keyed(dumpPassphrase))
        try dbPool.write { db in try db.execute(sql: librarySQL) }
        let inPoolRead = try dbPool.read { _ in try printed { try dbPool.dumpContent(to: $0) } }
        #expect(inPoolRead.hasSuffix("tag\n1|classic\n3|classic\n1|novel\n"))
        try dbPool.close()
    }

    @Test func aQueueDumpSQLMayWriteLikeGRDBs() throws {
        let fixture = try DumpFixture(.inMemory, sql: "")
        let output = try printed { try fixture.dbQueue.dumpSQL(Self.severalStatements, format: .list(), to: $0) }
        #expect(output == "1|x\n2|y\ny\nx\n")
        #expect(try fixture.dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 2)
    }

    @Test func aReaderDumpLeavesNoTransactionOpen() throws {
        let fixture = try DumpFixture(.encryptedFile, sql: librarySQL)
        _ = try printed { try fixture.dbQueue.dumpContent(to: $0) }
        try fixture.dbQueue.writeWithoutTransaction { db in
            #expect(!db.isInsideTransaction)
            // Writes are allowed again after the read-only dump.
            try db.execute(sql: "INSERT INTO note(body) VALUES ('after')")
        }
    }

    // MARK: - Secrecy and standard output

    @Test func theDumpNeverReadsOrPrintsTheKey() throws {
        let fixture = try DumpFixture(.encryptedFile, sql: schemaSQL)
        let traced = LockedValue<[String]>([])
        try fixture.dbQueue.inDatabase { db in
            db.trace { event in
                if case .statement(let statement) = event {
                    traced.withLock { $0.append(statement.sql + " " + statement.expandedSQL) }
                }
            }
        }
        var output = try printed { try fixture.dbQueue.dumpContent(to: $0) }
        output += try printed { try fixture.dbQueue.dumpContent(format: .json(), to: $0) }
        output += try printed { try fixture.dbQueue.dumpSchema(to: $0) }
        let statements = traced.withLock { $0 }
        #expect(!statements.isEmpty)
        #expect(!statements.contains { $0.localizedCaseInsensitiveContains("key") }, "\(statements)")
        #expect(!statements.contains { $0.contains(dumpPassphrase) })
        #expect(!output.contains(dumpPassphrase))
        #expect(try !file(fixture.directory!.path("db.sqlite"), contains: "ripe"))
    }

    @Test func withoutAStreamTheDumpGoesToTheStandardOutput() throws {
        let directory = try TemporaryDirectory()
        let capturePath = directory.path("stdout.txt")
        let marker = "dump-to-stdout-\(UUID().uuidString)"
        let saved = dup(STDOUT_FILENO)
        let capture = open(capturePath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(saved >= 0 && capture >= 0)
        fflush(nil)
        dup2(capture, STDOUT_FILENO)
        let result = Result {
            try inMemoryDatabase { db in try db.dumpSQL("SELECT \(marker) AS marker, 1 AS one") }
        }
        fflush(nil)
        dup2(saved, STDOUT_FILENO)
        close(saved)
        close(capture)
        try result.get()
        let captured = try String(contentsOfFile: capturePath, encoding: .utf8)
        #expect(captured.contains(marker + "|1\n"))
    }
}

/// Lets a test loop over formats of different types.
private struct AnyDumpFormat: DumpFormat {
    private var base: any DumpFormat

    init(_ base: some DumpFormat) {
        self.base = base
    }

    mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        try base.writeRow(db, statement: statement, to: &stream)
    }

    mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        base.finalize(db, statement: statement, to: &stream)
    }
}
