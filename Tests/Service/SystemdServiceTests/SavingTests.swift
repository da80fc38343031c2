import Basics
import BoardAPI
import BoardMemory
import BoardProtocol
import BoardSimulation
import Devices
import Dispatch
import Foundation
import GPIO
import ViewModel
import Reactive
import SimulatedGPIO
import TestSupport
import Testing
import TicTacToe
import WiredBoard
@testable import SystemdService

/// A card that holds each commit until the test lets it finish, and records what it committed.
private final class GatedCommit: Sendable {
    let gate = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    let written = Protected<[GameSnapshot]>([])
    let games = Protected<[PlayedGame]>([])
    let timedOut = Protected(false)

    func commit(_ snapshot: GameSnapshot?, _ games: [PlayedGame]) {
        started.signal()
        // A bound, not a sleep: reached only if the test never opens the gate (a failure).
        if gate.wait(timeout: .now() + .seconds(20)) == .timedOut { timedOut.withValue { $0 = true } }
        if let snapshot { written.withValue { $0.append(snapshot) } }
        self.games.withValue { $0 += games }
    }
}

private func snapshot(moves: Int) -> GameSnapshot {
    let board = (try? Board().playing(Array(Position.all.prefix(moves)))) ?? Board()
    return GameSnapshot(board: board)
}

/// A failure as SQLite reports a full card.
private let full = DatabaseError(path: "/card/board.sqlite3", code: 13, message: "database or disk is full", systemCode: ENOSPC)

@Suite("Saving off the game loop")
struct SavingTests {
    @Test("a blocked disk: submit returns at once, the latest snapshot wins, and finish writes it")
    func latestWins() {
        let disk = GatedCommit()
        let saver = Saver(commit: { snapshot, games in disk.commit(snapshot, games) })
        saver.submit(snapshot(moves: 1))
        disk.started.wait()  // the first is being written, and stuck
        for moves in 2...5 { saver.submit(snapshot(moves: moves)) }
        disk.gate.signal()
        disk.gate.signal()
        saver.finish()
        #expect(disk.written.value == [snapshot(moves: 1), snapshot(moves: 5)])
        #expect(!disk.timedOut.value)
        saver.submit(snapshot(moves: 6))
        disk.gate.signal()  // a commit after finish, if one were made, would not wait for the gate
        saver.flush()
        #expect(disk.written.value.count == 2, "nothing is taken after finish")
    }

    @Test("a failed commit is reported once, not tried again in a loop, and the saver carries on")
    func failures() {
        let written = Protected<[Int]>([])
        let failures = Protected(0)
        let tries = Protected(0)
        let saver = Saver(
            commit: { snapshot, _ throws(DatabaseError) in
                tries.withValue { $0 += 1 }
                if snapshot?.board.moveCount == 1 && tries.value < 50 { throw full }
                written.withValue { $0.append(snapshot?.board.moveCount ?? -1) }
            },
            failed: { _ in failures.withValue { $0 += 1 } })
        saver.submit(snapshot(moves: 1))
        saver.flush()
        saver.submit(snapshot(moves: 2))
        saver.finish()
        #expect(failures.value == 1 && tries.value == 2, "\(tries.value) commits tried")
        #expect(written.value == [2])
    }

    @Test("a snapshot equal to the last one committed is not written again, unless that commit failed")
    func unchanged() {
        let written = Protected<[Int]>([])
        let failing = Protected(false)
        let saver = Saver(commit: { snapshot, _ throws(DatabaseError) in
            if failing.value { throw full }
            written.withValue { $0.append(snapshot?.board.moveCount ?? -1) }
        })
        for moves in [1, 1, 2, 2] {
            saver.submit(snapshot(moves: moves))
            saver.flush()
        }
        failing.withValue { $0 = true }
        saver.submit(snapshot(moves: 3))
        saver.flush()
        failing.withValue { $0 = false }
        saver.submit(snapshot(moves: 2))
        saver.finish()
        #expect(written.value == [1, 2, 2], "the last commit failed, so the database may not hold 2: it is written again")
    }

