import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GRDBCipher

/// A page of S3's `ListObjectsV2` answer, or the code of an error answer,
/// read with Foundation's XML parser.
struct S3Listing {
    var keys: [String] = []
    var isTruncated = false
    var continuationToken: String?

    /// - throws: ``ReplicaError/store(_:)`` when the body is not a listing.
    init(parsing data: Data) throws {
        let reader = ElementReader(wanted: ["Key", "IsTruncated", "NextContinuationToken"])
        guard reader.parse(data), reader.root == "ListBucketResult" else {
            throw ReplicaError.store("the store's listing is not a ListBucketResult")
        }
        for (name, value) in reader.values {
            switch name {
            case "Key": keys.append(value)
            case "IsTruncated": isTruncated = value == "true"
            default: continuationToken = value
            }
        }
    }

    /// The `Code` of an S3 error answer (`NoSuchBucket`, `AccessDenied`...).
    static func errorCode(in data: Data) -> String? {
        let reader = ElementReader(wanted: ["Code"])
        guard reader.parse(data), reader.root == "Error" else { return nil }
        return reader.values.first?.1
    }
}

/// Collects the text of the elements of some names, in document order.
private final class ElementReader: NSObject, XMLParserDelegate {
    let wanted: Set<String>
    var root: String?
    var values: [(String, String)] = []
    private var current: String?
    private var text = ""

    init(wanted: Set<String>) {
        self.wanted = wanted
    }

    func parse(_ data: Data) -> Bool {
        let parser = XMLParser(data: data)
        parser.delegate = self
        return parser.parse()
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if root == nil { root = name }
        if wanted.contains(name) {
            current = name
            text = ""
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if current != nil { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == current {
            values.append((name, text))
            current = nil
        }
    }
}
