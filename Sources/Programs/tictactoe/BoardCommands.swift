import ArgumentParser
import BoardAPI
import BoardMemory
import Basics
import BoardProtocol
import ConfigurationFile
import Console
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import ViewModel
import ShareCode
import TicTacToe

/// The option every command that talks to a running board shares.
struct SocketOptions: ParsableArguments {
    /// The board's API socket: the package's by default.
    @Option(help: "The board's socket. Default: \(BoardSocket.defaultPath) (the service's).")
    var socket: String = BoardSocket.defaultPath

    /// A connection to the board, or the reason there is none as a message and exit status:
    /// 69 when nothing listens, 77 when not allowed.
    func connect() throws(ExitCode) -> BoardConnection {
        do {
            return try BoardConnection(path: socket)
        } catch {
            if error.isPermissionDenied {
                printError("not allowed to connect to \(socket.shownPath): the board's socket is for the tictactoe group. Run: sudo adduser $USER tictactoe, then log in again.")
                throw ExitStatus.permissionDenied
            }
            if error.isNotListening {
                printError("no board is listening at \(socket.shownPath) (\(TextFile.describeErrno(error.errno))). Is the service running? See: systemctl status tictactoe.socket tictactoe.service; or give --socket the path of a board started with --socket or simulate --serve.")
                throw ExitStatus.boardUnavailable
            }
            printError("\(error).")
            throw ExitStatus.boardUnavailable
        }
    }

    /// How long a command waits for the board: a board that systemd is starting for this
    /// connection (socket activation) may take this long on a slow card.
    static let patience = Duration.seconds(30)

    /// Sends `request` and returns the reply; a closed or unreadable connection is exit 69.
    func ask(_ request: APIRequest) throws(ExitCode) -> APIMessage {
        let connection = try connect()
        do {
            return try connection.ask(request, timeout: Self.patience)
        } catch {
            printError("\(error) at \(socket.shownPath).")
            throw ExitStatus.boardUnavailable
        }
    }

    /// Runs a command that changes the game: its reply on standard output, or the reason it
    /// was refused on standard error and exit 65.
    func command(_ request: APIRequest) throws(ExitCode) {
        let reply = try ask(request)
        guard reply.type == .ok else {
            printError("refused: \(reply.text ?? "no reason given")")
            throw ExitStatus.refused
        }
        say(reply.text ?? "done")
    }
}

/// `tictactoe watch`: the running board, live.
struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Watch the running board live in the terminal, through its socket.",
        discussion: """
            Draws the board as its LEDs show it, with the turn and the score, and redraws on \
            every change. Keys 1–9 press a cell (numeric-keypad layout) and n asks for a new \
            game, as the press and new-game commands do; q quits. When the service stops, \
            watch says so and waits for it to return. Without a terminal (or with --once) it \
            prints the board as text instead: once with --once, else at every change.
            """)

    @OptionGroup var socket: SocketOptions

    /// Print one board and exit: for scripts.
    @Flag(help: "Print the board once, as text, and exit.")
    var once = false

    func run() throws {
        if !once && TerminalGame.isInteractive {
            RemoteWatch(path: socket.socket).run()
            return
        }
        let connection = try socket.connect()
        while true {
            let message: APIMessage?
            do {
                message = try connection.next(timeout: once ? SocketOptions.patience : nil)
            } catch {
                printError("\(error).")
                throw ExitStatus.boardUnavailable
            }
            guard let message else {
                if once {
                    printError("the board at \(socket.socket.shownPath) sent no state.")
                    throw ExitStatus.boardUnavailable
                }
                say("The board's service stopped.")
                return
            }
            guard message.type == .state, let view = message.state else { continue }
            say(RemoteWatch.plain(view) + (once ? "" : "\n"))
            // A reader that went away ends the watch (74), rather than states written to nobody.
            try StandardOutput.check()
            if once { return }
        }
    }
}

/// `tictactoe press N`.
struct Press: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Press a cell of the running board, as its button does.",
        discussion: "Cells are numbered as on a numeric keypad: 7 8 9 is the top row, 1 2 3 the bottom one. Exit status 65 when the board refuses the press (a taken cell, the computer's turn, the game over), with the reason.")

    @OptionGroup var socket: SocketOptions

    @Argument(help: "The cell, 1–9 (7 is the top left).")
    var cell: Int

    func validate() throws {
        guard Position(keypadKey: cell) != nil else { throw ValidationError("cell \(cell): give 1 to 9, as on a numeric keypad (7 8 9 is the top row).") }
    }

    func run() throws {
        guard let position = Position(keypadKey: cell) else { return }
        try socket.command(.press(position))
    }
}

