import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The listening socket systemd passed to this process (socket activation: `LISTEN_FDS`,
/// `LISTEN_PID`, descriptors from 3; sd_listen_fds(3), a stable protocol), read by hand like
/// ``Notifier``'s messages.
public enum ListenedSocket {
    /// The first descriptor systemd passes (`SD_LISTEN_FDS_START`).
    static let firstDescriptor: Int32 = 3

    /// The passed descriptor, if systemd passed this process exactly one listening stream
    /// socket; `nil` when it passed none (a board run by hand).
    public static func take(environment: [String: String] = ProcessInfo.processInfo.environment) throws(Failure) -> Int32? {
        guard let pid = environment["LISTEN_PID"], let count = environment["LISTEN_FDS"] else { return nil }
        // Meant for another process (a parent's, inherited): not ours.
        guard pid == String(getpid()) else { return nil }
        guard count == "1" else { throw Failure(reason: "systemd passed \(count.quoted()) sockets (LISTEN_FDS); the board takes exactly one: check tictactoe.socket") }
        let fd = firstDescriptor
        var type: Int32 = 0, listening: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) == 0 else {
            throw Failure(reason: "descriptor 3 from systemd is not a socket: check tictactoe.socket")
        }
        length = socklen_t(MemoryLayout<Int32>.size)
        guard type == Int32(SOCK_STREAM.rawValue), getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0, listening == 1 else {
            throw Failure(reason: "the socket from systemd is not a listening stream socket: tictactoe.socket needs ListenStream=")
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }

    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }
}
