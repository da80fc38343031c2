import Basics
import BoardAPI
@testable import BoardMemory
import BoardProtocol
import Foundation
import TestSupport
import Testing
import TicTacToe
import ViewModel

/// Hostile files: the board's database and release 0.4's files, mutated, read as a start reads
/// them. None crashes or hangs; each is used whole or named unusable with a sentence.
@Suite("Board memory files, mutated")
struct MutatedFilesTests {
    /// How many mutated databases and state files each run reads.
    static let cases = 1500

    @Test("every mutation of a database (bit flips, cuts, runs of bytes) is read whole or named unusable, and set aside; a restored game commits again", .soak)
    func databases() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = BoardMemory.path(in: folder)
        let snapshot = GameSnapshot(
            board: try Board().playing([p(1, 1), p(0, 0)]), nextStarter: .o, opponent: .learner,
            scores: [.learner: Score(xWins: 3, oWins: 1, draws: 2)], learner: taughtLearner(games: 20))
        try openedMemory(in: folder).commit(snapshot, games: [finishedGame(), finishedGame(opponent: "learner", o: nil)])
        try Database(path: path, mode: .readWrite).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var random = SeededRandom(seed: 0xDB)
        var used = 0, unusable = 0
        for _ in 0..<Self.cases {
            var bytes = original
            switch random.next() % 4 {
            case 0:
                for _ in 0...(random.next() % 8) {
                    let at = Int(random.next() % UInt64(bytes.count))
                    bytes[at] ^= UInt8(1 << (random.next() % 8))
                }
            case 1: bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count))))
            case 2:
                let at = Int(random.next() % UInt64(bytes.count))
                for index in at..<min(bytes.count, at + Int(random.next() % 600)) { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
            default:
                // A page of a foreign file: another page of this one.
                let pages = bytes.count / 4096
                let from = Int(random.next() % UInt64(pages)) * 4096, to = Int(random.next() % UInt64(pages)) * 4096
                bytes.replaceSubrange(to..<to + 4096, with: bytes[from..<from + 4096])
            }
            for part in BoardMemory.fileNames { unlink(folder + "/" + part) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let finding: BoardMemory.Finding
            do {
                finding = try BoardMemory.inspect(directory: folder)
            } catch {
                // Only a layout from the future is refused outright; a flipped byte can say so.
                guard case MemoryError.newer = error else { throw error }
                unusable += 1
                continue
            }
            if let problem = finding.problems.first {
                unusable += 1
                #expect(problem.hasPrefix(path) && !problem.unicodeScalars.contains { $0.isInvisible }, "\(problem.debugDescription)")
                #expect(finding.snapshot == nil)
            } else {
                used += 1
                let (memory, _) = try BoardMemory.open(directory: folder, after: finding)
                if let restored = finding.snapshot { try memory.commit(restored) }
                #expect(try BoardMemory.inspect(directory: folder).snapshot == finding.snapshot)
            }
        }
        #expect(used > 0 && unusable > 0, "\(used) used, \(unusable) unusable")
    }

    @Test("every mutation of release 0.4's state file is imported or named unusable with a sentence", .soak)
    func stateFiles() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let seed = try String(contentsOfFile: ImportTests.fixtures + "/state.json", encoding: .utf8)
        var mutator = Mutator(seed: seed, randomSeed: 0x57A7E)
        var read = 0, refused = 0
        for _ in 0..<Self.cases {
            try Data(mutator.next().utf8).write(to: URL(fileURLWithPath: folder + "/state.json"))
            switch LegacyFiles.readState(folder + "/state.json") {
            case .success: read += 1
            case .failure(let problem):
                refused += 1
                #expect(!problem.description.unicodeScalars.contains { $0.isInvisible }, "raw text in: \(problem.description.debugDescription)")
            }
        }
        #expect(read > 0 && refused > Self.cases / 2, "\(read) read, \(refused) refused")
    }
}
