import BoardAPI
import Basics
import BoardProtocol
import Presentation
import TicTacToe
#if canImport(Glibc)
import Glibc
#endif

/// `tictactoe watch`: the running board, live in the terminal, drawn from its API's state
/// messages by the simulator's renderer. Keys 1–9 press a cell and n asks for a new game, as
/// the API's commands; q quits. When the board goes away it says so and waits for it to return.
public final class RemoteWatch {
    private let path: String
    private let connect: (String) throws(UnixSocket.Failure) -> BoardConnection

    public init(path: String) {
        self.path = path
        connect = { path throws(UnixSocket.Failure) in try BoardConnection(path: path) }
    }

    public static let help = "1–9 press a cell · n new game · q quit"

    /// The screen for a state and a message line, as the simulator draws its own.
    public static func screen(_ view: ViewState, blinkOn: Bool, message: String) -> String {
        guard var state = view.session else { return "  the board sent a state this program cannot draw" }
        state.blinkOn = blinkOn
        return BoardRenderer.screen(
            frame: FrameRenderer.frame(of: state), players: view.players, score: state.score, message: message, help: help)
    }

    /// One state as plain text: the board as the LEDs show it (lower case blinking), then
    /// whose turn or how it ended, and the score.
    public static func plain(_ view: ViewState) -> String {
        guard let state = view.session else { return "the board sent a state this program cannot draw" }
        let players = view.players
        return BoardRenderer.plain(SeenBoard(showing: state)) + "\n" + summary(view) + "\n"
            + players.matchTitle + ": " + BoardRenderer.scoreLine(state.score, players: players)
    }

    /// "X (red) to move", "Alice (X) wins", "a draw", "asleep", with the computer's thinking.
    public static func summary(_ view: ViewState) -> String {
        let players = view.players
        if view.asleep { return "The lights are asleep; a press wakes them." }
        if let winner = OutcomeName.winner(view.outcome) { return "\(players.label(for: winner)) wins." }
        switch view.outcome {
        case OutcomeName.draw: return "A draw."
        default:
            guard let turn = view.turn.flatMap(Player.init(rawValue:)) else { return "" }
            return view.thinking ? "\(players.label(for: turn)) is thinking…" : "\(players.label(for: turn)) to move."
        }
    }

    /// Watches until q (or Ctrl-C, Ctrl-D, or a signal that ends the program).
    public func run() {
        let terminal = RawTerminal()
        terminal.enable()
        let terminations = catchEndingSignals { number in
            terminal.restore()
            exit(128 + number)
        }
        defer {
            terminations.cancel()
            terminal.restore()
        }
        var watch = Watch()
        while true {
            if watch.connection == nil { connect(&watch) }
            var polled = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)]
            if let connection = watch.connection { polled.append(pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)) }
            let buffered = watch.connection?.hasBufferedMessage == true
            let ready = buffered ? 1 : poll(&polled, nfds_t(polled.count), watch.connection == nil ? 1000 : 500)
            if ready == 0 { watch.blinkOn.toggle() }
            if polled[0].revents != 0 {
                guard let key = terminal.readKey(), ![UInt8(ascii: "q"), 3, 4].contains(key) else { return }
                watch.send(key)
            }
            if polled.count > 1, polled[1].revents != 0 || buffered { watch.receive(hungUp: polled[1].revents & Int16(POLLHUP | POLLIN) != 0) }
            watch.draw()
        }
    }

    /// What the watch knows between two turns of its loop: the connection, the last state, the
    /// message line and the blink's phase.
    private struct Watch {
        var blinkOn = true
        var message = ""
        var view: ViewState?
        var connection: BoardConnection?

        mutating func send(_ key: UInt8) {
            guard let request = RemoteWatch.request(for: key), let connection else { return }
            do { try connection.send(request) } catch { message = "\(error)" }
        }

        /// Reads the next message; `hungUp`: the socket said it was readable or closed.
        mutating func receive(hungUp: Bool) {
            guard let current = connection else { return }
            do {
                if let received = try current.next(timeout: .zero) {
                    switch received.type {
                    case .state:
                        view = received.state
                        message = ""
                    case .ok, .error, .bye: message = received.text ?? ""
                    default: break
                    }
                } else if hungUp && !current.hasBufferedMessage {
                    connection = nil
                    message = "The board's service stopped; waiting for it to return…"
                }
            } catch {
                connection = nil
                message = "\(error)"
            }
        }

        func draw() {
            if let view {
                RawTerminal.write("\u{1B}[H" + RemoteWatch.screen(view, blinkOn: blinkOn, message: message.isEmpty ? RemoteWatch.summary(view) : message))
            } else if connection != nil || !message.isEmpty {
                RawTerminal.write("\u{1B}[H\u{1B}[2J  \(message)\r\n")
            }
        }
    }

    private func connect(_ watch: inout Watch) {
        do throws(UnixSocket.Failure) {
            watch.connection = try connect(path)
            watch.message = "Connected to the board at \(path.shownPath)."
        } catch {
            watch.view = nil
            let why = error.isPermissionDenied ? "not allowed to use \(path.shownPath): join the tictactoe group" : "no board is listening at \(path.shownPath) (systemctl status tictactoe)"
            RawTerminal.write("\u{1B}[H\u{1B}[2J  \(why); waiting for it to return… q quits\r\n")
        }
    }

    fileprivate static func request(for key: UInt8) -> APIRequest? {
        if let digit = Int(String(UnicodeScalar(key))), let position = Position(keypadKey: digit) { return .press(position) }
        return key == UInt8(ascii: "n") ? .newGame : nil
    }
}
