import Foundation
import Testing
import GRDBCipher  // not @testable: the API as applications see it

// Expressions that Swift can read two ways: as SQL, through the operators of the query
// interface, or as a Swift `Bool`, through the standard library's (`Optional`'s `== nil`,
// `Bool`'s `!`, `&&`, `||`). Which one it picks depends on how the candidates are declared,
// so they are declared as in GRDB 7.10 (static members of `SQLSpecificExpressible`, `filter`
// taking `some SQLSpecificExpressible`, request methods in GRDB's places and order), and the
// SQL here is the SQL GRDB 7.10 generates for the same Swift (Compat/ checks thousands more).

struct OverloadTeam: TableRecord {
    static let databaseTableName = "team"
}

struct OverloadBook: TableRecord {
    static let databaseTableName = "book"
}

struct OverloadReader: TableRecord {
    static let databaseTableName = "reader"
    enum Columns {
        static let age = Column("age")
        static let name = Column("name")
    }
    static let team = belongsTo(OverloadTeam.self)
    static let books = hasMany(OverloadBook.self)
}

/// Runs `body` on an encrypted database with two readers, one of unknown age, and their
/// teams and books.
private func withReaders(_ body: (Database) throws -> Void) throws {
    try inEncryptedDatabase { db throws in
        try db.execute(sql: """
            CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE reader (
                id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), name TEXT, age INTEGER);
            CREATE TABLE book (id INTEGER PRIMARY KEY, readerId INTEGER REFERENCES reader(id), title TEXT, pages INTEGER);
            INSERT INTO team VALUES (1, 'Reds');
            INSERT INTO reader VALUES (1, 1, 'Arthur', 42), (2, 1, 'Barbara', NULL);
            INSERT INTO book VALUES (1, 1, 'Emma', 300);
            """)
        try body(db)
    }
}

/// The SQL and arguments of a request's statement.
private func sqlAndArguments<T>(_ db: Database, _ request: QueryInterfaceRequest<T>) throws -> (String, [DatabaseValue]) {
    let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
    return (statement.sql, statement.arguments.values)
}

// Each request is built at the top of its test, in a `let`, as an application builds one:
// how Swift reads an expression can depend on what surrounds it (GRDB too reads
// `Column("a") > 1 && !(Column("b") == nil)` as SQL in some places and binds a `Bool` in
// others). Such nested forms are checked against GRDB itself, by Compat/'s differential check.
@Suite struct StandardLibraryOverloadTests {
    @Test func negatedNilComparisonIsNotNull() throws {
        let direct = OverloadReader.filter(!(Column("age") == nil))
        let reversed = OverloadReader.filter(!(nil == OverloadReader.Columns.age))
        let chained = OverloadReader.all().filter(!(Column("age") == nil))
        let table = Table<Row>("reader").filter(!(Column("age") == nil))
        try withReaders { db throws in
            // Not `WHERE ?` bound to true, which would skip no row.
            let notNull = #"SELECT * FROM "reader" WHERE "age" IS NOT NULL"#
            #expect(try sqlAndArguments(db, direct) == (notNull, []))
            #expect(try sqlAndArguments(db, reversed) == (notNull, []))
            #expect(try sqlAndArguments(db, chained) == (notNull, []))
            #expect(try sqlAndArguments(db, table) == (notNull, []))
            #expect(try direct.fetchCount(db) == 1)
        }
    }

    /// GRDB 7.10 type-checks this closure near the compiler's limit (about 75 % of its
    /// constraint scopes): one more `filter` overload than GRDB declares was enough for
    /// "unable to type-check this expression in reasonable time". This file then fails
    /// to compile.
    @Test func threeNilComparisonsInAFilterClosureTypeCheck() throws {
        struct Reader: TableRecord {
            static let databaseTableName = "reader"
            struct Columns {
                static let id = Column("id")
                static let name = Column("name")
                static let age = Column("age")
            }
        }
        let request = Reader.all()
        let filtered = request.filter { $0.age != nil || $0.name != nil && $0.id != nil }
        try withReaders { db throws in
            let expected = #"SELECT * FROM "reader" WHERE ("age" IS NOT NULL) OR (("name" IS NOT NULL) AND ("id" IS NOT NULL))"#
            #expect(try sqlAndArguments(db, filtered) == (expected, []))
        }
    }