    @Test("a finished game waits for the snapshot that counts it and goes in the same commit; a failed one is tried again with the next")
    func gameWithItsSnapshot() {
        let commits = Protected<[(Int?, Int)]>([])
        let failing = Protected(false)
        let saver = Saver(commit: { snapshot, games throws(DatabaseError) in
            if failing.value { throw full }
            commits.withValue { $0.append((snapshot?.board.moveCount, games.count)) }
        })
        saver.submit(snapshot(moves: 4))
        saver.flush()
        saver.record(finishedGameForSaving())
        saver.flush()
        #expect(commits.value.map(\.1) == [0], "no commit of a game before its snapshot")
        failing.withValue { $0 = true }
        saver.submit(snapshot(moves: 5))
        saver.flush()
        failing.withValue { $0 = false }
        saver.submit(snapshot(moves: 0))
        saver.flush()
        #expect(commits.value.map(\.0) == [4, 0] && commits.value.map(\.1) == [0, 1])
        // A game no snapshot followed (the board stopped first) is committed at finish, alone.
        saver.record(finishedGameForSaving())
        saver.finish()
        #expect(commits.value.count == 3 && commits.value[2].0 == nil && commits.value[2].1 == 1)
    }

    @Test("a game no board could have played (a recorder's fault) is left out and said: the history keeps every other")
    func impossibleGameLeftOut() {
        let committed = Protected<[Int]>([])
        let refused = Protected<[String]>([])
        let saver = Saver(
            commit: { _, games throws(DatabaseError) in committed.withValue { $0.append(games.count) } },
            failed: { failure in refused.withValue { $0.append("\(failure)") } })
        var impossible = finishedGameForSaving()
        impossible.moves[2].player = "O"
        saver.record(impossible)
        saver.record(finishedGameForSaving())
        saver.submit(snapshot(moves: 0))
        saver.finish()
        #expect(committed.value == [1], "the good game alone")
        #expect(refused.value.count == 1 && refused.value[0].contains("left out of the history") && refused.value[0].contains("moves[2]"), "\(refused.value)")
    }

    @Test("stopping after the last commit failed commits its snapshot with the game before it, never the game alone")
    func finishAfterAFailure() {
        let commits = Protected<[String]>([])
        let failing = Protected(false)
        let saver = Saver(commit: { snapshot, games throws(DatabaseError) in
            if failing.value { throw full }
            commits.withValue { $0.append("\(snapshot?.board.moveCount ?? -1) moves, \(games.count) games") }
        })
        saver.record(finishedGameForSaving())
        failing.withValue { $0 = true }
        saver.submit(snapshot(moves: 5))
        saver.flush()
        failing.withValue { $0 = false }
        saver.finish()
        #expect(commits.value == ["5 moves, 1 games"])
    }

