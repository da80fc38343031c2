#if canImport(Glibc)
import Glibc
#endif

/// Which names a request may give in its `Host` header, and which page may open the
/// WebSocket: the web view's defence against DNS rebinding (a hostile site whose name comes to
/// point at the board) and cross-site WebSocket hijacking (a hostile page opening `ws://board/ws`
/// from a visitor's browser).
///
/// A request's host must be `localhost`, the machine's name, that name under `.local` (mDNS),
/// one of the machine's own addresses, or a name the configuration adds (`web.hosts`); any port.
/// The WebSocket's `Origin` must moreover be the page's own: `http://` and the very `Host` the
/// upgrade names. A browser always sends `Origin` on a WebSocket, so one without is refused too.
///
/// Pure: the machine's addresses are passed in (they change with DHCP; the caller reads them).
public struct HostPolicy: Sendable, Hashable {
    /// The names allowed, lower case, without a trailing dot.
    public let names: Set<String>

    /// - Parameters:
    ///   - machineName: the host name (`gethostname`); it and `<name>.local` are allowed.
    ///   - extraHosts: `web.hosts`: more names (or addresses) the board is reached by.
    public init(machineName: String, extraHosts: [String] = []) {
        var names: Set<String> = ["localhost"]
        let machine = Self.normalised(machineName)
        if !machine.isEmpty {
            names.insert(machine)
            // The mDNS name is the first label under .local, whatever domain the host name has.
            let label = machine.split(separator: ".").first.map(String.init) ?? machine
            names.insert(label + ".local")
        }
        for host in extraHosts { names.insert(Self.normalised(host)) }
        self.names = names
    }

    /// Why a request naming `host` is refused, or `nil` when it is allowed. `addresses`: the
    /// machine's own addresses, in the form ``canonicalAddress(_:)`` gives.
    public func refusal(host header: String?, addresses: Set<String>) -> String? {
        guard let header, let host = Self.hostPart(of: header) else {
            return "a request must name the board in its Host header"
        }
        if names.contains(host) { return nil }
        if let address = Self.canonicalAddress(host) {
            return addresses.contains(address) || address == "127.0.0.1" || address == "::1" ? nil : Self.foreign(header)
        }
        return Self.foreign(header)
    }

    /// Why a WebSocket upgrade is refused, or `nil` when it is allowed: its host as for any
    /// request, and its `Origin` the page's own.
    public func upgradeRefusal(host: String?, origin: String?, addresses: Set<String>) -> String? {
        if let refusal = refusal(host: host, addresses: addresses) { return refusal }
        guard let origin, let host else { return "the WebSocket is for the board's own page, which names its Origin" }
        guard origin.lowercased() == "http://" + host.lowercased() else {
            return "the WebSocket is for the board's own page, not for one from \(String(origin.prefix(100)))"
        }
        return nil
    }

    private static func foreign(_ header: String) -> String {
        "this board does not answer to the name \(String(header.prefix(100))); reach it by its own name or address, or add the name to web.hosts in its configuration"
    }

    /// The host of a `Host` header, lower case, without its port, brackets or a trailing dot;
    /// `nil` when the header is not `host[:port]` (RFC 9110's `uri-host [":" port]`): a name of
    /// letters, digits, hyphens and dots, an IPv4 address, or an IPv6 address in brackets, and a
    /// port of digits. Anything else (`name:8080@elsewhere`, say) names no host this board has.
    static func hostPart(of header: String) -> String? {
        let text = header.trimmingSpaces
        var host: Substring
        var port: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { return nil }
                port = rest.dropFirst()
            }
            guard host.contains(":"), canonicalAddress(String(host)) != nil else { return nil }
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return nil }
            host = parts[0]
            port = parts.count == 2 ? parts[1] : nil
            guard host.unicodeScalars.allSatisfy({ Self.nameCharacters.contains($0) }) else { return nil }
        }
        if let port {
            guard (1...5).contains(port.count), port.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }),
                let number = Int(port), number <= 65_535
            else { return nil }
        }
        let name = normalised(String(host))
        return name.isEmpty ? nil : name
    }

    private static let nameCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.".unicodeScalars)

    static func normalised(_ name: String) -> String {
        var name = name.lowercased()
        while name.hasSuffix(".") { name.removeLast() }
        return name
    }

    /// An IPv4 or IPv6 address in one spelling (`inet_ntop`'s), or `nil` when `text` is not one.
    public static func canonicalAddress(_ text: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1, inet_ntop(AF_INET, &v4, &buffer, socklen_t(buffer.count)) != nil {
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1, inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil {
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        let spaces: Set<Character> = [" ", "\t"]
        guard let first = firstIndex(where: { !spaces.contains($0) }), let last = lastIndex(where: { !spaces.contains($0) }) else { return "" }
        return self[first...last]
    }
}
