import Foundation
import Testing
@testable import GRDBCipher

private struct Failure: Error, Equatable {
    var tag = 0
}

/// A cursor over `elements` that counts its `next()` calls, and throws
/// `Failure` instead of returning the element at `failingIndex`.
private final class CountingCursor<Element>: Cursor {
    private let elements: [Element]
    private let failingIndex: Int?
    private var index = 0
    private(set) var nextCalls = 0

    init(_ elements: [Element], failingAt failingIndex: Int? = nil) {
        self.elements = elements
        self.failingIndex = failingIndex
    }

    func next() throws -> Element? {
        nextCalls += 1
        guard index < elements.count else { return nil }
        defer { index += 1 }
        if index == failingIndex { throw Failure() }
        return elements[index]
    }
}

/// A cursor with its own `forEach`, to see that generic code calls it.
private final class CustomForEachCursor: Cursor {
    private(set) var customForEachCalls = 0

    func next() throws -> Int? { nil }

    func forEach(_ body: (Int) throws -> Void) throws {
        customForEachCalls += 1
        try body(42)
    }
}

/// Calls `forEach` through the protocol, as generic code does.
private func collectThroughProtocol<C: Cursor>(_ cursor: C) throws -> [C.Element] {
    var result: [C.Element] = []
    try cursor.forEach { result.append($0) }
    return result
}

/// The SQL and columns of any database cursor, read through the protocol.
private func summary(_ cursor: some DatabaseCursor) -> String {
    "\(cursor.sql) | \(cursor.columnNames.joined(separator: ",")) | \(cursor.columnCount) | \(cursor.arguments)"
}

/// Adds `counted(x)`, which returns x and counts its calls.
private func addCallCounter(_ db: Database) -> LockedValue<Int> {
    let calls = LockedValue(0)
    db.add(function: DatabaseFunction("counted", argumentCount: 1) { values in
        calls.withLock { $0 += 1 }
        return values[0]
    })
    return calls
}

/// Adds `failOn(x, bad)`, which returns x, or fails when x equals bad.
private func addFailingFunction(_ db: Database) {
    db.add(function: DatabaseFunction("failOn", argumentCount: 2) { values in
        if values[0] == values[1] { throw DatabaseError(message: "failed on \(values[0])") }
        return values[0]
    })
}

@Suite("Cursor API")
struct CursorAPITests {
    // MARK: - forEach

    @Test func forEachCallsNextUntilNilAndNoMore() throws {
        let cursor = CountingCursor([1, 2, 3])
        var visited: [Int] = []
        try cursor.forEach { visited.append($0) }
        #expect(visited == [1, 2, 3])
        #expect(cursor.nextCalls == 4, "three elements and one nil")
    }

    @Test func forEachIsACustomizationPoint() throws {
        let cursor = CustomForEachCursor()
        #expect(try collectThroughProtocol(cursor) == [42])
        #expect(cursor.customForEachCalls == 1)
        // The collections read cursors with forEach too.
        #expect(try Array(cursor) == [42])
        #expect(cursor.customForEachCalls == 2)
    }

    @Test func forEachPropagatesTheErrorOfNext() throws {
        let cursor = CountingCursor([1, 2, 3], failingAt: 1)
        var visited: [Int] = []
        #expect(throws: Failure.self) { try cursor.forEach { visited.append($0) } }
        #expect(visited == [1])
    }

    // MARK: - AnyCursor

    @Test func anyCursorOverAnIterator() throws {
        var iterator = [1, 2, 3].makeIterator()
        _ = iterator.next()
        #expect(try Array(AnyCursor(iterator: iterator)) == [2, 3])
    }

    // MARK: - enumerated

    @Test func enumeratedPairsElementsWithOffsetsFromZero() throws {
        let cursor = AnyCursor(["a", "b", "c"]).enumerated()
        let pairs = try Array(cursor.map { "\($0.0)\($0.1)" })
        #expect(pairs == ["0a", "1b", "2c"])
    }

    @Test func enumeratedIsLazyAndCountsOnlyReturnedElements() throws {
        let base = CountingCursor(["a", "b", "c"], failingAt: 1)
        let cursor: EnumeratedCursor<CountingCursor<String>> = base.enumerated()
        #expect(base.nextCalls == 0)
        let first = try #require(try cursor.next())
        #expect(first.0 == 0 && first.1 == "a")
        #expect(throws: Failure.self) { try cursor.next() }
        // The failed element took no offset.
        let second = try #require(try cursor.next())
        #expect(second.0 == 1 && second.1 == "c")
        #expect(try cursor.next() == nil)
    }

