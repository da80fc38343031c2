import BoardAPI
import Basics
import BoardProtocol
import Lights
import Matchboxes
import ViewModel
import TicTacToe
#if canImport(Glibc)
import Glibc
#endif

/// `tictactoe watch`: the running board, live in the terminal, drawn from its API's state
/// messages (the appearance each names: its `looks` and `headline`) by the simulator's renderer.
/// Keys 1–9 press a cell and n asks for a new game, as the API's commands; q quits. When the
/// board goes away it says so (``Headline/unreachable``) and waits for it to return.
public final class RemoteWatch {
    private let path: String

    public init(path: String) {
        self.path = path
    }

    public static let help = "1–9 press a cell · n new game · q quit"

    /// The screen for a state and a message line, as the simulator draws its own; colour as the
    /// LEDs show in `phase` (the board sends no blink: the watch keeps its own) and its marks as
    /// the board's LEDs show them (``ViewState/markStyle``).
    public static func screen(_ view: ViewState, phase: Light.Phase, message: String) -> String {
        guard let appearance = appearance(of: view) else { return "  " + undrawable }
        return BoardRenderer.screen(appearance, players: view.players, score: score(of: view), message: message, help: help,
            marks: view.markStyle, phase: phase)
    }

    /// The screen while no board answers: the cells last seen (as the page keeps them), empty
    /// if none was, uncoloured under ``Headline/unreachable``, with the last names seen and `why`
    /// as the message.
    public static func unreachableScreen(lastSeen view: ViewState?, why: String) -> String {
        let cells = view.flatMap(appearance(of:))?.cells ?? Array(repeating: .empty, count: Position.all.count)
        let lastSeen = Appearance(cells: cells, headline: .unreachable)
        return BoardRenderer.screen(lastSeen, players: view?.players ?? PlayerNames(), score: nil, message: why, help: help)
    }

    /// One state as plain text: the board as ``BoardRenderer/plain(_:players:marks:)`` writes
    /// it, then the pairing and its score, and the learner's record when it plays or has played.
    public static func plain(_ view: ViewState) -> String {
        guard let appearance = appearance(of: view) else { return undrawable }
        let players = view.players
        return BoardRenderer.plain(appearance, players: players, marks: view.markStyle) + "\n" + players.matchTitle + ": "
            + (score(of: view).map { BoardRenderer.scoreLine($0, players: players) } ?? "score not known")
            + (view.learner.flatMap { learner in
                learner.games > 0 || view.opponent == Opponent.learner.name ? "\n" + learnerText(learner, cells: view.cells) : nil
            } ?? "")
            + (LessonProgress.statusLine(view.lesson).map { "\n" + $0 } ?? "")
            + (seenText(view.boardsSeen).map { "\n" + $0 } ?? "")
    }

    /// The other boards the board's link sees online, and how to play each; `nil` for none. Names
    /// not of a board's form are left out: text from a board is not trusted.
    static func seenText(_ boards: [SeenReport.Board]?) -> String? {
        let boards = (boards ?? []).filter { BoardName.isValid($0.board) }
        guard !boards.isEmpty else { return nil }
        let listed = boards.map { $0.invites ? "\($0.board) (invites this board: tictactoe opponent board:\($0.board):x joins)" : $0.board }
        return "other boards online: " + listed.joined(separator: ", ") + "; tictactoe opponent board:NAME invites one"
    }

    /// The learner's record, and its box for the position when it is to move: the beads behind
    /// each free cell (a taken cell shows its mark), as the board lays them out.
    static func learnerText(_ learner: ViewState.Learner, cells: [String]) -> String {
        var text = "learner: \(learner.games) games since it was made (won \(learner.won) · drew \(learner.drew) · lost \(learner.lost)"
            + "\(learner.games > learner.won + learner.drew + learner.lost ? ", of the latest" : "")); "
            + "\(learner.boxes) of \(PositionsFaced.playingO.count) boxes opened"
            + latestText(learner)
        if let box = learner.box, box.count == 9, cells.count == 9 {
            // Only the marks a board can hold are printed as they are: text from a board is not trusted.
            let shown = box.indices.map { ["X", "O"].contains(cells[$0]) ? cells[$0] : cells[$0].isEmpty ? String(box[$0]) : "?" }
            let width = shown.map(\.count).max() ?? 1
            text += "\nits box for this position, beads behind each free cell:"
            for row in 0..<3 {
                text += "\n  " + shown[row * 3..<row * 3 + 3].map { String(repeating: " ", count: width - $0.count) + $0 }.joined(separator: " ")
            }
        }
        return text
    }

