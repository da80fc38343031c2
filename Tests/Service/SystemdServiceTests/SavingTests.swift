import Basics
import BoardAPI
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

/// A save that waits for the test to let it finish, and records what it wrote.
private final class GatedSave: Sendable {
    let gate = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    let written = Protected<[GameSnapshot]>([])
    let timedOut = Protected(false)

    func save(_ snapshot: GameSnapshot) {
        started.signal()
        // A bound, not a sleep: reached only if the test never opens the gate (a failure).
        if gate.wait(timeout: .now() + .seconds(20)) == .timedOut { timedOut.withValue { $0 = true } }
        written.withValue { $0.append(snapshot) }
    }
}

private func snapshot(moves: Int) -> GameSnapshot {
    let board = (try? Board().playing(Array(Position.all.prefix(moves)))) ?? Board()
    return GameSnapshot(board: board)
}

@Suite("Saving off the game loop")
struct SavingTests {
    @Test("a blocked disk: submit returns at once, the latest snapshot wins, and finish writes it")
    func latestWins() {
        let disk = GatedSave()
        let saver = SnapshotSaver(save: { disk.save($0) }, failed: { _ in })
        saver.submit(snapshot(moves: 1))
        disk.started.wait()  // the first is being written, and stuck
        for moves in 2...5 { saver.submit(snapshot(moves: moves)) }
        disk.gate.signal()
        disk.gate.signal()
        saver.finish()
        #expect(disk.written.value == [snapshot(moves: 1), snapshot(moves: 5)])
        #expect(!disk.timedOut.value)
        saver.submit(snapshot(moves: 6))
        #expect(disk.written.value.count == 2, "nothing is taken after finish")
    }

    @Test("a failed write is reported and the saver carries on")
    func failures() {
        struct Full: Error {}
        let written = Protected<[Int]>([])
        let failures = Protected(0)
        let saver = SnapshotSaver(
            save: { snapshot in
                if snapshot.board.moveCount == 1 { throw Full() }
                written.withValue { $0.append(snapshot.board.moveCount) }
            },
            failed: { _ in failures.withValue { $0 += 1 } })
        saver.submit(snapshot(moves: 1))
        saver.finish()
        let second = SnapshotSaver(save: { saved in written.withValue { $0.append(saved.board.moveCount) } }, failed: { _ in })
        second.submit(snapshot(moves: 2))
        second.finish()
        #expect(failures.value == 1)
        #expect(written.value == [2])
    }

    @Test("a snapshot equal to the last one written is not written again, unless that write failed")
    func unchanged() {
        struct Full: Error {}
        let written = Protected<[Int]>([])
        let full = Protected(false)
        let saver = SnapshotSaver(
            save: { snapshot in
                if full.value { throw Full() }
                written.withValue { $0.append(snapshot.board.moveCount) }
            },
            failed: { _ in })
        for moves in [1, 1, 2, 2] {
            saver.submit(snapshot(moves: moves))
            saver.flush()
        }
        full.withValue { $0 = true }
        saver.submit(snapshot(moves: 3))
        saver.flush()
        full.withValue { $0 = false }
        saver.submit(snapshot(moves: 2))
        saver.finish()
        #expect(written.value == [1, 2, 2], "the last write failed, so the file may not hold 2: it is written again")
    }