    // MARK: - filter and compactMap

    @Test func filterReturnsAFilterCursor() throws {
        let cursor: FilterCursor<AnyCursor<Int>> = AnyCursor([1, 2, 3, 4]).filter { $0.isMultiple(of: 2) }
        #expect(try Array(cursor) == [2, 4])
    }

    @Test func filterIsLazy() throws {
        let base = CountingCursor([1, 2, 3, 4])
        var tested: [Int] = []
        let cursor = base.filter { tested.append($0); return $0 >= 2 }
        #expect(tested.isEmpty)
        #expect(base.nextCalls == 0)
        #expect(try cursor.next() == 2)
        #expect(tested == [1, 2])
    }

    @Test func filterPropagatesErrorsOfThePredicateAndTheBase() throws {
        let cursor = AnyCursor([1, 2, 3]).filter { n in
            if n == 2 { throw Failure(tag: n) }
            return true
        }
        #expect(try cursor.next() == 1)
        #expect(throws: Failure(tag: 2)) { try cursor.next() }
        #expect(try cursor.next() == 3)

        let failingBase = CountingCursor([1, 2], failingAt: 0).filter { _ in true }
        #expect(throws: Failure.self) { try failingBase.next() }
    }

    @Test func compactMapHasGRDBsResultType() throws {
        let cursor: MapCursor<FilterCursor<MapCursor<AnyCursor<String>, Int?>>, Int> =
            AnyCursor(["1", "x", "3"]).compactMap { Int($0) }
        #expect(try Array(cursor) == [1, 3])
    }

    @Test func compactMapIsLazyAndPropagatesErrors() throws {
        var transformed: [String] = []
        let cursor = AnyCursor(["1", "x", "boom", "4"]).compactMap { string -> Int? in
            transformed.append(string)
            if string == "boom" { throw Failure() }
            return Int(string)
        }
        #expect(transformed.isEmpty)
        #expect(try cursor.next() == 1)
        #expect(throws: Failure.self) { try cursor.next() }
        #expect(transformed == ["1", "x", "boom"])
        #expect(try cursor.next() == 4)
    }

    // MARK: - prefix(while:) and drop(while:)

    @Test func prefixWhileStopsAtTheFirstFailureForGood() throws {
        let base = CountingCursor([1, 2, 3, 1, 2])
        var tested: [Int] = []
        let cursor: PrefixWhileCursor<CountingCursor<Int>> = base.prefix { tested.append($0); return $0 < 3 }
        #expect(base.nextCalls == 0)
        #expect(try Array(cursor) == [1, 2])
        #expect(try cursor.next() == nil)
        #expect(tested == [1, 2, 3], "the predicate is not called after it fails")
        #expect(base.nextCalls == 3, "nothing is read after the failing element")
        #expect(try base.next() == 1, "the rest stays in the base cursor")
    }

    @Test func prefixWhilePropagatesErrors() throws {
        let cursor = AnyCursor([1, 2, 3]).prefix { n in
            if n == 2 { throw Failure() }
            return true
        }
        #expect(try cursor.next() == 1)
        #expect(throws: Failure.self) { try cursor.next() }
        #expect(throws: Failure.self) { try CountingCursor([1], failingAt: 0).prefix { _ in true }.next() }
    }

    @Test func dropWhileSkipsTheLeadingMatchesOnly() throws {
        var tested: [Int] = []
        let base = CountingCursor([1, 2, 3, 1, 2])
        let cursor: DropWhileCursor<CountingCursor<Int>> = base.drop { tested.append($0); return $0 < 3 }
        #expect(base.nextCalls == 0)
        #expect(try Array(cursor) == [3, 1, 2])
        #expect(tested == [1, 2, 3], "the predicate is not called after it fails")
        #expect(try Array(AnyCursor([1, 2]).drop { _ in true }).isEmpty)
    }

    @Test func dropWhilePropagatesErrors() throws {
        let cursor = AnyCursor([1, 2, 3]).drop { n in
            if n == 1 { throw Failure() }
            return n < 3
        }
        #expect(throws: Failure.self) { try cursor.next() }
        #expect(try cursor.next() == 3)
    }

