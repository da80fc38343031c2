import Foundation
import ViewModel
import TestSupport
import Testing
import TicTacToe
@testable import SystemdService

@Suite("State files, mutated")
struct StateFileFuzzTests {
    /// How many mutated state files each run loads (the figure in the closing note of issue 19).
    static let cases = 2000

    @Test("every mutation of a saved game is restored or set aside as unusable; a restored one saves and loads back the same", .soak)
    func mutated() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tictactoe-fuzz-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = StateStore(directory: directory)
        try store.prepare()
        let board = try Board().playing([p(1, 1), p(0, 0), p(2, 2)])
        try store.save(GameSnapshot(board: board, nextStarter: .o, opponent: .computer(ComputerLevel(rawValue: 2) ?? .random),
                                    scores: [.person: Score(xWins: 3, oWins: 1, draws: 2), .computer(ComputerLevel(rawValue: 2) ?? .random): Score(oWins: 4)]))
        let saved = try String(contentsOfFile: store.path, encoding: .utf8)

        var mutator = Mutator(seed: saved, randomSeed: 0x57A7E)
        var restored = 0, unusable = 0
        for _ in 0..<Self.cases {
            try Data(mutator.next().utf8).write(to: URL(fileURLWithPath: store.path))
            switch store.load() {
            case .restored(let snapshot):
                restored += 1
                try store.save(snapshot)
                #expect(store.load() == .restored(snapshot), "a restored game did not survive a save")
            case .unusable(let problem):
                unusable += 1
                #expect(problem.hasPrefix(store.path))
                let raw = problem.unicodeScalars.contains { $0.isInvisible }
                #expect(!raw, "raw control character in: \(problem.debugDescription)")
            case .fresh:
                Issue.record("a file that exists was read as no file")
            }
        }
        #expect(restored > 0 && unusable > Self.cases / 2, "\(restored) restored, \(unusable) unusable")
    }
}
