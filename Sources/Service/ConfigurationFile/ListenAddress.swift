#if canImport(Glibc)
import Glibc
#endif

/// A host and a port, written `HOST:PORT`, an IPv6 address in brackets: where the web view
/// listens, where the broker is.
public protocol HostAndPort: CustomStringConvertible {
    var host: String { get }
    var port: UInt16 { get }
}

extension HostAndPort {
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// `text` cut at its last colon: the host, without the brackets an IPv6 address is written
    /// in (and whether it was), and the port; nil without a colon and a number after it.
    static func parts(of text: String) -> (host: String, bracketed: Bool, port: UInt16)? {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { return nil }
        let host = text[..<colon]
        guard host.hasPrefix("[") && host.hasSuffix("]") && host.count >= 2 else { return (String(host), false, port) }
        return (String(host.dropFirst().dropLast()), true, port)
    }

    /// Whether `host` is an IPv6 address.
    static func isIPv6(_ host: String) -> Bool {
        var v6 = in6_addr()
        return inet_pton(AF_INET6, host, &v6) == 1
    }
}

/// An address and port to listen on: `*:8080` (every interface), `192.168.1.20:8080`,
/// `[::1]:8080`.
public struct ListenAddress: HostAndPort, Sendable, Hashable {
    /// `*`, or an IPv4 or IPv6 address.
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// The address `text` gives, or nil when it is not `ADDRESS:PORT` with an address this
    /// machine could listen on (`*`, IPv4, or IPv6 in brackets) and a port 0–65535.
    public init?(parsing text: String) {
        guard let (host, bracketed, port) = Self.parts(of: text) else { return nil }
        if bracketed {
            guard Self.isIPv6(host) else { return nil }
        } else if host != "*" {
            var v4 = in_addr()
            guard inet_pton(AF_INET, host, &v4) == 1 else { return nil }
        }
        self.init(host: host, port: port)
    }

    /// What `ListenAddress(parsing:)` takes, for messages.
    public static let form = "ADDRESS:PORT, such as \"*:8080\" (every interface), \"192.168.1.20:8080\" or \"[::1]:8080\""

    /// Whether `name` can be a host name or address in `web.hosts`.
    public static func isHostName(_ name: String) -> Bool {
        guard !name.isEmpty, name.count <= 253 else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || ".-:".unicodeScalars.contains($0) }
    }
}
