#if canImport(Glibc)
import Glibc
#endif

/// What every server and client of the board does with a socket's descriptor, written once: the
/// board's API server, its clients, the web server and its link to the board.
public enum Socket {
    /// Non-blocking, and closed on exec (accept4 and pipe2 are GNU extensions Swift's Glibc
    /// module does not offer); for a pipe's ends too (the poll loop's wake pipe).
    public static func makeNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// Closes a peer's socket without resetting it: a socket closed with bytes unread resets the
    /// connection, and the peer would lose what was sent to it last (a `bye`, a last response).
    /// Stops sending, reads what waits (a little, never blocking), then closes.
    public static func hangUp(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
        var sink = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<16 where recv(fd, &sink, sink.count, Int32(MSG_DONTWAIT)) > 0 {}
        close(fd)
    }

    /// Sends what the socket takes now of `bytes`, without blocking and with MSG_NOSIGNAL (a
    /// peer gone is an error, not a SIGPIPE): how many bytes it took (0: none now), or nil when
    /// the peer is gone (`errno` says why).
    public static func sendSome(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Int? {
        let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        if count >= 0 { return count }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : nil
    }

    /// Sends all of `bytes` on the socket `fd`, however many calls it takes, with MSG_NOSIGNAL:
    /// a peer that went away is a false return (`errno` says why), not a SIGPIPE that ends the
    /// program.
    @discardableResult
    public static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress.map { $0 + written }, $0.count - written, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }
}
