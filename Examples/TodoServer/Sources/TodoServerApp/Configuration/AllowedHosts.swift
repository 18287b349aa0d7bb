import Foundation

/// The host names a request may name in its `Host` header.
///
/// A page of another site can make a browser send requests to this server
/// under the site's own name, once the name resolves to the server's address
/// (DNS rebinding): the browser then lets that page read the answers. Such a
/// request names the other site in `Host`, so a server that answers only
/// the names it is known by is out of reach. Ports are not compared.
public struct AllowedHosts: Sendable, Equatable, CustomStringConvertible {
    /// The names, lowercased, without brackets around IPv6 addresses; nil
    /// allows every name.
    let names: Set<String>?

    /// The names that reach a server on the loopback interface.
    static let loopbackNames: Set<String> = ["localhost", "127.0.0.1", "::1"]

    /// Every name: the check is off (`TODOSERVER_ALLOWED_HOSTS=*`), for a
    /// server behind a proxy that checks `Host` itself.
    public static let any = AllowedHosts(names: nil)

    init(names: Set<String>?) {
        self.names = names
    }

    /// The default for a server that listens on `host`: the loopback names,
    /// and the listen address unless it is a wildcard (`0.0.0.0`, `::`),
    /// which names no host.
    public init(listeningOn host: String) {
        let name = Self.normalized(host)
        if name.isEmpty || name == "0.0.0.0" || name == "::" {
            self.init(names: Self.loopbackNames)
        } else {
            self.init(names: Self.loopbackNames.union([name]))
        }
    }

    /// A comma-separated list of names (`todos.example.com,10.0.0.5`), or
    /// `*` for any name.
    ///
    /// - throws: A ``ConfigurationError`` for a list without a name.
    public init(list: String) throws {
        let items = list.split(separator: ",").map { Self.normalized(String($0)) }.filter { !$0.isEmpty }
        if items == ["*"] {
            self.init(names: nil)
            return
        }
        guard !items.isEmpty, !items.contains("*") else {
            throw ConfigurationError("TODOSERVER_ALLOWED_HOSTS must be a comma-separated list of host names, or *")
        }
        self.init(names: Set(items))
    }

    /// Whether a request whose `Host` header (its authority) is `authority`
    /// may be served.
    public func allows(authority: String) -> Bool {
        guard let names else { return true }
        return names.contains(Self.hostName(ofAuthority: authority))
    }

    /// The names, sorted, or `*`.
    public var description: String {
        names.map { $0.sorted().joined(separator: ",") } ?? "*"
    }

    /// The host of `name:port`, `[v6]:port`, `name`; lowercased, without
    /// the final dot of a fully qualified name.
    static func hostName(ofAuthority authority: String) -> String {
        var host = Substring(authority)
        if host.hasPrefix("[") {
            host = host.dropFirst().prefix { $0 != "]" }
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        return normalized(String(host))
    }

    private static func normalized(_ name: String) -> String {
        var name = name.trimmingCharacters(in: .whitespaces).lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix("."), name.count > 1 { name.removeLast() }
        return name
    }
}
