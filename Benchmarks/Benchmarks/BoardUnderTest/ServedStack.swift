// The board's API beside a benchmarked board: its server on a socket in /tmp, with clients that
// read everything it sends on threads of their own, as `tictactoe watch` does.
import BoardAPI
import BoardProtocol
import Foundation
import Reactive
import WiredBoard

/// A served board: `board`'s view model behind a ``BoardAPIServer`` on `loop`, watched by
/// `watchers` clients that read every byte as it comes (the server's work is the same whether
/// a client decodes its lines or not; decoding 32 clients' lines would only take the loop's
/// core away from it).
public final class ServedStack: @unchecked Sendable {
    public let server: BoardAPIServer
    public let path: String
    private let readers = DispatchGroup()

    public init(board: GameBoard, loop: any Scheduler, watchers: Int) {
        path = NSTemporaryDirectory() + "bench-\(UUID().uuidString.prefix(8)).sock"
        let control = RemoteControl(viewModel: board.viewModel, remotePresses: board.remotePresses, loop: loop)
        do {
            server = BoardAPIServer(
                listener: try UnixSocket.listen(at: path), control: control, loop: loop, program: "benchmark",
                facts: .init(since: WallTime.now(), scanRate: 0, chip: .init(name: "bench", label: "bench")),
                history: nil, limits: .init(clients: watchers + 2))
        } catch {
            fatalError("benchmark socket: \(error)")
        }
        server.start()
        for _ in 0..<watchers {
            let fd: Int32
            do { fd = try UnixSocket.connect(to: path) } catch { fatalError("benchmark client: \(error)") }
            readers.enter()
            Thread { [readers] in
                // Reads every byte the board sends, as fast as it comes, and closes its socket
                // before saying it is done (so that its number is not reused and closed late).
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while read(fd, &buffer, buffer.count) > 0 {}
                close(fd)
                readers.leave()
            }.start()
        }
        while server.census.clients < watchers { sched_yield() }
    }

    /// A client of the served board, for the latency benchmark.
    public func connect() -> BoardConnection {
        do { return try BoardConnection(path: path) } catch { fatalError("benchmark client: \(error)") }
    }

    public func stop() {
        server.stop()
        readers.wait()
        unlink(path)
    }
}
