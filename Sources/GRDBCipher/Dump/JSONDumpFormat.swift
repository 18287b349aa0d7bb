import CSQLCipher
import Foundation

/// A format that prints the rows of each statement as a JSON array of
/// objects, one object per line, like the `json` mode of the `sqlite3`
/// command-line tool.
///
/// ```swift
/// // [{"name":"Arthur","score":500},
/// // {"name":"Barbara","score":1000}]
/// try db.dumpSQL("SELECT name, score FROM player", format: .json())
/// ```
///
/// Column names and values are encoded by a `JSONEncoder`: integers and reals
/// as numbers, text as strings, blobs according to the encoder's
/// `dataEncodingStrategy` (base64 by default), NULL as `null`. With the
/// `.prettyPrinted` output formatting, each value goes on its own line.
/// A statement that returns no row prints `[]`; a statement without columns
/// (`CREATE TABLE ...`) prints nothing.
public struct JSONDumpFormat: Sendable {
    /// The encoder of ``json(encoder:)`` when none is given: no escaped
    /// slashes, base64 blobs, and infinite reals as the strings `"inf"` and
    /// `"-inf"`.
    ///
    /// Each access returns a new encoder, which you can customize.
    public static var defaultEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        encoder.dataEncodingStrategy = .base64
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    /// The encoder of column names and values.
    public var encoder: JSONEncoder

    private var hasPrintedRow = false

    /// Creates the format.
    ///
    /// - parameter encoder: The encoder of column names and values.
    public init(encoder: JSONEncoder = JSONDumpFormat.defaultEncoder) {
        self.encoder = encoder
    }
}

extension JSONDumpFormat: DumpFormat {
    /// Prints the current row as a JSON object.
    ///
    /// - throws: The error of the encoder.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        let pretty = encoder.outputFormatting.contains(.prettyPrinted)
        if hasPrintedRow {
            stream.write(",\n")
        } else {
            hasPrintedRow = true
            stream.write(pretty ? "[\n" : "[")
        }
        stream.write(pretty ? "  {" : "{")
        var isFirst = true
        try statement.forEachDumpedColumn { index, name in
            if !isFirst { stream.write(",") }
            isFirst = false
            if pretty { stream.write("\n    ") }
            stream.write(try json(name))
            stream.write(":")
            stream.write(try json(of: statement, at: index))
        }
        stream.write(pretty ? "\n  }" : "}")
    }

    /// Closes the array, or prints `[]` when there was no row.
    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        if hasPrintedRow {
            if encoder.outputFormatting.contains(.prettyPrinted) { stream.write("\n") }
            stream.writeLine("]")
        } else if statement.columnCount > 0 {
            stream.writeLine("[]")
        }
        hasPrintedRow = false
    }

    private func json(of statement: Statement, at index: CInt) throws -> String {
        switch statement.dumpedType(at: index) {
        case SQLITE_INTEGER:
            return try json(statement.dumpedInt64(at: index))
        case SQLITE_FLOAT:
            return try json(statement.dumpedDouble(at: index))
        case SQLITE_TEXT:
            return try json(statement.dumpedText(at: index))
        case SQLITE_BLOB:
            return try json(statement.dumpedBlob(at: index))
        default:
            return "null"
        }
    }

    private func json(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

extension DumpFormat where Self == JSONDumpFormat {
    /// A format that prints the rows of each statement as a JSON array of
    /// objects: see ``JSONDumpFormat``.
    ///
    /// ```swift
    /// // [{"name":"Arthur","score":500},
    /// // {"name":"Barbara","score":1000}]
    /// try db.dumpSQL("SELECT name, score FROM player", format: .json())
    /// ```
    ///
    /// - parameter encoder: The encoder of column names and values; the
    ///   default is ``JSONDumpFormat/defaultEncoder``.
    public static func json(encoder: JSONEncoder = JSONDumpFormat.defaultEncoder) -> Self {
        JSONDumpFormat(encoder: encoder)
    }
}