    @Test("a card that keeps failing is logged once per kind of failure and once when it works again; the last good commit stays")
    func failuresLoggedOnce() throws {
        let directory = NSTemporaryDirectory() + "tictactoe-saving-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let memory = try BoardMemory.open(directory: directory, after: try BoardMemory.inspect(directory: directory)).memory
        let failing = Protected(false)
        let log = Protected<[String]>([])
        let logger = ServiceLog(level: .info, prefix: .levelName) { line in log.withValue { $0.append(line) } }
        let saving = Saving(logger: logger, commit: { memory in
            { snapshot, games throws(DatabaseError) in
                if failing.value { throw full }
                try memory.commit(snapshot, games: games)
            }
        })
        let saver = saving.begin(memory)
        saver.submit(snapshot(moves: 1))
        saver.flush()
        failing.withValue { $0 = true }
        for moves in 2...6 {
            saver.submit(snapshot(moves: moves))
            saver.flush()
        }
        #expect(try BoardMemory.inspect(directory: directory).snapshot == snapshot(moves: 1))
        failing.withValue { $0 = false }
        saver.submit(snapshot(moves: 7))
        saver.flush()
        #expect(try BoardMemory.inspect(directory: directory).snapshot == snapshot(moves: 7))
        #expect(saving.saves.count == 2, "only the commits made are counted")
        let lines = log.value
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasPrefix("error: saving the game failed: /card/board.sqlite3: database or disk is full (no space left on device)") == true, "\(lines)")
        #expect(lines.first?.contains("said once while it fails this way") == true)
        #expect(lines.last == "notice: saving the game works again, after 5 failed saves\n", "\(lines)")
    }

    @Test("the service's board: a stuck disk delays neither a press nor a scan step; every change is saved")
    func servedBoard() async throws {
        let directory = NSTemporaryDirectory() + "tictactoe-saving-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let loop = TestScheduler()
        let chip = SimulatedChip(clock: loop)
        let person = SimulatedBoard(chip: chip, pins: .standard, scheduler: loop)
        let disk = GatedCommit()
        let log = Protected<[String]>([])
        let logger = ServiceLog(level: .info, prefix: .levelName) { line in log.withValue { $0.append(line) } }
        let saving = Saving(logger: logger, commit: { _ in { snapshot, games in disk.commit(snapshot, games) } })
        let board = PlayingBoard(
            settings: BoardSettings(), openChip: { chip }, directory: directory, saving: saving, loop: loop, logger: logger)
        let autosave = Autosave(board: board, saving: saving, loop: loop)
        let events = EventLog(board: board, loop: loop, logger: logger)
        for part: any ServicePart in [saving, board, autosave, events] { try part.start() }
        board.board.start()

        person.tap(p(1, 1), bounce: true)
        loop.advance(by: .milliseconds(150))
        disk.started.wait()  // the first save is stuck on the disk
        // The loop goes on: the next press shows, and the scan runs, while the save waits.
        person.tap(p(0, 0), bounce: true)
        let writesBefore = chip.outputHistory.count
        loop.advance(by: .milliseconds(150))
        #expect(person.seenFrame.description == "g . .\n. R .\n. . .\nX:on O:off")
        #expect(chip.outputHistory.count > writesBefore + 100, "scan steps ran while the disk was stuck")
        #expect(disk.written.value.isEmpty)
        disk.gate.signal()
        disk.gate.signal()
        disk.gate.signal()
        for part: any ServicePart in [events, autosave, board, saving] { part.stop() }
        // Each press's snapshot once: the one handed over at stop is the second again, equal to
        // the last written, so not written twice.
        #expect(disk.written.value.map(\.board.moveCount) == [1, 2], "written: \(disk.written.value)")
        #expect(!disk.timedOut.value, "a save ran on the loop and waited for the gate")
        #expect(log.value.contains { $0.contains("X took cell 5.") })
        #expect(chip.consumer(of: PinMap.standard.rows[0]) == nil, "the board's stop released the lines")
    }
}

/// The save queue at its bound: games played flat out while the disk is stuck.
@Suite("Saving at its bound")
struct SavingBoundTests {
    @Test("games played flat out while the commit blocks: what waits stays one snapshot and at most its bound of games; the newest are committed once the disk moves")
    func boundedWhileBlocked() throws {
        let disk = GatedCommit()
        let dropped = Protected(0)
        let saver = Saver(
            commit: { snapshot, games in disk.commit(snapshot, games) },
            failed: { failure in
                if case .gameDropped = failure { dropped.withValue { $0 += 1 } } else { Issue.record("\(failure)") }
            })
        let scheduler = TestScheduler()
        let (presses, input) = Signal<Position>.pipe()
        let viewModel = GameViewModel(positions: presses, scheduler: scheduler)
        let recording = GameRecorder.record(viewModel, clock: { WallTime(seconds: 1_795_000_000) }) { saver.record($0) }
        saver.submit(viewModel.snapshot.value)
        disk.started.wait()  // the saver's thread is stuck in a commit
        let games = 2000
        for _ in 0..<games {
            for cell in [7, 1, 8, 2, 9] {
                input.send(Position(keypadKey: cell)!)
                saver.submit(viewModel.snapshot.value)
            }
            viewModel.newGame.apply()
            saver.submit(viewModel.snapshot.value)
        }
        recording.dispose()
        #expect(dropped.value == games - Saver.pendingGames, "past its bound the oldest game waiting gives way")
        disk.gate.signal()
        disk.gate.signal()
        saver.finish()
        #expect(!disk.timedOut.value)
        #expect(disk.written.value.count == 2, "the stuck commit and the newest snapshot, nothing between")
        #expect(disk.games.value.count == Saver.pendingGames, "the newest games, with the snapshot that counts them")
    }
}

/// X wins along the top row.
private func finishedGameForSaving() -> PlayedGame {
    let moves = [7, 1, 8, 2, 9].enumerated().map { PlayedGame.Move(player: $0.offset % 2 == 0 ? "X" : "O", cell: $0.element, at: "2026-11-23T22:41:05Z") }
    return PlayedGame(
        opponent: "two-players", names: ViewState.Names(x: nil, o: nil), starter: "X", started: "2026-11-23T22:41:05Z",
        finished: "2026-11-23T22:42:00Z", outcome: "x-wins", carriedOver: nil, moves: moves)
}