    @Test func negatedNilComparisonInTheConditionOfAnAssociation() throws {
        let team = OverloadReader.joining(required: OverloadReader.team.filter(!(Column("name") == nil)))
        let books = OverloadReader.joining(required: OverloadReader.books.filter(!(nil == Column("title"))))
        try withReaders { db throws in
            #expect(try sqlAndArguments(db, team) == (
                #"SELECT "reader".* FROM "reader" JOIN "team" ON ("team"."id" = "reader"."teamId") AND ("team"."name" IS NOT NULL)"#,
                []))
            #expect(try sqlAndArguments(db, books) == (
                #"SELECT "reader".* FROM "reader" JOIN "book" ON ("book"."readerId" = "reader"."id") AND ("book"."title" IS NOT NULL)"#,
                []))
        }
    }

    @Test func optionalColumnComparedWithNil() throws {
        let age: Column? = Column("age")
        let missing: Column? = nil
        let isNull = OverloadReader.filter(age == nil)
        let negated = OverloadReader.filter(!(age != nil))
        let nullIsNull = OverloadReader.filter(missing == nil)
        try withReaders { db throws in
            #expect(try sqlAndArguments(db, isNull) == (#"SELECT * FROM "reader" WHERE "age" IS NULL"#, []))
            #expect(try sqlAndArguments(db, negated) == (#"SELECT * FROM "reader" WHERE "age" IS NULL"#, []))
            #expect(try sqlAndArguments(db, nullIsNull) == (#"SELECT * FROM "reader" WHERE NULL IS NULL"#, []))
            #expect(try isNull.fetchCount(db) == 1)
        }
    }

    @Test func havingOnNegatedNilComparisonOfAnAggregate() throws {
        let request = OverloadReader.all().having(!(OverloadReader.books.count == nil))
        try withReaders { db throws in
            #expect(try sqlAndArguments(db, request) == (
                #"SELECT "reader".* FROM "reader" LEFT JOIN "book" ON "book"."readerId" = "reader"."id" "#
                    + #"GROUP BY "reader"."id" HAVING COUNT(DISTINCT "book"."id") IS NOT NULL"#,
                []))
            #expect(try request.fetchCount(db) == 2)
        }
    }

    // Seed 2, case 3521 of the differential check: GRDB reads the right operand of `||` as an
    // aggregate (`IS NOT NULL`), and the two aggregates of the same association share its join,
    // with the filter of the second.
    @Test func negatedNilComparisonOfAFilteredAggregateInADisjunction() throws {
        let maybeInt: Int? = 3
        let request = OverloadReader.all().having((OverloadReader.books.average(Column("pages")) ?? 0 > maybeInt) || (!(OverloadReader.books.filter(!Column("id").sqlExpression && ~Column("readerId")).average(Column("pages")) == nil)))
        try withReaders { db throws in
            #expect(try sqlAndArguments(db, request) == (
                #"SELECT "reader".* FROM "reader" LEFT JOIN "book" ON ("book"."readerId" = "reader"."id") "#
                    + #"AND (NOT "book"."id") AND (~"book"."readerId") GROUP BY "reader"."id" "#
                    + #"HAVING (IFNULL(AVG("book"."pages"), ?) > ?) OR (AVG("book"."pages") IS NOT NULL)"#,
                [0.databaseValue, 3.databaseValue]))
        }
    }

    // Seed 10, case 1123: GRDB reads the left negation as a Swift `Bool`, and the right one
    // as an aggregate, whose filter goes to the join.
    @Test func twoNegatedNilComparisonsOfAggregatesInADisjunction() throws {
        let request = OverloadReader.all().having((!(OverloadReader.books.average(Column("pages")) == nil)) || (!(OverloadReader.books.filter(!(Column("pages") !== nil)).total(Column("pages")) == nil))).filter(!OverloadReader.Columns.name * (nil !== Column("age").sqlExpression))
        try withReaders { db throws in
            #expect(try sqlAndArguments(db, request) == (
                #"SELECT "reader".* FROM "reader" LEFT JOIN "book" ON ("book"."readerId" = "reader"."id") "#
                    + #"AND ("book"."pages" IS NULL) WHERE (NOT "reader"."name") * ("reader"."age" IS NOT NULL) "#
                    + #"GROUP BY "reader"."id" HAVING ? OR (TOTAL("book"."pages") IS NOT NULL)"#,
                [true.databaseValue]))
        }
    }

    @Test func negatedNilComparisonComparedWithANegation() throws {
        let age: SQLExpression? = Column("age").sqlExpression
        let request = OverloadReader.filter((!age) == !(Column("teamId") == nil))
        try withReaders { db throws in
            #expect(try sqlAndArguments(db, request)
                == (#"SELECT * FROM "reader" WHERE (NOT "age") = ("teamId" IS NOT NULL)"#, []))
        }
    }

    @Test func databaseValueComparedWithNilIsSQL() throws {
        // DatabaseValue has no `nil` literal, as in GRDB: `value != nil` is the SQL
        // `IS NOT NULL` where an expression is expected.
        let request = OverloadReader.select(Column("teamId")).group(nil != "Emma".databaseValue)
        try withReaders { db throws in
            #expect(try sqlAndArguments(db, request)
                == (#"SELECT "teamId" FROM "reader" GROUP BY ? IS NOT NULL"#, ["Emma".databaseValue]))
        }
    }

    @Test func collationOfInSubqueryGoesToItsLeftOperand() throws {
        let request = OverloadReader.filter(OverloadBook.select(Column("readerId")).contains(Column("id")).collating(.nocase))
        try withReaders { db throws in
            #expect(try sqlAndArguments(db, request)
                == (#"SELECT * FROM "reader" WHERE ("id" COLLATE NOCASE) IN (SELECT "readerId" FROM "book")"#, []))
        }
    }

    @Test func doubleNegationOfExistsIsExists() throws {
        let request = OverloadReader.filter(!(!OverloadBook.all().exists()))
        try withReaders { db throws in
            #expect(try sqlAndArguments(db, request) == (#"SELECT * FROM "reader" WHERE EXISTS (SELECT * FROM "book")"#, []))
        }
    }
}
