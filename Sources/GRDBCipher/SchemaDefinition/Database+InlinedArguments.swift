// SQLite does not bind parameters in a schema statement (`CREATE TABLE`,
// `CREATE INDEX ... WHERE`, `CREATE VIEW`): a default value, a check, the
// filter of a view must be written in the SQL text. The query interface
// writes values as `?` with arguments; these methods write each argument,
// quoted by SQLite's own QUOTE() function (as GRDB does), in place of its
// parameter.

extension Database {
    /// The text of a literal built for a schema statement, its values
    /// written as SQL literals.
    ///
    /// - throws: A ``DatabaseError`` if the literal cannot be built, or if
    ///   its parameters and arguments do not match.
    func schemaSQL(_ literal: SQL) throws -> String {
        let (sql, arguments) = try literal.build(self)
        if arguments.isEmpty { return sql }
        return try inlining(arguments, into: sql)
    }

    /// `sql` with its parameters (`?`, `?NNN`, `:name`, `@name`, `$name`)
    /// replaced by the quoted values of `arguments`. Quoted strings,
    /// quoted identifiers and comments are copied as they are.
    private func inlining(_ arguments: StatementArguments, into sql: String) throws -> String {
        let bytes = Array(sql.utf8)
        let positional = arguments.values
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var nextPosition = 0
        var usedPositions = 0
        var index = 0

        func isNameByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || byte == UInt8(ascii: "_")
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        }

        func isNamePrefix(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "$")
        }

        /// Copies bytes up to and including `terminator` (doubled
        /// terminators stay inside the token when `doubling` is true).
        func copyQuoted(until terminator: UInt8, doubling: Bool) {
            result.append(bytes[index])
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                result.append(byte)
                index += 1
                if byte == terminator {
                    if doubling, index < bytes.count, bytes[index] == terminator {
                        result.append(bytes[index])
                        index += 1
                        continue
                    }
                    return
                }
            }
        }

        func append(_ value: DatabaseValue) throws {
            result.append(contentsOf: try quotedSQL(value).utf8)
        }

        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
                copyQuoted(until: byte, doubling: true)
            case UInt8(ascii: "["):
                copyQuoted(until: UInt8(ascii: "]"), doubling: false)
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") {
                    result.append(bytes[index])
                    index += 1
                }
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                let end = bytes[(index + 2)...].indices.first {
                    bytes[$0] == UInt8(ascii: "*") && $0 + 1 < bytes.count && bytes[$0 + 1] == UInt8(ascii: "/")
                }.map { $0 + 2 } ?? bytes.count
                result.append(contentsOf: bytes[index..<end])
                index = end
            case UInt8(ascii: "?"):
                index += 1
                var digits = 0
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                    digits = digits * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                    index += 1
                }
                // `?NNN` is the NNN-th argument; `?` the one after the
                // largest used so far, as SQLite numbers them.
                let position = digits > 0 ? digits - 1 : nextPosition
                guard position < positional.count else {
                    throw DatabaseError(
                        resultCode: .SQLITE_MISUSE,
                        message: "wrong number of statement arguments: \(positional.count)",
                        sql: sql)
                }
                try append(positional[position])
                nextPosition = max(nextPosition, position + 1)
                usedPositions = max(usedPositions, position + 1)
            case _ where isNamePrefix(byte) && !arguments.namedValues.isEmpty
                && index + 1 < bytes.count && isNameByte(bytes[index + 1]):
                var end = index + 1
                while end < bytes.count && isNameByte(bytes[end]) { end += 1 }
                let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                guard let value = arguments.namedValues[name] else {
                    throw DatabaseError(
                        resultCode: .SQLITE_MISUSE,
                        message: "missing statement argument: \(name)",
                        sql: sql)
                }
                try append(value)
                index = end
            default:
                result.append(byte)
                index += 1
            }
        }
        guard usedPositions == positional.count else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "wrong number of statement arguments: \(positional.count)",
                sql: sql)
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The value as an SQL literal (`NULL`, `12`, `'O''Reilly'`, `X'00FF'`),
    /// as SQLite's QUOTE() writes it.
    func quotedSQL(_ value: DatabaseValue) throws -> String {
        if value.isNull { return "NULL" }
        guard let quoted = try String.fetchOne(self, sql: "SELECT QUOTE(?)", arguments: [value]) else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a value that SQLite cannot quote")
        }
        return quoted
    }
}