    /// How it plays now, on a line of its own: its losses over its latest games (about a
    /// hundred), where its record since it was made is mostly what it did while it knew little.
    /// Empty before its first game and from a board that does not send them.
    static func latestText(_ learner: ViewState.Learner) -> String {
        // A board sends at most a hundred games here; anything else is not added up.
        guard let latest = learner.latest, latest.count == 3,
              latest.allSatisfy({ (0...10 * LearnerRecord.latestTens).contains($0) }) else { return "" }
        let games = latest.reduce(0, +)
        guard (1...10 * LearnerRecord.latestTens).contains(games) else { return "" }
        return "\nlearner now: lost \(latest[2]) of its latest \(games == 1 ? "game" : "\(games) games") (\(Int((100 * Double(latest[2]) / Double(games)).rounded()))%)"
    }

    /// What `view` shows, from the names the board sends (its `looks` and `headline`), or `nil`
    /// for a name this program does not know (a newer board).
    public static func appearance(of view: ViewState) -> Appearance? {
        let cells = view.looks.compactMap { name in CellAppearance.allCases.first { $0.name == name } }
        let opponent = Opponent(name: view.opponent)
        let headlines = Headline.examples.filter {
            if case .choosingOpponent(let shown) = $0 { shown == opponent } else { true }
        }
        guard cells.count == Position.all.count, view.looks.count == cells.count,
              let headline = headlines.first(where: { $0.name == view.headline }) else { return nil }
        return Appearance(cells: cells, headline: headline)
    }

    /// The score of the pairing at the board.
    static func score(of view: ViewState) -> Score? { view.scores[view.opponent]?.score }

    static let undrawable = "the board sent a state this program cannot draw"

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
        let link = BoardLink(path: path, retry: .seconds(1))
        var watch = Watch(path: path)
        while true {
            if let event = link.connectIfDue(at: .now()) { watch.take(event) }
            var polled = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0), link.pollRequest]
            // The blink's half period while the board is there; a second between tries while away.
            if poll(&polled, nfds_t(polled.count), link.isConnected ? 500 : 1000) == 0 { watch.blinkOn.toggle() }
            if polled[0].revents != 0 {
                guard let key = terminal.readKey(), ![UInt8(ascii: "q"), 3, 4].contains(key) else { return }
                if let request = RemoteWatch.request(for: key) { link.send(request.line) }
            }
            for event in link.serve(polled[1].revents, at: .now()) { watch.take(event) }
            watch.draw()
        }
    }

    /// What the watch knows between two turns of its loop: the last state, the message line,
    /// why no board answers, and the blink's phase.
    private struct Watch {
        let path: String
        var blinkOn = true
        /// Why no board answers, while none does.
        var unreachable: String?
        var message = ""
        var view: ViewState?

        init(path: String) {
            self.path = path
        }

        mutating func take(_ event: BoardLink.Event) {
            switch event {
            case .connected:
                view = nil
                unreachable = nil
                message = "Connected to the board at \(path.shownPath)."
            case .line(let bytes):
                let received: APIMessage
                do { received = try APIMessage(line: bytes) } catch {
                    message = error.description
                    return
                }
                switch received.type {
                case .state:
                    view = received.state
                    message = ""
                case .ok, .error, .bye: message = received.text ?? ""
                default: break
                }
            case .closed:
                unreachable = "The board's service stopped; waiting for it to return…"
            case .unreachable(let failure):
                let why = failure.isPermissionDenied ? "not allowed to use \(path.shownPath): join the tictactoe group" : "no board is listening at \(path.shownPath) (systemctl status tictactoe)"
                unreachable = "\(why); waiting for it to return…"
            }
        }

        func draw() {
            if let unreachable {
                RawTerminal.write("\u{1B}[H" + RemoteWatch.unreachableScreen(lastSeen: view, why: unreachable))
            } else if let view {
                let phase = Light.Phase(blinkOn: blinkOn, flickerOn: true)
                RawTerminal.write("\u{1B}[H" + RemoteWatch.screen(view, phase: phase, message: message))
            } else if !message.isEmpty {
                RawTerminal.write("\u{1B}[H\u{1B}[2J  \(message)\r\n")
            }
        }
    }

    fileprivate static func request(for key: UInt8) -> APIRequest? {
        if let digit = Int(String(UnicodeScalar(key))), let position = Position(keypadKey: digit) { return .press(position) }
        return key == UInt8(ascii: "n") ? .newGame : nil
    }
}
