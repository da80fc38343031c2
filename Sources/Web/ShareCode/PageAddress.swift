/// The addresses a person's phone can open the board's page by, from where the web view listens
/// (`web.listen`) and what the machine has: a pure function of them, so that `tictactoe status`
/// and the web view's line at start name the same ones.
///
/// Listening on every interface (`*`), the page is at each of the machine's addresses but the
/// loopback and link-local ones (a phone cannot use `127.0.0.1`, and `fe80::` needs the phone's
/// own interface name), IPv4 first (what home networks give phones), then its mDNS name
/// `<host>.local` (the host policy allows it; not every phone resolves it). Listening on one
/// address, the page is there alone. The first is the one the QR code carries.
public enum PageAddress {
    /// Every address the page is reached by, best first; never empty (`localhost` at worst).
    public static func urls(listenHost: String, port: UInt16, machineName: String, machineAddresses: Set<String>) -> [String] {
        guard isEveryInterface(listenHost) else { return [url(host: listenHost, port: port)] }
        let usable = machineAddresses.filter { !isLoopbackOrLinkLocal($0) }
        let ipv4 = usable.filter { !$0.contains(":") }.sorted()
        let ipv6 = usable.filter { $0.contains(":") }.sorted()
        var hosts = ipv4 + ipv6
        let label = machineName.split(separator: ".").first.map(String.init) ?? ""
        if !label.isEmpty { hosts.append(label.lowercased() + ".local") }
        if hosts.isEmpty { hosts = ["localhost"] }
        return hosts.map { url(host: $0, port: port) }
    }

    /// The page's address on `host` (an IPv6 address in brackets), as a browser writes it.
    public static func url(host: String, port: UInt16) -> String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == 80 ? "http://\(name)/" : "http://\(name):\(port)/"
    }

    /// `*`, `0.0.0.0` and `::` all listen on every interface.
    static func isEveryInterface(_ host: String) -> Bool { ["*", "0.0.0.0", "::"].contains(host) }

    static func isLoopbackOrLinkLocal(_ address: String) -> Bool {
        let lower = address.lowercased()
        return lower.hasPrefix("127.") || lower == "::1" || lower.hasPrefix("169.254.") || lower.hasPrefix("fe80:")
    }
}