/// `tictactoe new-game [--abandon]`.
struct NewGame: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-game",
        abstract: "Start a new game on the running board, as its new-game button does.",
        discussion: "Without --abandon it is the short press: refused (exit 65) while a game is in progress. --abandon is the hold: it gives up the game in progress.")

    @OptionGroup var socket: SocketOptions

    /// The hold: gives up a game in progress.
    @Flag(help: "Give up the game in progress, as holding the button does.")
    var abandon = false

    func run() throws { try socket.command(abandon ? .abandon : .newGame) }
}

/// `tictactoe opponent NAME`.
struct OpponentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "opponent",
        abstract: "Choose who the running board plays; a new game starts.")

    @OptionGroup var socket: SocketOptions

    @Argument(help: ArgumentHelp(
        "Who plays: two-players, computer-1 to computer-4 or learner (each playing O), or another board through the network link: board:NAME (it plays O, this board X, and it is invited) or board:NAME:x (this board joins its game, playing O).",
        valueName: "opponent"))
    var name: Opponent

    func run() throws {
        try socket.command(.opponent(name))
    }
}

/// `tictactoe status [--json]`.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the running board's state and the service's health.")

    @OptionGroup var socket: SocketOptions

    @Flag(help: "Print the board's status message as JSON.")
    var json = false

    @Option(help: ArgumentHelp("The configuration file whose [web] table says where the page is (default: \(InstalledConfiguration.path) when it exists).", valueName: "file"))
    var config: String?

    func run() throws {
        let reply = try socket.ask(.status)
        guard reply.type == .status, let view = reply.state, let health = reply.health else {
            printError("the board answered status with \(reply.type.rawValue.quoted()).")
            throw ExitStatus.boardUnavailable
        }
        if json {
            say(try JSONOutput.text(reply))
            return
        }
        say(RemoteWatch.plain(view))
        say("""
            service: up since \(health.since) (\(Self.span(health.uptimeSeconds))); \(health.gamesPlayed) games and \
            \(health.moves) moves since; last save \(health.lastSave ?? "none yet"); \
            \(health.scanRate) frames a second on \(health.chip.name) [\(health.chip.label)]
            """)
        sayPage()
    }

    /// Where the web view serves the page (from the `[web]` table: the board does not know
    /// whether it runs), and its QR code for a phone to scan off the screen: dark on light
    /// whatever the terminal's colours when it is a terminal; the bare glyphs otherwise.
    private func sayPage() {
        let web: WebSettings
        do {
            web = try (config ?? InstalledConfiguration.pathIfPresent).map { try WebSettings.load(file: $0) } ?? WebSettings()
        } catch {
            say("page: unknown (\(String(describing: error)))")
            return
        }
        let urls = PageAddress.urls(listenHost: web.listen.host, port: web.listen.port, machineName: Machine.name, machineAddresses: Machine.addresses)
        let others = urls.dropFirst().isEmpty ? "" : "; or \(urls.dropFirst().joined(separator: ", "))"
        say("page: \(urls[0]) (when tictactoe-web runs\(others)); scan the code to open it on a phone:")
        guard let code = try? QRCode(encoding: urls[0]) else { return }
        say(code.terminalLines(colours: isatty(STDOUT_FILENO) == 1).joined(separator: "\n"))
    }

    static func span(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min" }
        return "\(seconds / 3600) h \(seconds % 3600 / 60) min"
    }
}

/// `tictactoe history [--player NAME] [--opponent NAME] [--result RESULT] [--since DAY] [--limit N] [--json | --csv | --script N]`.
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the running board's finished games, the latest first, filtered; or one as a key script.",
        discussion: """
            The board keeps every finished game (the oldest folded into monthly totals past \(BoardMemory.keptGames)); one answer holds \
            at most \(HistoryQuery.largestLimit). Game 1 is the latest of the answer. --script N prints game N as keys that tictactoe \
            simulate replays move for move (as two players: the computer's moves are keys too): tictactoe history --script 1 | tictactoe simulate
            """)

    @OptionGroup var socket: SocketOptions

    /// A name either player went by.
    @Option(help: "Only games where X or O went by this name.")
    var player: String?

    @Option(help: "Only games against this opponent.")
    var opponent: Opponent?

    @Option(help: "Only games that ended so: x-wins, o-wins or draw.")
    var result: String?

    @Option(help: "Only games finished on or after this day (2026-11-01) or UTC moment (2026-11-01T18:00:00Z).")
    var since: String?

    @Option(help: "At most this many games, the latest (1 to \(HistoryQuery.largestLimit)).")
    var limit = HistoryQuery.largestLimit

    @Flag(help: "Print the board's answer as JSON.")
    var json = false

    @Flag(help: "Print the games as CSV, one row a game, for a spreadsheet.")
    var csv = false

    /// One game's moves as a key script.
    @Option(help: "Print game N (1 is the latest) as a key script for simulate.")
    var script: Int?

    var query: HistoryQuery {
        HistoryQuery(player: player, opponent: opponent?.name, outcome: result, since: since, limit: limit)
    }

    func validate() throws {
        if let problem = query.problem(naming: { $0 == "outcome" ? "--result" : "--" + $0 }) { throw ValidationError(problem + ".") }
        if [json, csv, script != nil].filter({ $0 }).count > 1 { throw ValidationError("give one of --json, --csv and --script.") }
        if let script, !(1...limit).contains(script) {
            throw ValidationError("--script is \(script); give a game's number, from 1 (the latest) to \(limit).")
        }
    }

    func run() throws {
        let reply = try socket.ask(.history(query))
        guard reply.type == .history else {
            printError("the board answered history with \(reply.type.rawValue.quoted())\(reply.text.map { ": \($0.shown())" } ?? "").")
            throw ExitStatus.boardUnavailable
        }
        let games = Array((reply.games ?? []).reversed())
        if let script {
            guard games.indices.contains(script - 1) else {
                printError("there is no game \(script): the board's answer holds \(games.count) (1 is the latest).")
                throw ExitStatus.refused
            }
            say(KeyScriptOfGame.text(games[script - 1], number: script))
        } else if json {
            say(try JSONOutput.text(reply))
        } else if csv {
            say(GamesAsCSV.text(games))
        } else if games.isEmpty {
            say(query == .all ? "No finished games yet." : "No finished game matches.")
        } else {
            for (index, game) in games.enumerated() { say(KeyScriptOfGame.line(game, number: index + 1)) }
        }
    }
}

