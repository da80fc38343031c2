#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Tells systemd how the service is doing, over the `NOTIFY_SOCKET` datagram protocol
/// (sd_notify(3), documented as stable): `READY=1`, `WATCHDOG=1`, `STOPPING=1`, `STATUS=…`.
///
/// Supports path sockets and abstract ones (a name starting with `@`). Without
/// `NOTIFY_SOCKET` (not started by systemd) every call does nothing.
public struct Notifier: Sendable {
    private let send: (@Sendable (String) -> Bool)?

    /// The notifier for this process's environment.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(socketPath: environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 })
    }

    public init(socketPath: String?) {
        guard let socketPath else {
            send = nil
            return
        }
        send = { @Sendable message in Self.send(message, to: socketPath) }
    }

    /// A stand-in for systemd that hands each message to `receive`: for tests.
    public init(receive: @escaping @Sendable (String) -> Void) {
        send = { @Sendable message in
            receive(message)
            return true
        }
    }

    public var isActive: Bool { send != nil }

    /// Sends one message of `KEY=value` lines. Returns whether it was sent.
    @discardableResult
    public func notify(_ message: String) -> Bool {
        send?(message) ?? false
    }

    private static func send(_ message: String, to socketPath: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(socketPath.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in bytes.enumerated() { path[index] = byte }
        }
        // Abstract names are not NUL-terminated: the length says where they end.
        let length = MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1)
        let payload = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(fd, payload, payload.count, Int32(MSG_NOSIGNAL), socketAddress, socklen_t(length))
            }
        }
        return sent == payload.count
    }

    public func ready(status: String? = nil) { notify("READY=1" + (status.map { "\nSTATUS=\($0)" } ?? "")) }
    public func watchdog() { notify("WATCHDOG=1") }
    public func stopping() { notify("STOPPING=1") }
    public func status(_ text: String) { notify("STATUS=\(text)") }

    /// The watchdog interval systemd asked for (`WATCHDOG_USEC`, for this process per
    /// `WATCHDOG_PID`), or `nil` when there is none.
    public static func watchdogInterval(environment: [String: String] = ProcessInfo.processInfo.environment) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let micros = Int64(text), micros > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"], let owner = Int32(pid), owner != getpid() { return nil }
        return .microseconds(micros)
    }
}
