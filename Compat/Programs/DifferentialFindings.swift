#if GRDBCIPHER
import GRDBCipher
#else
import GRDB
#endif
import Foundation

// Cases of the differential check (seeds 2 and 10) that negate a comparison of an
// association aggregate inside `having(... || ...)`: which overloads Swift picks
// decides the SQL, and must be GRDB's.

private func aggregateNegationSeed2Case58(_ db: Database) {
    let request = GenReader.all().having((!(GenReader.books.total(Column("rating")) == nil)) || (GenReader.books.max(Column("pages")) > GenReader.books.filter { cast($0.id, as: .text) }.sum(Column("pages"))))
    report(db, 58, #"GenReader.all().having((!(GenReader.books.total(Column("rating")) == nil)) || (GenReader.books.max(Column("pages")) > GenReader.books.filter { cast($0.id, as: .text) }.sum(Column("pages"))))"#, request)
}

private func aggregateNegationSeed2Case430(_ db: Database) {
    let request = GenReader.all().having((GenReader.books.filter { $0.pages !== nil }.count ?? 0 > 1) || (!(GenReader.books.isEmpty == false)))
    report(db, 430, #"GenReader.all().having((GenReader.books.filter { $0.pages !== nil }.count ?? 0 > 1) || (!(GenReader.books.isEmpty == false)))"#, request)
}

private func aggregateNegationSeed2Case488(_ db: Database) {
    let maybeDeletedAt: Column? = Column("deletedAt")
    let request = GenReader.all().having((GenReader.books.sum(Column("pages")) < Int64(635)) || (!(GenReader.books.max(Column("pages")) === nil))).filter(maybeDeletedAt ?? (Column("name") === GenReader.Columns.deletedAt))
    report(db, 488, #"GenReader.all().having((GenReader.books.sum(Column("pages")) < Int64(635)) || (!(GenReader.books.max(Column("pages")) === nil))).filter(maybeDeletedAt ?? (Column("name") === GenReader.Columns.deletedAt))"#, request)
}

private func aggregateNegationSeed2Case927(_ db: Database) {
    let maybeActive: Column? = Column("active")
    let request = GenReader.all().having((GenReader.books.isEmpty) || (!(GenReader.books.total(Column("rating")) == nil))).filter(!(nil != maybeActive)).distinct()
    report(db, 927, #"GenReader.all().having((GenReader.books.isEmpty) || (!(GenReader.books.total(Column("rating")) == nil))).filter(!(nil != maybeActive)).distinct()"#, request)
}

private func aggregateNegationSeed2Case1379(_ db: Database) {
    let request = GenReader.having((GenReader.books.count != nil) || (!(GenReader.books.sum(Column("pages")) == nil)))
    report(db, 1379, #"GenReader.having((GenReader.books.count != nil) || (!(GenReader.books.sum(Column("pages")) == nil)))"#, request)
}

private func aggregateNegationSeed2Case1981(_ db: Database) {
    let maybeActiveExpression: SQLExpression? = Column("active").sqlExpression
    let request = GenReader.all().having((!(GenReader.books.isEmpty == false)) || (!(GenReader.books.total(Column("rating")) == nil))).filter(!(maybeActiveExpression !== nil))
    report(db, 1981, #"GenReader.all().having((!(GenReader.books.isEmpty == false)) || (!(GenReader.books.total(Column("rating")) == nil))).filter(!(maybeActiveExpression !== nil))"#, request)
}

private func aggregateNegationSeed2Case2017(_ db: Database) {
    let maybePagesExpression: SQLExpression? = Column("pages").sqlExpression
    let someInt = 7
    let request = GenReader.all().having(!(GenReader.books.filter { _ in !(maybePagesExpression !== nil) || someInt > 3 }.sum(Column("pages")) == nil)).limit(3)
    report(db, 2017, #"GenReader.all().having(!(GenReader.books.filter { _ in !(maybePagesExpression !== nil) || someInt > 3 }.sum(Column("pages")) == nil)).limit(3)"#, request)
}

private func aggregateNegationSeed2Case2270(_ db: Database) {
    let request = GenReader.having((GenReader.books.average(Column("rating")) == nil) || (!(GenReader.books.count == nil)))
    report(db, 2270, #"GenReader.having((GenReader.books.average(Column("rating")) == nil) || (!(GenReader.books.count == nil)))"#, request)
}

private func aggregateNegationSeed2Case2541(_ db: Database) {
    let request = GenReader.all().having((!(GenReader.books.max(Column("pages")) === nil)) || (!(GenReader.books.average(Column("rating")) == nil))).distinct()
    report(db, 2541, #"GenReader.all().having((!(GenReader.books.max(Column("pages")) === nil)) || (!(GenReader.books.average(Column("rating")) == nil))).distinct()"#, request)
}

private func aggregateNegationSeed2Case2707(_ db: Database) {
    let maybeTitle: Column? = Column("title")
    let noText: String? = nil
    let request = GenReader.all().having((!(GenReader.books.isEmpty == false)) || (!(GenReader.books.filter([true, false].contains(maybeTitle.like(noText))).min(Column("pages")) == nil)))
    report(db, 2707, #"GenReader.all().having((!(GenReader.books.isEmpty == false)) || (!(GenReader.books.filter([true, false].contains(maybeTitle.like(noText))).min(Column("pages")) == nil)))"#, request)
}

private func aggregateNegationSeed2Case2732(_ db: Database) {
    let request = GenReader.all().having((!(GenReader.books.count == nil)) || (!(GenReader.books.filter(Column("title") !== Int64(635)).max(Column("pages")) == nil))).filter(GenReader.Columns.id == nil)
    report(db, 2732, #"GenReader.all().having((!(GenReader.books.count == nil)) || (!(GenReader.books.filter(Column("title") !== Int64(635)).max(Column("pages")) == nil))).filter(GenReader.Columns.id == nil)"#, request)
}

private func aggregateNegationSeed2Case2773(_ db: Database) {
    let request = GenReader.having((!(GenReader.books.filter((3 / Column("rating")).like("%!%%", escape: "!")).average(Column("rating")) == nil)) || (!(GenReader.books.isEmpty == false)))
    report(db, 2773, #"GenReader.having((!(GenReader.books.filter((3 / Column("rating")).like("%!%%", escape: "!")).average(Column("rating")) == nil)) || (!(GenReader.books.isEmpty == false)))"#, request)
}

private func aggregateNegationSeed2Case3015(_ db: Database) {
    let request = GenReader.having((!(GenReader.books.total(Column("rating")) === nil)) || (GenReader.books.isEmpty))
    report(db, 3015, #"GenReader.having((!(GenReader.books.total(Column("rating")) === nil)) || (GenReader.books.isEmpty))"#, request)
}

private func aggregateNegationSeed2Case3361(_ db: Database) {
    let request = GenReader.all().having((!GenReader.books.isEmpty) || (!(GenReader.books.total(Column("rating")) == nil))).filter(GenReader.Columns.score.uppercased)
    report(db, 3361, #"GenReader.all().having((!GenReader.books.isEmpty) || (!(GenReader.books.total(Column("rating")) == nil))).filter(GenReader.Columns.score.uppercased)"#, request)
}

private func aggregateNegationSeed2Case3414(_ db: Database) {
    let maybeEmail: Column? = Column("email")
    let request = GenReader.all().having((!(GenReader.books.count === nil)) || (GenReader.books.filter { _ in [1, 2, 3].contains(Column("id").sqlExpression) && true }.count == nil)).filter(("a"..."m").contains(maybeEmail) || Column("age") == nil)
    report(db, 3414, #"GenReader.all().having((!(GenReader.books.count === nil)) || (GenReader.books.filter { _ in [1, 2, 3].contains(Column("id").sqlExpression) && true }.count == nil)).filter(("a"..."m").contains(maybeEmail) || Column("age") == nil)"#, request)
}

private func aggregateNegationSeed2Case3481(_ db: Database) {
    let noColumn: Column? = nil
    let someFlag = true
    let request = GenReader.all().having(!(GenReader.books.filter(someFlag || (0..<3).contains(noColumn)).count === nil))
    report(db, 3481, #"GenReader.all().having(!(GenReader.books.filter(someFlag || (0..<3).contains(noColumn)).count === nil))"#, request)
}


private func aggregateNegationSeed2Case3634(_ db: Database) {
    let maybeTitle: Column? = Column("title")
    let noInt: Int? = nil
    let request = GenReader.all().having((GenReader.books.filter(julianDay(maybeTitle)).min(Column("pages")) > noInt) || (!(GenReader.books.count === nil))).filter((Column("email") === nil) !== nil)
    report(db, 3634, #"GenReader.all().having((GenReader.books.filter(julianDay(maybeTitle)).min(Column("pages")) > noInt) || (!(GenReader.books.count === nil))).filter((Column("email") === nil) !== nil)"#, request)
}

private func aggregateNegationSeed2Case3893(_ db: Database) {
    let request = GenReader.all().having(!(GenReader.books.filter((42.databaseValue || GenBook.Columns.rating).like("%e%")).min(Column("pages")) == nil))
    report(db, 3893, #"GenReader.all().having(!(GenReader.books.filter((42.databaseValue || GenBook.Columns.rating).like("%e%")).min(Column("pages")) == nil))"#, request)
}

private func aggregateNegationSeed10Case345(_ db: Database) {
    let request = GenReader.all().having((!(GenReader.books.count == nil)) || (GenReader.books.count != nil)).limit(3)
    report(db, 345, #"GenReader.all().having((!(GenReader.books.count == nil)) || (GenReader.books.count != nil)).limit(3)"#, request)
}

private func aggregateNegationSeed10Case920(_ db: Database) {
    let request = GenReader.all().having((!(GenReader.books.filter { _ in ~Column("title").sqlExpression * (!(Column("rating") === nil)) }.count === nil)) || (GenReader.books.average(Column("rating")) !== -1))
    report(db, 920, #"GenReader.all().having((!(GenReader.books.filter { _ in ~Column("title").sqlExpression * (!(Column("rating") === nil)) }.count === nil)) || (GenReader.books.average(Column("rating")) !== -1))"#, request)
}


private func aggregateNegationSeed10Case1409(_ db: Database) {
    let someInt = 7
    let request = GenReader.having((GenReader.books.max(Column("pages")) ?? 0 > someInt) || (!(GenReader.books.count === nil))).limit(3)
    report(db, 1409, #"GenReader.having((GenReader.books.max(Column("pages")) ?? 0 > someInt) || (!(GenReader.books.count === nil))).limit(3)"#, request)
}

private func aggregateNegationSeed10Case1538(_ db: Database) {
    let maybeRating: Column? = Column("rating")
    let maybeId: Column? = Column("id")
    let request = GenReader.all().having((GenReader.books.filter(Column("id") ?? -maybeRating).count > GenReader.books.max(Column("pages"))) || (!(GenReader.books.filter(!(maybeId == nil)).sum(Column("pages")) == nil))).filter(nil !== GenReader.Columns.teamId)
    report(db, 1538, #"GenReader.all().having((GenReader.books.filter(Column("id") ?? -maybeRating).count > GenReader.books.max(Column("pages"))) || (!(GenReader.books.filter(!(maybeId == nil)).sum(Column("pages")) == nil))).filter(nil !== GenReader.Columns.teamId)"#, request)
}

private func aggregateNegationSeed10Case1676(_ db: Database) {
    let maybePages: Column? = Column("pages")
    let request = GenReader.all().having((GenReader.books.count == -1) && (!(GenReader.books.filter { _ in (Column("title") || maybePages) !== nil }.max(Column("pages")) === nil)))
    report(db, 1676, #"GenReader.all().having((GenReader.books.count == -1) && (!(GenReader.books.filter { _ in (Column("title") || maybePages) !== nil }.max(Column("pages")) === nil)))"#, request)
}

private func aggregateNegationSeed10Case1890(_ db: Database) {
    let someFlag = true
    let request = GenReader.all().having((!(GenReader.books.count == nil)) && (nil == GenReader.books.filter(GenBook.Columns.title || someFlag || !(Column("rating") === nil)).min(Column("pages"))))
    report(db, 1890, #"GenReader.all().having((!(GenReader.books.count == nil)) && (nil == GenReader.books.filter(GenBook.Columns.title || someFlag || !(Column("rating") === nil)).min(Column("pages"))))"#, request)
}

private func aggregateNegationSeed10Case2062(_ db: Database) {
    let request = GenReader.all().having((!(GenReader.books.filter { _ in GenBook.Columns.readerId === nil }.count == nil)) || (GenReader.books.isEmpty == false))
    report(db, 2062, #"GenReader.all().having((!(GenReader.books.filter { _ in GenBook.Columns.readerId === nil }.count == nil)) || (GenReader.books.isEmpty == false))"#, request)
}

private func aggregateNegationSeed10Case3305(_ db: Database) {
    let someInt = 7
    let request = GenReader.all().having((GenReader.books.count ?? 0 > someInt) || (!(GenReader.books.total(Column("rating")) === nil))).limit(3)
    report(db, 3305, #"GenReader.all().having((GenReader.books.count ?? 0 > someInt) || (!(GenReader.books.total(Column("rating")) === nil))).limit(3)"#, request)
}

private func aggregateNegationSeed10Case3796(_ db: Database) {
    let noColumn: Column? = nil
    let maybeEmail: Column? = Column("email")
    let request = GenReader.all().having((!(GenReader.books.count == nil)) || (GenReader.books.filter(noColumn ?? !Column("title")).total(Column("rating")) == nil)).filter((1.5...3.0).contains(maybeEmail))
    report(db, 3796, #"GenReader.all().having((!(GenReader.books.count == nil)) || (GenReader.books.filter(noColumn ?? !Column("title")).total(Column("rating")) == nil)).filter((1.5...3.0).contains(maybeEmail))"#, request)
}

private func aggregateNegationSeed2Case3521(_ db: Database) {
    let maybeInt: Int? = 3
    let request = GenReader.all().having((GenReader.books.average(Column("rating")) ?? 0 > maybeInt) || (!(GenReader.books.filter(!Column("id").sqlExpression && ~GenBook.Columns.readerId).average(Column("rating")) == nil)))
    report(db, 3521, #"GenReader.all().having((GenReader.books.average(Column("rating")) ?? 0 > maybeInt) || (!(GenReader.books.filter(!Column("id").sqlExpression && ~GenBook.Columns.readerId).average(Column("rating")) == nil)))"#, request)
}

private func aggregateNegationSeed10Case1123(_ db: Database) {
    let request = GenReader.all().having((!(GenReader.books.average(Column("rating")) == nil)) || (!(GenReader.books.filter(!(Column("pages") !== nil)).total(Column("rating")) == nil))).filter(!GenReader.Columns.email * (nil !== Column("active").sqlExpression))
    report(db, 1123, #"GenReader.all().having((!(GenReader.books.average(Column("rating")) == nil)) || (!(GenReader.books.filter(!(Column("pages") !== nil)).total(Column("rating")) == nil))).filter(!GenReader.Columns.email * (nil !== Column("active").sqlExpression))"#, request)
}

let aggregateNegationPrograms: [Program] = [
    Program("differential-aggregate-negations") {
        try runDifferentialCases { db in
            aggregateNegationSeed2Case58(db)
            aggregateNegationSeed2Case430(db)
            aggregateNegationSeed2Case488(db)
            aggregateNegationSeed2Case927(db)
            aggregateNegationSeed2Case1379(db)
            aggregateNegationSeed2Case1981(db)
            aggregateNegationSeed2Case2017(db)
            aggregateNegationSeed2Case2270(db)
            aggregateNegationSeed2Case2541(db)
            aggregateNegationSeed2Case2707(db)
            aggregateNegationSeed2Case2732(db)
            aggregateNegationSeed2Case2773(db)
            aggregateNegationSeed2Case3015(db)
            aggregateNegationSeed2Case3361(db)
            aggregateNegationSeed2Case3414(db)
            aggregateNegationSeed2Case3481(db)
            aggregateNegationSeed2Case3634(db)
            aggregateNegationSeed2Case3893(db)
            aggregateNegationSeed2Case3521(db)
            aggregateNegationSeed10Case345(db)
            aggregateNegationSeed10Case920(db)
            aggregateNegationSeed10Case1409(db)
            aggregateNegationSeed10Case1538(db)
            aggregateNegationSeed10Case1676(db)
            aggregateNegationSeed10Case1890(db)
            aggregateNegationSeed10Case2062(db)
            aggregateNegationSeed10Case3305(db)
            aggregateNegationSeed10Case3796(db)
            aggregateNegationSeed10Case1123(db)
        }
    },
]
