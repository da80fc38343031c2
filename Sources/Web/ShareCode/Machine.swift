#if canImport(Glibc)
import Glibc
#endif
/// The machine's own names and addresses: what the web view's host policy compares a request's
/// `Host` with, and what ``PageAddress`` names the page by.
public enum Machine {
    /// The host name (`gethostname`).
    public static var name: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Every address of every interface, now (they change as networks come and go).
    public static var addresses: Set<String> {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var addresses: Set<String> = []
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var next = first
        while let entry = next {
            defer { next = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            let converted: UnsafePointer<CChar>? = switch family {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet4 in
                    withUnsafePointer(to: inet4.pointee.sin_addr) { inet_ntop(AF_INET, $0, &buffer, socklen_t(buffer.count)) }
                }
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet6 in
                    withUnsafePointer(to: inet6.pointee.sin6_addr) { inet_ntop(AF_INET6, $0, &buffer, socklen_t(buffer.count)) }
                }
            default: nil
            }
            if converted != nil {
                addresses.insert(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
        }
        return addresses
    }
}
