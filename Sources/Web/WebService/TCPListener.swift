import Basics
#if canImport(Glibc)
import Glibc
#endif

/// The web view's listening TCP sockets.
public enum TCPListener {
    /// Why the web view cannot listen where it was asked to.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public var address: String
        public var errno: Int32

        public var description: String {
            let advice = switch errno {
            case EADDRINUSE: "another program listens there; stop it or choose another port (web.listen)"
            case EACCES: "ports below 1024 need privileges the web view does not have; choose another port (web.listen)"
            case EADDRNOTAVAIL: "the machine has no such address; give one of its own, or * for all (web.listen)"
            default: "check web.listen"
            }
            return "cannot listen on \(address): \(TextFile.describeErrno(errno)); \(advice)"
        }
    }

    /// Non-blocking listening sockets for `host` (`*` or an IPv4 or IPv6 address) and `port`
    /// (0: any free port). `*` is every interface: one dual-stack IPv6 socket, or IPv4 alone on a
    /// machine without IPv6.
    public static func listen(host: String, port: UInt16, backlog: Int32 = 64) throws(Failure) -> Int32 {
        if host == "*" {
            if let fd = try? bind(family: AF_INET6, address: "::", port: port, backlog: backlog) { return fd }
            return try bind(family: AF_INET, address: "0.0.0.0", port: port, backlog: backlog)
        }
        return try bind(family: host.contains(":") ? AF_INET6 : AF_INET, address: host, port: port, backlog: backlog)
    }

    /// The port a listening socket was given.
    public static func port(of fd: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return nil }
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer -> UInt16 in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    private static func bind(family: Int32, address: String, port: UInt16, backlog: Int32) throws(Failure) -> Int32 {
        let shown = family == AF_INET6 ? "[\(address)]:\(port)" : "\(address):\(port)"
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw Failure(address: shown, errno: errno) }
        var on: Int32 = 1
        var off: Int32 = 0
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var bound: Int32
        if family == AF_INET6 {
            // Both IPv6 and IPv4 on the one socket when listening on every interface.
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size))
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, address, &socketAddress.sin6_addr) == 1 else {
                close(fd)
                throw Failure(address: shown, errno: EADDRNOTAVAIL)
            }
            bound = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = port.bigEndian
            guard inet_pton(AF_INET, address, &socketAddress.sin_addr) == 1 else {
                close(fd)
                throw Failure(address: shown, errno: EADDRNOTAVAIL)
            }
            bound = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw Failure(address: shown, errno: code)
        }
        return fd
    }
}
