import ArgumentParser
import Basics
import BoardAPI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Matchboxes
import ViewModel
import SystemdService
import TicTacToe

/// `tictactoe check-state [--state-dir DIR] [--json]`: what the board would restore at its next
/// start, read the way it reads it, changing nothing.
struct CheckState: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-state",
        abstract: "Check the saved game and the history without changing them; exit status 65 when the board could not use one.",
        discussion: """
            Reads \(StateStore.stateFile) and \(StateStore.historyFile) (or an older version's \(StateStore.legacyHistoryFile)) as the board does when it starts. A file it could not \
            use is named with what is wrong; the board sets a bad file aside at its next start (and \
            starts afresh), so nothing needs doing by hand. A temporary file left \
            by a save that a crash or power cut cut short is listed: the board removes it when it starts.
            """)

    @Option(name: .customLong("state-dir"), help: "The state directory. Default: the service's, \(StateStore.serviceDirectory).")
    var stateDirectory = StateStore.serviceDirectory

    @Flag(help: "Print what was found as JSON.")
    var json = false

    /// What was found, as --json prints it.
    struct Found: Codable {
        /// "restored", "fresh" (no saved game) or "unusable".
        var state: String
        /// The saved board, nine of "X", "O" or "" in reading order.
        var cells: [String]?
        var outcome: String?
        var problem: String?
        /// "read", "fresh" or "unusable".
        var history: String
        var games: Int?
        var historyProblem: String?
        /// Temporary files left by an interrupted save.
        var leftovers: [String]
        /// The matchbox learner the board would resume with (a fresh one when no game is
        /// saved); `nil` when the state is unusable.
        var learner: FoundLearner?
    }

    /// The learner as found: what a test compares with the learner the running board had.
    struct FoundLearner: Codable, Equatable {
        /// Games since it was made, and its record over the kept tens (as the API's status).
        var games: Int
        var won: Int
        var drew: Int
        var lost: Int
        /// Boxes opened, and how many times one was refilled.
        var boxes: Int
        var refills: Int
        /// ``MatchboxLearner/digest``: the beads of every box, hashed.
        var digest: String

        init(_ learner: MatchboxLearner) {
            let total = learner.record.total
            (games, won, drew, lost) = (learner.record.games, total.won, total.drew, total.lost)
            (boxes, refills, digest) = (learner.boxes.count, learner.refills, learner.digest)
        }
    }

    func validate() throws {
        try PathArguments.checkStateDirectory(stateDirectory)
    }

    func run() throws {
        let store = StateStore(directory: stateDirectory)
        let historyFile = store.historyPath
        var found = Found(state: "fresh", history: "fresh", leftovers: [])
        let (loaded, lastGame) = store.loadNamingGame()
        switch loaded {
        case .fresh: found.learner = FoundLearner(MatchboxLearner())
        case .restored(let snapshot):
            found.state = "restored"
            found.cells = snapshot.board.markNames
            found.outcome = OutcomeName.of(snapshot.board.outcome)
            found.learner = FoundLearner(snapshot.learner)
        case .unusable(let problem):
            found.state = "unusable"
            found.problem = problem
        }
        let legacyFile = store.legacyHistoryPath
        if FileManager.default.fileExists(atPath: historyFile) || FileManager.default.fileExists(atPath: legacyFile) {
            switch GameHistory.read(historyFile, legacyFile: legacyFile, lastGameOfState: lastGame) {
            case .success(let games): (found.history, found.games) = ("read", games.count)
            case .failure(let problem): (found.history, found.historyProblem) = ("unusable", problem.description)
            }
        }
        found.leftovers = TextFile.leftovers(of: [store.path, historyFile, legacyFile])
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(found) else { throw ExitStatus.inputError }
            say(String(decoding: data, as: UTF8.self))
        } else {
            say(Self.sentences(found, in: stateDirectory.shownPath).joined(separator: "\n"))
        }
        if found.state == "unusable" || found.history == "unusable" { throw ExitStatus.unusableState }
    }

    static func sentences(_ found: Found, in directory: String) -> [String] {
        var lines: [String] = []
        switch found.state {
        case "restored":
            let cells = (found.cells ?? []).map { $0.isEmpty ? "." : $0 }
            let rows = stride(from: 0, to: cells.count, by: 3).map { cells[$0..<min($0 + 3, cells.count)].joined() }
            lines.append("\(directory)/\(StateStore.stateFile): OK, a game the board restores: \(rows.joined(separator: " / ")) (\(found.outcome ?? "playing")).")
        case "unusable": lines.append("\(found.problem ?? StateStore.stateFile): the board will set it aside and start afresh.")
        default: lines.append("\(directory)/\(StateStore.stateFile): none; the board starts with a new game.")
        }
        switch found.history {
        case "read": lines.append("\(directory)/\(StateStore.historyFile): OK, \(found.games ?? 0) finished games.")
        case "unusable": lines.append("\(found.historyProblem ?? StateStore.historyFile): the board will set it aside and start its history afresh.")
        default: lines.append("\(directory)/\(StateStore.historyFile): none yet.")
        }
        if let learner = found.learner {
            lines.append("The learner: \(learner.games) played (won \(learner.won), drew \(learner.drew), lost \(learner.lost)), "
                + "\(learner.boxes) of its boxes opened, \(learner.refills) refilled; its beads' digest \(learner.digest).")
        }
        for leftover in found.leftovers {
            lines.append("\(leftover.shownPath): left by a save that a crash or power cut interrupted; the board removes it when it starts.")
        }
        return lines
    }
}
