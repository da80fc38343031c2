import Basics
import BoardAPI
import BoardMemory
import BoardProtocol
import Reactive
#if canImport(Glibc)
import Glibc
#endif

/// Where the board's API listens: a socket systemd passed, or one made at a path.
public struct APIListener: Sendable {
    public var fd: Int32
    /// How the log names it.
    public var name: String
    /// The path of a socket this process made (removed when the API stops); `nil` for
    /// systemd's, which systemd keeps.
    public var madeAt: String?

    public init(fd: Int32, name: String, madeAt: String?) {
        self.fd = fd
        self.name = name
        self.madeAt = madeAt
    }

    /// Systemd's socket if it passed one, else a socket made at `path`, else none.
    public static func take(orMakeAt path: String?) throws -> APIListener? {
        if let fd = try ListenedSocket.take() { return APIListener(fd: fd, name: "the socket systemd passed (tictactoe.socket)", madeAt: nil) }
        guard let path else { return nil }
        return APIListener(fd: try UnixSocket.listen(at: path), name: path, madeAt: path)
    }
}

/// The board's API socket, had first of all: a socket that cannot be made (a bad `--socket`
/// path, another board listening there) stops the start before the board opens its chip or
/// touches the state directory.
///
/// ## Contract
/// - ``start()`` takes the listening socket (systemd's, or one made at a path; `nil`: no API),
///   or throws having made nothing.
/// - ``take()`` hands it over once, to ``LocalAPI``, which closes it from then on.
/// - ``stop()`` closes a socket never handed over (a later part failed to start) and removes
///   the one it made.
public final class APISocket: ServicePart {
    public let name = "API socket"
    private let make: @Sendable () throws -> APIListener?
    private let held = Protected<APIListener?>(nil)

    public init(make: @escaping @Sendable () throws -> APIListener?) {
        self.make = make
    }

    public func start() throws {
        let listener = try make()
        held.withValue { $0 = listener }
    }

    /// The socket, the first time; `nil` after that, or when there is none.
    public func take() -> APIListener? {
        held.withValue { held in
            defer { held = nil }
            return held
        }
    }

    public func stop() {
        guard let listener = take() else { return }
        close(listener.fd)
        if let madeAt = listener.madeAt { unlink(madeAt) }
    }
}

/// The board's own API on a Unix socket (``BoardAPIServer``), its `history` read from the
/// board's memory.
///
/// ## Contract
/// - ``start()`` takes the listening socket (from ``APISocket``) and serves; when the socket
///   cannot be had it throws, and nothing is left running.
/// - While it runs, clients see every change of state and their commands enter the game as
///   the buttons' do; the game loop's cost does not depend on how many clients there are. A
///   `history` answer holds every game finished before it was asked (``SavedGames``).
/// - ``stop()`` closes every connection. It comes after the board in the group, so it stops
///   first: no client sees the lights go out as a change of the game.
public final class LocalAPI: ServicePart {
    public let name = "local API"
    private let board: PlayingBoard
    private let saving: Saving
    private let socket: @Sendable () throws -> APIListener?
    private let loop: any Scheduler
    private let program: String
    private let logger: ServiceLog
    private let running = Protected<(server: BoardAPIServer, madeAt: String?)?>(nil)

    /// - Parameters:
    ///   - socket: the listening socket and how to name it in the log, or `nil` for no API.
    ///   - program: "tictactoe" and ``ProgramVersion/current``, for the hello.
    public init(
        board: PlayingBoard, saving: Saving, socket: @escaping @Sendable () throws -> APIListener?, loop: any Scheduler, program: String,
        logger: ServiceLog
    ) {
        self.board = board
        self.saving = saving
        self.socket = socket
        self.loop = loop
        self.program = program
        self.logger = logger
    }

    public func start() throws {
        guard let listener = try socket() else {
            logger.info("no API socket (the package's tictactoe.socket passes one; run --socket PATH makes one)")
            return
        }
        let (playing, chip, saving) = (board.board, board.chip, saving)
        let control = RemoteControl(viewModel: playing.viewModel, remotePresses: playing.remotePresses, loop: loop)
        let server = BoardAPIServer(
            listener: listener.fd, control: control, loop: loop, program: program,
            facts: BoardAPIServer.Facts(
                since: WallTime.now(), scanRate: Int(playing.settings.scanFrameRate.rounded()),
                chip: APIMessage.ChipName(name: chip.name, label: chip.label), saves: { saving.saves }),
            history: SavedGames(memory: board.memory, saver: saving.saver))
        server.start()
        running.withValue { $0 = (server, listener.madeAt) }
        logger.info("serving the board's API on \(listener.name)")
    }

    public func stop() {
        guard let (server, madeAt) = running.withValue({ running in
            defer { running = nil }
            return running
        }) else { return }
        server.stop()
        if let madeAt { unlink(madeAt) }
    }
}

/// The finished games for `history`: the saver's commits waited for (a little) when the revision
/// is asked, then the memory read.
struct SavedGames: GameArchive {
    let memory: BoardMemory
    let saver: Saver

    /// Waits for a commit under way (a game just finished is then in the answer), at most half
    /// a second: a card that stalls delays `history`, never the API's thread for long.
    func revision() -> Int {
        saver.flush(atMost: .milliseconds(500))
        return memory.revision
    }

    func games(_ query: HistoryQuery) throws -> [PlayedGame] { try memory.games(query) }
}
