import FlyingSocks
#if canImport(Glibc)
import Glibc
#endif
import WebView

/// The web view's HTTP server, on a Unix socket in a private folder that only the ``Gate``
/// reaches: the gate has read every head strictly before it passes it on, and the server reads
/// it again with the same reader (``RequestHead``), so both act on one reading of each request.
///
/// Each connection is served by a task of its own on Swift's shared pool: its requests in
/// order, each answered whole (``PageRoutes``), kept open as HTTP/1.1 says, until a WebSocket
/// takes it over (``PageSocket``). Sockets wait on the web view's own epoll queue
/// (``ReadinessQueue``) through FlyingSocks' pool.
final class PageServer: Sendable {
    private let path: String
    private let routes: PageRoutes
    private let sockets: PageSocket

    init(path: String, routes: PageRoutes, sockets: PageSocket) {
        self.path = path
        self.routes = routes
        self.sockets = sockets
    }

    /// Binds and listens: connections wait in the backlog until ``run(on:)``.
    func listen() throws -> Socket {
        let socket = try Socket(domain: Int32(AF_UNIX), type: .stream)
        do {
            try socket.bind(to: sockaddr_un.unix(path: path))
            try socket.listen()
        } catch {
            try? socket.close()
            throw error
        }
        return socket
    }

    /// Serves until the task is cancelled, then closes `listener`: only after the accepting has
    /// ended, so that no accept waits on a number the process may open again.
    func run(on listener: Socket) async throws {
        defer { try? listener.close() }
        let pool = SocketPool(queue: ReadinessQueue())
        try await pool.prepare()
        let accepting = try AsyncSocket(socket: listener, pool: pool)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await pool.run() }
            group.addTask { try await self.accept(on: accepting) }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    private func accept(on listener: AsyncSocket) async throws {
        try await withThrowingDiscardingTaskGroup { group in
            for try await socket in listener.sockets {
                group.addTask { await self.serve(PageConnection(socket: socket)) }
            }
        }
    }

    private func serve(_ connection: PageConnection) async {
        defer { try? connection.socket.close() }
        do {
            while let bytes = try await connection.head() {
                // The gate passes only heads this reads; any other is not from the gate.
                let head = try RequestHead(parsing: bytes)
                switch routes.answer(head) {
                case .response(let response):
                    let closing = !Self.keepsAlive(head)
                    try await connection.write(response.encoded(closing: closing))
                    if closing { return }
                case .upgrade(let accept):
                    await sockets.serve(connection, accept: accept)
                    return
                }
            }
        } catch {
            // The client has gone, or sent what the gate never passes.
        }
    }

    /// HTTP/1.1 keeps a connection unless it says `close`; HTTP/1.0 only if it says `keep-alive`.
    static func keepsAlive(_ head: RequestHead) -> Bool {
        head.version == "HTTP/1.1" ? !head.connectionOptions.contains("close") : head.connectionOptions.contains("keep-alive")
    }
}
