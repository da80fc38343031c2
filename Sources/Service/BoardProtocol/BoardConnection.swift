import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A client's connection to the board's API: the messages it sends, one at a time, and the
/// requests sent to it. For `tictactoe watch` and the other commands, and for tests.
///
/// Not thread-safe: one thread reads and sends.
public final class BoardConnection {
    public let path: String
    /// The connection's socket, for a caller that waits on it beside other descriptors; -1
    /// once closed.
    public private(set) var fd: Int32
    private var lines = LineBuffer(limit: APIMessage.maximumLineLength)
    private var ready: [[UInt8]] = []
    /// Where each read lands, made once.
    private var buffer = [UInt8](repeating: 0, count: 65_536)
    private let decoder = JSONDecoder()

    /// Connects to the board listening at `path`.
    public init(path: String) throws(UnixSocket.Failure) {
        self.path = path
        fd = try UnixSocket.connect(to: path)
    }

    deinit { close() }

    /// Closes the connection, now rather than whenever the last reference goes: a thread that
    /// reads a connection closes it before it says it is done, so that its descriptor's number
    /// cannot be reused and then closed under someone else.
    public func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    /// The next message, waiting at most `timeout` (for ever when `nil`); `nil` when the
    /// board closed the connection or nothing came in time.
    public func next(timeout: Duration? = nil) throws(ConnectionError) -> APIMessage? {
        guard let line = nextLine(timeout: timeout) else { return nil }
        return try APIMessage(line: line, decoder: decoder)
    }

    /// The next message as the line the board sent, without its newline and not decoded;
    /// `nil` as for ``next(timeout:)``. For a reader that only passes lines on or compares
    /// them, where decoding each would be most of its work.
    public func nextLine(timeout: Duration? = nil) -> [UInt8]? {
        while true {
            if !ready.isEmpty { return ready.removeFirst() }
            if let timeout {
                var polled = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
                let ready = poll(&polled, 1, milliseconds)
                if ready < 0 && errno == EINTR { continue }
                if ready == 0 { return nil }
            }
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                closedByBoard = true
                return nil
            }
            for line in lines.append(buffer[..<count]) {
                if case .complete(let bytes) = line { ready.append(bytes) }
            }
        }
    }

    /// Whether a read found the connection ended (the board closed it, or went away): what told a
    /// `nil` from ``nextLine(timeout:)`` apart from a wait that ran out.
    public private(set) var closedByBoard = false

    /// Whether a message is waiting to be read without blocking.
    public var hasBufferedMessage: Bool { !ready.isEmpty }

    /// Shuts the sending side: the board answers what was sent, then closes the connection.
    public func finishSending() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Sends `request` as one line.
    public func send(_ request: APIRequest) throws(ConnectionError) {
        try send(line: request.line)
    }

    /// Sends `line` and a newline, as it is: for tests of what the board does with any line.
    public func send(line: String) throws(ConnectionError) {
        try send(bytes: Array(line.utf8) + [UInt8(ascii: "\n")])
    }

    /// Sends `bytes` as they are (MSG_NOSIGNAL: a board that went away is an error, not a
    /// SIGPIPE that ends the program).
    public func send(bytes: [UInt8]) throws(ConnectionError) {
        guard Socket.sendAll(fd, bytes) else { throw .closed }
    }

    /// Sends `request` and returns the board's reply to it (`ok`, `error`, `status` or
    /// `history`), skipping the state messages in between.
    public func ask(_ request: APIRequest, timeout: Duration? = nil) throws(ConnectionError) -> APIMessage {
        try send(request)
        while let message = try next(timeout: timeout) {
            switch message.type {
            case .ok, .error, .status, .history: return message
            case .bye: throw .closedBy(message.text ?? "")
            default: continue
            }
        }
        throw .closed
    }
}

extension APIMessage {
    /// The message a line from the board holds (without its newline).
    public init(line: [UInt8], decoder: JSONDecoder = JSONDecoder()) throws(ConnectionError) {
        do {
            self = try decoder.decode(APIMessage.self, from: Data(line))
        } catch {
            throw .unreadable(String(decoding: line.prefix(200), as: UTF8.self))
        }
    }
}

/// Why a connection to the board ended.
public enum ConnectionError: Error, Sendable, Hashable, CustomStringConvertible {
    case closed
    case closedBy(String)
    case unreadable(String)

    public var description: String {
        switch self {
        case .closed: "the board closed the connection"
        case .closedBy(let reason): "the board closed the connection: \(reason)"
        case .unreadable(let line): "the board sent a line this program cannot read: \(line.quoted(limit: 200))"
        }
    }
}