    // MARK: - flatMap and joined

    @Test func flatMapToCursors() throws {
        let cursor: FlattenCursor<MapCursor<AnyCursor<Int>, AnyCursor<Int>>> =
            AnyCursor([1, 2, 3]).flatMap { n in AnyCursor(Array(repeating: n, count: n)) }
        #expect(try Array(cursor) == [1, 2, 2, 3, 3, 3])
    }

    @Test func flatMapToSequences() throws {
        let cursor: FlattenCursor<MapCursor<AnyCursor<String>, AnyCursor<Character>>> =
            AnyCursor(["ab", "", "c"]).flatMap { $0 }
        #expect(try String(cursor) == "abc")
    }

    @Test func flatMapIsLazy() throws {
        var transformed: [Int] = []
        let base = CountingCursor([1, 2, 3])
        let cursor = base.flatMap { n -> [Int] in
            transformed.append(n)
            return [n, n]
        }
        #expect(transformed.isEmpty)
        #expect(base.nextCalls == 0)
        #expect(try cursor.next() == 1)
        #expect(try cursor.next() == 1)
        #expect(transformed == [1])
    }

    @Test func flatMapPropagatesErrorsOfTransformBaseAndSegments() throws {
        let throwingTransform = AnyCursor([1, 2]).flatMap { n -> [Int] in
            if n == 1 { throw Failure() }
            return [n]
        }
        #expect(throws: Failure.self) { try throwingTransform.next() }
        #expect(try throwingTransform.next() == 2)

        let failingBase = CountingCursor([[1]], failingAt: 0).flatMap { $0 }
        #expect(throws: Failure.self) { try failingBase.next() }

        let failingSegment = AnyCursor([1, 2]).flatMap { n in CountingCursor([n, n], failingAt: 1) }
        #expect(try failingSegment.next() == 1)
        #expect(throws: Failure.self) { try failingSegment.next() }
    }

    @Test func sequenceFlatMapToCursorsIsLazy() throws {
        var transformed: [Int] = []
        let cursor: FlattenCursor<MapCursor<AnyCursor<Int>, AnyCursor<Int>>> = [1, 2].flatMap { n in
            transformed.append(n)
            return AnyCursor([n * 10, n * 10 + 1])
        }
        #expect(transformed.isEmpty)
        #expect(try Array(cursor) == [10, 11, 20, 21])
        #expect(transformed == [1, 2])
    }

    @Test func joinedCursorOfCursors() throws {
        let cursor: FlattenCursor<AnyCursor<AnyCursor<Int>>> =
            AnyCursor([AnyCursor([1, 2]), AnyCursor([]), AnyCursor([3])]).joined()
        #expect(try Array(cursor) == [1, 2, 3])
        #expect(try cursor.next() == nil)
    }

    @Test func joinedCursorOfSequences() throws {
        let cursor: FlattenCursor<MapCursor<AnyCursor<[Int]>, AnyCursor<Int>>> =
            AnyCursor([[1], [], [2, 3], []]).joined()
        #expect(try Array(cursor) == [1, 2, 3])
    }

    @Test func joinedStrings() throws {
        #expect(try AnyCursor(["a", "b", "c"]).joined() == "abc")
        #expect(try AnyCursor(["a", "b", "c"]).joined(separator: ", ") == "a, b, c")
        #expect(try AnyCursor(["a"]).joined(separator: ", ") == "a")
        #expect(try AnyCursor([String]()).joined(separator: ", ") == "")
        #expect(try AnyCursor(["ab", "cd"].map { $0.dropFirst() }).joined(separator: "-") == "b-d")
        #expect(throws: Failure.self) { try CountingCursor(["a", "b"], failingAt: 1).joined(separator: "") }
    }

    // MARK: - min and max

    @Test func minAndMax() throws {
        #expect(try AnyCursor([3, 1, 4, 1, 5]).min() == 1)
        #expect(try AnyCursor([3, 1, 4, 1, 5]).max() == 5)
        #expect(try AnyCursor([Int]()).min() == nil)
        #expect(try AnyCursor([Int]()).max() == nil)
        #expect(try AnyCursor(["bb", "a", "ccc"]).min(by: { $0.count < $1.count }) == "a")
        #expect(try AnyCursor(["bb", "a", "ccc"]).max(by: { $0.count < $1.count }) == "ccc")
    }