    @Test("a store that keeps failing is logged once per kind of failure and once when it works again; the last good file stays")
    func failuresLoggedOnce() throws {
        let directory = NSTemporaryDirectory() + "tictactoe-saving-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = StateStore(directory: directory)
        try store.prepare()
        let log = Protected<[String]>([])
        let logger = ServiceLog(level: .info, prefix: .levelName) { line in log.withValue { $0.append(line) } }
        let saving = Saving(store: store, logger: logger)
        saving.saver.submit(snapshot(moves: 1))
        saving.saver.flush()
        // A directory where the file was (the file kept beside it): every save fails, as a
        // rename over a directory does, and leaves nothing behind.
        #expect(rename(store.path, store.path + ".good") == 0)
        #expect(mkdir(store.path, 0o755) == 0)
        for moves in 2...6 {
            saving.saver.submit(snapshot(moves: moves))
            saving.saver.flush()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["state.json", "state.json.good"])
        #expect(rmdir(store.path) == 0)
        saving.saver.submit(snapshot(moves: 7))
        saving.saver.flush()
        #expect(store.load().snapshot == snapshot(moves: 7))
        #expect(saving.saves.count == 2, "only the saves on disk are counted")
        #expect(saving.saves.last != nil)
        let lines = log.value
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasPrefix("error: saving the game failed: \(store.path): cannot write the file: is a directory") == true, "\(lines)")
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
        let disk = GatedSave()
        let saving = Saving(saver: SnapshotSaver(save: { disk.save($0) }, failed: { _ in }))
        let log = Protected<[String]>([])
        let logger = ServiceLog(level: .info, prefix: .levelName) { line in log.withValue { $0.append(line) } }
        let board = PlayingBoard(
            settings: BoardSettings(), openChip: { chip }, store: StateStore(directory: directory), loop: loop, logger: logger)
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
    @Test("games played flat out while the save blocks: what waits stays one snapshot and at most the history's bound; all is written once the disk moves")
    func boundedWhileBlocked() throws {
        let folder = NSTemporaryDirectory() + "bound-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let disk = GatedSave()
        let stamps = Protected<[Int?]>([])
        let saver = SnapshotSaver(
            save: { snapshot, lastGame in
                stamps.withValue { $0.append(lastGame) }
                disk.save(snapshot)
            },
            failed: { error in Issue.record("\(error)") })
        let history = GameHistory(file: folder + "/history.jsonl")
        saver.attach(history)
        let scheduler = TestScheduler()
        let (presses, input) = Signal<Position>.pipe()
        let viewModel = GameViewModel(positions: presses, scheduler: scheduler)
        let recording = history.record(viewModel, clock: { WallTime(seconds: 1_795_000_000) })
        saver.submit(viewModel.snapshot.value)
        disk.started.wait()  // the saver's thread is stuck in the state's save
        var mostWaiting = 0
        let games = 2000
        for _ in 0..<games {
            for cell in [7, 1, 8, 2, 9] {
                input.send(Position(keypadKey: cell)!)
                saver.submit(viewModel.snapshot.value)
            }
            viewModel.newGame.apply()
            saver.submit(viewModel.snapshot.value)
            mostWaiting = max(mostWaiting, history.pendingBytes)
        }
        recording.dispose()
        // The old queue held a copy of the whole history per game: about 2000 × 70 KB here.
        #expect(mostWaiting <= GameHistory.pendingLimit, "\(mostWaiting) bytes of lines waited")
        #expect(history.pendingBytes == 0, "past the bound the lines give way to one rewrite")
        disk.gate.signal()
        disk.gate.signal()
        saver.finish()
        #expect(!disk.timedOut.value)
        #expect(disk.written.value.count == 2, "the stuck save and the newest one, nothing between")
        #expect(stamps.value.last == games, "the last state names the last game")
        let reread = GameHistory(file: folder + "/history.jsonl", lastGameOfState: games)
        #expect(reread.games.count == GameHistory.capacity && reread.lastGame == games && reread.notes.isEmpty)
        #expect(reread.games == history.games)
    }

    @Test("a history that cannot be written holds back the state that would name its game; once it can, both are written, the line first")
    func bothOrNeitherWhenTheHistoryFails() throws {
        let folder = NSTemporaryDirectory() + "both-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/history.jsonl"
        let stamps = Protected<[Int?]>([])
        let failures = Protected<[String]>([])
        let saver = SnapshotSaver(
            save: { _, lastGame in stamps.withValue { $0.append(lastGame) } },
            failed: { error in failures.withValue { $0.append("\(error)") } })
        let history = GameHistory(file: file)
        saver.attach(history)
        let scheduler = TestScheduler()
        let (presses, input) = Signal<Position>.pipe()
        let viewModel = GameViewModel(positions: presses, scheduler: scheduler)
        let recording = history.record(viewModel, clock: { WallTime(seconds: 1_795_000_000) })
        defer { recording.dispose() }
        // A directory at the journal's name: a rename cannot replace it, so its writes fail.
        try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)
        for cell in [7, 1, 8, 2, 9] { input.send(Position(keypadKey: cell)!) }
        saver.submit(viewModel.snapshot.value)
        saver.flush()
        #expect(stamps.value.isEmpty, "a state naming game 1 was written while its line was not")
        #expect(failures.value.first?.hasPrefix("\(file): cannot write the file: is a directory") == true, "\(failures.value)")
        try FileManager.default.removeItem(atPath: file)
        viewModel.newGame.apply()
        saver.submit(viewModel.snapshot.value)
        saver.finish()
        #expect(stamps.value == [1])
        #expect(GameHistory(file: file, lastGameOfState: 1).games.count == 1)
    }
}
