import ArgumentParser
import Basics
import BoardProtocol
import BoardAPI
import BoardMemory
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
        abstract: "Check the board's memory without changing it; exit status 65 when the board could not use it.",
        discussion: """
            Reads \(BoardMemory.fileName) (or, before the board has made it, release 0.4's \(BoardMemory.releaseFileNames.joined(separator: ", ")), \
            which the board imports) as the board does when it starts, every row checked. What it could not use is named with \
            what is wrong; the board sets it aside at its next start (and starts afresh), so nothing needs doing by hand. \
            A database written by a newer version is refused, exit status \(ExitStatus.newerMemory.rawValue).
            """)

    @Option(name: .customLong("state-dir"), help: "The state directory. Default: the service's, \(BoardMemory.serviceDirectory).")
    var stateDirectory = BoardMemory.serviceDirectory

    @Flag(help: "Print what was found as JSON.")
    var json = false

    /// What was found, as --json prints it.
    struct Found: Codable {
        /// "restored", "fresh" (no saved game) or "unusable".
        var state: String
        /// "database", "release 0.4's files" (to import) or "nothing".
        var source: String
        /// The saved board, nine of "X", "O" or "" in reading order.
        var cells: [String]?
        var outcome: String?
        /// What cannot be used, each naming its file.
        var problems: [String]
        /// What the board would say besides (release 0.4's files written after the import).
        var notes: [String]
        /// The finished games kept.
        var games: Int
        /// Temporary files left by an interrupted save of release 0.4.
        var leftovers: [String]
        /// The matchbox learner the board would resume with (a fresh one when no game is
        /// saved); `nil` when the memory is unusable.
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
        /// ``MatchboxLearner/resets``: the learners before this one.
        var resets: Int

        init(_ learner: MatchboxLearner) {
            let total = learner.record.total
            (games, won, drew, lost) = (learner.record.games, total.won, total.drew, total.lost)
            (boxes, refills, digest, resets) = (learner.boxes.count, learner.refills, learner.digest, learner.resets)
        }
    }

    func validate() throws {
        try PathArguments.checkStateDirectory(stateDirectory)
    }

    func run() throws {
        let finding: BoardMemory.Finding
        do {
            finding = try BoardMemory.inspect(directory: stateDirectory, migrating: false)
        } catch {
            throw ExitStatus.reporting(error)
        }
        var found = Found(
            state: finding.problems.isEmpty ? finding.snapshot == nil ? "fresh" : "restored" : "unusable",
            source: finding.source.rawValue, problems: finding.problems, notes: finding.notes, games: finding.games,
            leftovers: TextFile.leftovers(of: BoardMemory.releaseFileNames.map { stateDirectory + "/" + $0 }))
        if let snapshot = finding.snapshot {
            found.cells = snapshot.board.markNames
            found.outcome = OutcomeName.of(snapshot.board.outcome)
        }
        if finding.problems.isEmpty || finding.source == .files { found.learner = FoundLearner(finding.snapshot?.learner ?? MatchboxLearner()) }
        if json {
            guard let line = JSONLine.encode(found) else { throw ExitStatus.inputError }
            say(line)
        } else {
            say(Self.sentences(found, in: stateDirectory.shownPath).joined(separator: "\n"))
        }
        if !found.problems.isEmpty { throw ExitStatus.unusableState }
    }

    static func sentences(_ found: Found, in directory: String) -> [String] {
        var lines: [String] = []
        let database = "\(directory)/\(BoardMemory.fileName)"
        switch found.source {
        case BoardMemory.Finding.Source.database.rawValue where found.problems.isEmpty:
            lines.append("\(database): OK, \(found.games) finished games.")
        case BoardMemory.Finding.Source.files.rawValue:
            lines.append("\(database): none yet; the board imports release 0.4's files at its next start: \(found.games) finished games.")
        case BoardMemory.Finding.Source.nothing.rawValue:
            lines.append("\(database): none yet; the board makes it at its start.")
        default:
            break
        }
        for problem in found.problems { lines.append("\(problem): the board will set it aside and start afresh.") }
        lines += found.notes.map { $0 + "." }
        if let cells = found.cells {
            let marks = cells.map { $0.isEmpty ? "." : $0 }
            let rows = stride(from: 0, to: marks.count, by: 3).map { marks[$0..<min($0 + 3, marks.count)].joined() }
            lines.append("The saved game, which the board restores: \(rows.joined(separator: " / ")) (\(found.outcome ?? "playing")).")
        } else if found.problems.isEmpty {
            lines.append("No saved game: the board starts with a new one.")
        }
        if let learner = found.learner {
            lines.append("The learner: \(learner.games) played (won \(learner.won), drew \(learner.drew), lost \(learner.lost)), "
                + "\(learner.boxes) of its boxes opened, \(learner.refills) refilled; its beads' digest \(learner.digest); "
                + (learner.resets == 0 ? "the board's first learner." : "\(learner.resets) \(learner.resets == 1 ? "reset" : "resets") before it."))
        }
        for leftover in found.leftovers {
            lines.append("\(leftover.shownPath): left by a save that a crash or power cut interrupted; the board removes it when it starts.")
        }
        return lines
    }
}