    @Test func minAndMaxReturnTheFirstOfEqualElements() throws {
        let pairs = [(1, "first"), (0, "low"), (1, "second"), (0, "low again")]
        #expect(try AnyCursor(pairs).max(by: { $0.0 < $1.0 })?.1 == "first")
        #expect(try AnyCursor(pairs).min(by: { $0.0 < $1.0 })?.1 == "low")
    }

    @Test func minAndMaxPropagateErrors() throws {
        #expect(throws: Failure.self) { try CountingCursor([1, 2, 3], failingAt: 2).max() }
        #expect(throws: Failure.self) { try CountingCursor([1, 2, 3], failingAt: 0).min() }
        #expect(throws: Failure.self) {
            try AnyCursor([1, 2]).min(by: { _, _ in throw Failure() })
        }
    }

    // MARK: - dropLast and suffix

    @Test func dropLast() throws {
        #expect(try AnyCursor([1, 2, 3, 4, 5]).dropLast(2) == [1, 2, 3])
        #expect(try AnyCursor([1, 2, 3, 4, 5]).dropLast() == [1, 2, 3, 4])
        #expect(try AnyCursor([1, 2, 3, 4, 5]).dropLast(0) == [1, 2, 3, 4, 5])
        #expect(try AnyCursor([1, 2, 3, 4, 5]).dropLast(5) == [])
        #expect(try AnyCursor([1, 2, 3, 4, 5]).dropLast(10) == [])
        #expect(try AnyCursor([Int]()).dropLast() == [])
        #expect(try AnyCursor(Array(1...100)).dropLast(7) == Array(1...93))
        #expect(throws: Failure.self) { try CountingCursor([1, 2, 3], failingAt: 2).dropLast(1) }
    }

    @Test func suffix() throws {
        #expect(try AnyCursor([1, 2, 3, 4, 5]).suffix(2) == [4, 5])
        #expect(try AnyCursor([1, 2, 3, 4, 5]).suffix(5) == [1, 2, 3, 4, 5])
        #expect(try AnyCursor([1, 2, 3, 4, 5]).suffix(10) == [1, 2, 3, 4, 5])
        #expect(try AnyCursor([Int]()).suffix(3) == [])
        #expect(try AnyCursor(Array(1...100)).suffix(7) == Array(94...100))
        #expect(throws: Failure.self) { try CountingCursor([1, 2, 3], failingAt: 2).suffix(1) }
    }

    @Test func suffixOfZeroReadsNothing() throws {
        let cursor = CountingCursor([1, 2, 3])
        #expect(try cursor.suffix(0) == [])
        #expect(cursor.nextCalls == 0)
    }

    @Test func negativeDropLastTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = try AnyCursor([1]).dropLast(-1)
        }
    }

    @Test func negativeSuffixTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = try AnyCursor([1]).suffix(-1)
        }
    }

    // MARK: - Arrays and other collections

    @Test func rangeReplaceableCollectionsFromCursors() throws {
        #expect(try Array(AnyCursor([1, 2, 3]), minimumCapacity: 100) == [1, 2, 3])
        let array = try Array(AnyCursor([1, 2, 3]), minimumCapacity: 100)
        #expect(array.capacity >= 100)
        #expect(try ContiguousArray(AnyCursor([1, 2])) == [1, 2])
        #expect(try String(AnyCursor(["a", "b"] as [Character])) == "ab")
    }

    @Test func appendContentsOfACursorKeepsWhatWasReadBeforeAnError() throws {
        var numbers = [0]
        try numbers.append(contentsOf: AnyCursor([1, 2]))
        #expect(numbers == [0, 1, 2])
        #expect(throws: Failure.self) { try numbers.append(contentsOf: CountingCursor([3, 4, 5], failingAt: 2)) }
        #expect(numbers == [0, 1, 2, 3, 4])
    }

    @Test func setsFromCursors() throws {
        #expect(try Set(AnyCursor([1, 2, 2, 3])) == [1, 2, 3])
        let set = try Set(AnyCursor([1, 2, 2, 3]), minimumCapacity: 100)
        #expect(set == [1, 2, 3])
        #expect(set.capacity >= 100)
        #expect(throws: Failure.self) { try Set(CountingCursor([1, 2], failingAt: 1)) }
    }

    @Test func setUnion() throws {
        let set: Set = [1, 2]
        #expect(try set.union(AnyCursor([2, 3])) == [1, 2, 3])
        var mutable = set
        try mutable.formUnion(AnyCursor([3, 4]))
        #expect(mutable == [1, 2, 3, 4])
    }

    @Test func setUnionKeepsExistingMembers() throws {
        // Equal by key only: the payload tells which instance was kept.
        struct Tagged: Hashable {
            var key: Int
            var tag: String
            static func == (lhs: Tagged, rhs: Tagged) -> Bool { lhs.key == rhs.key }
            func hash(into hasher: inout Hasher) { hasher.combine(key) }
        }
        let set: Set = [Tagged(key: 1, tag: "set")]
        let union = try set.union(AnyCursor([Tagged(key: 1, tag: "cursor"), Tagged(key: 2, tag: "first"),
                                             Tagged(key: 2, tag: "second")]))
        #expect(union.first { $0.key == 1 }?.tag == "set")
        #expect(union.first { $0.key == 2 }?.tag == "first")
    }

    @Test func setIntersection() throws {
        let set: Set = [1, 2, 3]
        #expect(try set.intersection(AnyCursor([2, 3, 4])) == [2, 3])
        var mutable = set
        try mutable.formIntersection(AnyCursor([3, 5]))
        #expect(mutable == [3])
    }

    @Test func failedIntersectionLeavesTheSetUnchanged() throws {
        var set: Set = [1, 2, 3]
        #expect(throws: Failure.self) { try set.formIntersection(CountingCursor([1, 2], failingAt: 1)) }
        #expect(set == [1, 2, 3])
    }

    @Test func dictionaryGroupingKeepsTheCursorOrder() throws {
        let words = ["apple", "bean", "avocado", "banana", "cherry"]
        let grouped = try Dictionary(grouping: AnyCursor(words), by: { $0.first! })
        #expect(grouped == ["a": ["apple", "avocado"], "b": ["bean", "banana"], "c": ["cherry"]])
        let reserved = try Dictionary(minimumCapacity: 50, grouping: AnyCursor(words), by: { $0.count })
        #expect(reserved == [5: ["apple"], 4: ["bean"], 7: ["avocado"], 6: ["banana", "cherry"]])
        #expect(reserved.capacity >= 50)
    }

    @Test func dictionaryGroupingPropagatesErrors() throws {
        #expect(throws: Failure(tag: 2)) {
            try Dictionary(grouping: AnyCursor([1, 2, 3]), by: { n -> Int in
                if n == 2 { throw Failure(tag: n) }
                return n
            })
        }
        #expect(throws: Failure.self) {
            try Dictionary(grouping: CountingCursor([1, 2], failingAt: 1), by: { $0 })
        }
    }

    @Test func dictionaryWithUniqueKeys() throws {
        let dictionary = try Dictionary(uniqueKeysWithValues: AnyCursor([(1, "one"), (2, "two")]))
        #expect(dictionary == [1: "one", 2: "two"])
        let reserved = try Dictionary(minimumCapacity: 50, uniqueKeysWithValues: AnyCursor([("a", 1)]))
        #expect(reserved == ["a": 1])
        #expect(reserved.capacity >= 50)
        #expect(throws: Failure.self) {
            try Dictionary(uniqueKeysWithValues: CountingCursor([(1, "one"), (2, "two")], failingAt: 1))
        }
    }

    @Test func dictionaryWithDuplicateKeysTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = try Dictionary(uniqueKeysWithValues: AnyCursor([(1, "one"), (1, "uno")]))
        }
    }

    @Test func dictionaryWithDuplicateKeysAndCapacityTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = try Dictionary(minimumCapacity: 4, uniqueKeysWithValues: AnyCursor([(1, "one"), (1, "uno")]))
        }
    }

    // MARK: - Statement cursors

    @Test func databaseCursorsTellTheirStatement() throws {
        try inMemoryDatabase { db throws in
            let rows: RowCursor = try Row.fetchCursor(db, sql: "SELECT ? AS a, ? AS b", arguments: [1, "x"])
            #expect(rows.sql == "SELECT ? AS a, ? AS b")
            #expect(rows.arguments == [1, "x"])
            #expect(rows.columnNames == ["a", "b"])
            #expect(rows.columnCount == 2)

            let fast: FastDatabaseValueCursor<Int> = try Int.fetchCursor(
                db, sql: "SELECT :n AS number", arguments: ["n": 5])
            #expect(fast.sql == "SELECT :n AS number")
            #expect(fast.arguments == ["n": 5])
            #expect(fast.columnNames == ["number"])
            #expect(fast.columnCount == 1)

            let values: DatabaseValueCursor<DatabaseValue> = try DatabaseValue.fetchCursor(
                db, sql: "SELECT NULL AS empty, 2 AS two")
            #expect(values.sql == "SELECT NULL AS empty, 2 AS two")
            #expect(values.arguments.isEmpty)
            #expect(values.columnNames == ["empty", "two"])
            #expect(values.columnCount == 2)
        }
    }

    @Test func databaseCursorIsAProtocolOfTheStatementCursors() throws {
        try inMemoryDatabase { db throws in
            let statement = try db.makeStatement(sql: "SELECT ? AS v")
            #expect(try summary(Row.fetchCursor(statement, arguments: [1])) == "SELECT ? AS v | v | 1 | [1]")
            #expect(try summary(Int.fetchCursor(statement, arguments: [2])) == "SELECT ? AS v | v | 1 | [2]")
            #expect(try summary(DatabaseValue.fetchCursor(statement, arguments: [3])) == "SELECT ? AS v | v | 1 | [3]")
            let existential: any DatabaseCursor<Int> = try Int.fetchCursor(statement, arguments: [4])
            #expect(try existential.next() == 4)
        }
    }

    @Test func databaseCursorArgumentsFollowTheStatement() throws {
        try inMemoryDatabase { db throws in
            let statement = try db.makeStatement(sql: "SELECT ?")
            _ = try Int.fetchCursor(statement, arguments: [7]).next()
            // A cursor made without arguments keeps the bound ones.
            let cursor = try Int.fetchCursor(statement)
            #expect(cursor.arguments == [7])
            #expect(try cursor.next() == 7)
        }
    }

    @Test func databaseCursorSQLIsRedactedWhenItCarriesAKey() throws {
        try inMemoryDatabase { db throws in
            let cursor = try String.fetchCursor(db, sql: "SELECT 'ATTACH ''x'' AS y KEY ''hunter2'''")
            #expect(try cursor.next() == "ATTACH 'x' AS y KEY 'hunter2'")
            #expect(!cursor.sql.contains("hunter2"))
            #expect(cursor.sql == cursor._statement.sql)
            #expect(cursor.sql == SecretRedaction.placeholder)
        }
    }

    @Test func transformsOfDatabaseCursorsEvaluateNothingBeforeNext() throws {
        try inMemoryDatabase { db throws in
            let calls = addCallCounter(db)
            let sql = "SELECT counted(column1) FROM (VALUES (1), (2), (3), (4))"
            let enumerated = try Int.fetchCursor(db, sql: sql).enumerated()
            let filtered = try Int.fetchCursor(db, sql: sql).filter { $0 > 2 }
            let compacted = try Int.fetchCursor(db, sql: sql).compactMap { $0 > 2 ? $0 : nil }
            let prefixed = try Int.fetchCursor(db, sql: sql).prefix { $0 < 3 }
            let dropped = try Int.fetchCursor(db, sql: sql).drop { $0 < 3 }
            let flattened = try Int.fetchCursor(db, sql: sql).flatMap { [$0, $0] }
            #expect(calls.withLock { $0 } == 0)

            #expect(try enumerated.next()?.1 == 1)
            #expect(calls.withLock { $0 } == 1)
            #expect(try filtered.next() == 3)
            #expect(calls.withLock { $0 } == 4)
            #expect(try compacted.next() == 3)
            #expect(calls.withLock { $0 } == 7)
            #expect(try Array(prefixed) == [1, 2])
            #expect(calls.withLock { $0 } == 10, "prefix(while:) reads up to the first failing row only")
            #expect(try dropped.next() == 3)
            #expect(calls.withLock { $0 } == 13)
            #expect(try flattened.next() == 1)
            #expect(try flattened.next() == 1)
            #expect(calls.withLock { $0 } == 14)
        }
    }

    @Test func databaseErrorsPropagateThroughTransforms() throws {
        try inMemoryDatabase { db throws in
            addFailingFunction(db)
            let sql = "SELECT failOn(column1, 2) FROM (VALUES (1), (2), (3))"
            let filtered = try Int.fetchCursor(db, sql: sql).filter { _ in true }
            #expect(try filtered.next() == 1)
            let error = #expect(throws: DatabaseError.self) { try filtered.next() }
            #expect(error?.message == "failed on 2")

            #expect(throws: DatabaseError.self) { try Int.fetchCursor(db, sql: sql).enumerated().dropLast() }
            #expect(throws: DatabaseError.self) { try Int.fetchCursor(db, sql: sql).suffix(1) }
            #expect(throws: DatabaseError.self) { try Int.fetchCursor(db, sql: sql).max() }
            #expect(throws: DatabaseError.self) { try Set(Int.fetchCursor(db, sql: sql)) }
            #expect(throws: DatabaseError.self) {
                try Dictionary(grouping: Int.fetchCursor(db, sql: sql), by: { $0 })
            }
            #expect(throws: DatabaseError.self) {
                try Array(Int.fetchCursor(db, sql: "VALUES (1), (2)").flatMap { n in
                    try Int.fetchCursor(db, sql: "SELECT failOn(?, 2)", arguments: [n])
                })
            }
        }
    }

    @Test func flatMapOfNestedStatementCursors() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY);
                CREATE TABLE player (teamID INTEGER, name TEXT);
                INSERT INTO team VALUES (1), (2), (3);
                INSERT INTO player VALUES (1, 'Arthur'), (1, 'Barbara'), (3, 'Craig');
                """)
            let names = try Int.fetchCursor(db, sql: "SELECT id FROM team ORDER BY id").flatMap { id in
                try String.fetchCursor(
                    db, sql: "SELECT name FROM player WHERE teamID = ? ORDER BY name", arguments: [id])
            }
            #expect(try Array(names) == ["Arthur", "Barbara", "Craig"])

            let teamNames = [1, 3].flatMap { id in
                try String.fetchCursor(db, sql: "SELECT name FROM player WHERE teamID = ?", arguments: [id])
            }
            #expect(try Array(teamNames) == ["Arthur", "Barbara", "Craig"])
        }
    }

    @Test func collectionsFromDatabaseCursors() throws {
        try inMemoryDatabase { db throws in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, teamID INTEGER, name TEXT, score INTEGER);
                INSERT INTO player VALUES (1, 1, 'Arthur', 10), (2, 2, 'Barbara', 30), (3, 1, 'Craig', 20);
                """)
            let byTeam = try Dictionary(
                grouping: Row.fetchCursor(db, sql: "SELECT * FROM player ORDER BY id").map { $0.copy() },
                by: { $0["teamID"] as Int })
            #expect(byTeam.mapValues { $0.map { $0["name"] as String } } == [1: ["Arthur", "Craig"], 2: ["Barbara"]])

            let nameByID = try Dictionary(uniqueKeysWithValues: Row
                .fetchCursor(db, sql: "SELECT id, name FROM player")
                .map { ($0["id"] as Int, $0["name"] as String) })
            #expect(nameByID == [1: "Arthur", 2: "Barbara", 3: "Craig"])

            let sql = "SELECT score FROM player ORDER BY id"
            #expect(try Int.fetchCursor(db, sql: sql).max() == 30)
            #expect(try Int.fetchCursor(db, sql: sql).min() == 10)
            #expect(try Int.fetchCursor(db, sql: sql).suffix(2) == [30, 20])
            #expect(try Int.fetchCursor(db, sql: sql).dropLast() == [10, 30])
            #expect(try Array(Int.fetchCursor(db, sql: sql), minimumCapacity: 10) == [10, 30, 20])
            #expect(try Set(Int.fetchCursor(db, sql: sql), minimumCapacity: 10) == [10, 20, 30])
            #expect(try String.fetchCursor(db, sql: "SELECT name FROM player ORDER BY id")
                .joined(separator: ", ") == "Arthur, Barbara, Craig")
        }
    }

    @Test func duplicateKeysFromADatabaseCursorTrap() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.inDatabase { db in
                _ = try Dictionary(uniqueKeysWithValues: Int
                    .fetchCursor(db, sql: "VALUES (1), (2), (1)")
                    .map { ($0, "value") })
            }
        }
    }
}