/// Games as CSV (RFC 4180), the latest first: every field quoted, and text a spreadsheet would
/// run as a formula (a name beginning with =, +, - or @) kept as text by a leading apostrophe.
enum GamesAsCSV {
    static let header = ["number", "finished", "started", "opponent", "x_name", "o_name", "starter", "outcome", "moves"]

    static func text(_ games: [PlayedGame]) -> String {
        var rows = [header.map(field).joined(separator: ",")]
        for (index, game) in games.enumerated() {
            let moves = game.moves.map { "\($0.player)\($0.cell)" }.joined(separator: " ")
            let values = [
                String(index + 1), game.finished, game.started, game.opponent, game.names.x ?? "", game.names.o ?? "", game.starter,
                game.outcome, moves,
            ]
            rows.append(values.map(field).joined(separator: ","))
        }
        return rows.joined(separator: "\n")
    }

    private static func field(_ text: String) -> String {
        let safe = text.first.map { "=+-@".contains($0) } == true ? "'" + text : text
        return "\"" + safe.map { $0 == "\"" ? "\"\"" : String($0) }.joined() + "\""
    }
}

/// A finished game as `history` prints it.
enum KeyScriptOfGame {
    /// "3  2026-11-23T22:41:05Z  Alice (X) vs Bob (O)  Alice (X) wins in 7 moves". What the
    /// board sent is shown as text from outside (``String/shown(limit:)``): a board of another
    /// version, or a history file, is no promise of a clean name.
    static func line(_ game: PlayedGame, number: Int) -> String {
        let opponent = Opponent(name: game.opponent) ?? .person
        let players = PlayerNames(x: game.names.x?.shown(), o: game.names.o?.shown()).facing(opponent)
        let result = OutcomeName.winner(game.outcome).map { "\(players.label(for: $0)) won" } ?? "a draw"
        return "\(number)  \(game.finished.shown())  \(players.matchTitle)  \(result) in \(game.moves.count) moves" + (game.carriedOver == nil ? "" : " (carried over a restart)")
    }

    /// The game as simulate's keys: as two players (the computer's moves too), O's start
    /// reached by abandoning the first game, marks carried over a restart replayed first.
    static func text(_ game: PlayedGame, number: Int) -> String {
        var lines = ["# game \(line(game, number: number))", "# replay: tictactoe history --script \(number) | tictactoe simulate"]
        if game.starter == "O" { lines.append("N  # O starts: the simulator's second game") }
        var keys: [Int] = []
        // A board's nine cells, or none: a shorter list from the board is not indexed past its end.
        if let earlier = game.carriedOver, earlier.count == Position.all.count {
            let first = game.starter, second = first == "X" ? "O" : "X"
            let mine = Position.all.filter { earlier[$0.index] == first }.map(\.keypadKey)
            let theirs = Position.all.filter { earlier[$0.index] == second }.map(\.keypadKey)
            for index in 0..<mine.count {
                keys.append(mine[index])
                if index < theirs.count { keys.append(theirs[index]) }
            }
        }
        keys += game.moves.map(\.cell)
        lines.append(keys.map(String.init).joined(separator: " "))
        return lines.joined(separator: "\n")
    }
}

/// A message as indented JSON, keys sorted, for --json.
enum JSONOutput {
    static func text(_ message: APIMessage) throws(ExitCode) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(message) else { throw ExitStatus.inputError }
        return String(decoding: data, as: UTF8.self)
    }
}
