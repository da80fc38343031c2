import Basics
#if canImport(Glibc)
import Glibc
#endif

/// Unix stream sockets by path: the board's listening socket and a client's connection.
public enum UnixSocket {
    /// Why a socket could not be had: the path, and what went wrong.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public var path: String
        public var errno: Int32
        public var operation: String

        public var description: String { "\(operation) \(path): \(TextFile.describeErrno(errno))" }
        /// Nobody listens there (no such socket, or nothing accepting on it).
        public var isNotListening: Bool { [ENOENT, ECONNREFUSED, ENOTSOCK].contains(errno) }
        public var isPermissionDenied: Bool { errno == EACCES || errno == EPERM }
    }

    /// A listening socket bound at `path` (a stale socket left there by a board that is gone
    /// is replaced; anything else at that path is not), closed on exec.
    public static func listen(at path: String, backlog: Int32 = 64) throws(Failure) -> Int32 {
        var address = try self.address(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw Failure(path: path, errno: errno, operation: "making a socket for") }
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK {
            // Someone still listening there keeps it; a socket nobody answers on is stale.
            if let probe = try? connect(to: path) {
                close(probe)
                close(fd)
                throw Failure(path: path, errno: EADDRINUSE, operation: "another board already listens on")
            }
            unlink(path)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw Failure(path: path, errno: code, operation: "listening on")
        }
        return fd
    }

    /// A connection to the socket at `path`, closed on exec; blocking, or not (a loop's): then a
    /// board whose backlog is full is a failure (`EAGAIN`) at once, not a wait.
    public static func connect(to path: String, blocking: Bool = true) throws(Failure) -> Int32 {
        var address = try self.address(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (blocking ? 0 : Int32(SOCK_NONBLOCK.rawValue)), 0)
        guard fd >= 0 else { throw Failure(path: path, errno: errno, operation: "making a socket for") }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw Failure(path: path, errno: code, operation: "connecting to")
        }
        return fd
    }

    private static func address(_ path: String) throws(Failure) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw Failure(path: path, errno: ENAMETOOLONG, operation: "a socket path must be 1 to 107 bytes:")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return address
    }
}

/// Where the board's API listens.
public enum BoardSocket {
    /// The package's socket (`tictactoe.socket`'s `ListenStream=`), and the commands' default.
    public static let defaultPath = "/run/tictactoe/board.sock"
}
