import Foundation
import Matchboxes
import TicTacToe

/// Seeded runs of fresh learners against the computer, and the figures taken from them: what
/// LearnerCurves (`make bench`) and LearnerRulesSearch measure the learner's rules by.
public enum LearnerRuns {
    /// Who starts every game of a run: the learner ("first player") or the computer ("second").
    public enum Side: String, CaseIterable, Sendable {
        case first, second
        public var starter: Player { self == .first ? .o : .x }
    }

    /// How many games in a row the learner must not lose to have learnt to hold its opponent.
    public static let unbeaten = 20
    /// The games a loss rate is taken over: the last hundred of a thousand, as the views show it.
    public static let late = 901...1000

    /// A fresh learner's results, game by game, against the computer at `level`, `starter`
    /// starting each game (both when nil, taking turns, X first); the learner's and the
    /// computer's draws seeded from `seed`.
    public static func results(_ rules: LearnerRules, against level: ComputerLevel, starter: Player?, games: Int, seed: UInt64) -> [LearnerResult] {
        var learner = MatchboxLearner(rules: rules)
        var computer = ComputerPlayer(level: level, random: SeededRandom(seed: seed &* 1_000_003))
        var random = SeededRandom(seed: seed)
        return (0..<games).map { game in
            TrainingGame.play(&learner, against: &computer, starter: starter ?? (game % 2 == 0 ? .x : .o), using: &random)
        }
    }

    /// Every seed's results (in the seeds' order), the seeds shared among the processors.
    public static func everySeed(_ seeds: [UInt64], _ rules: LearnerRules, against level: ComputerLevel, starter: Player?, games: Int) -> [[LearnerResult]] {
        let runs = Guarded(Array(repeating: [LearnerResult](), count: seeds.count))
        DispatchQueue.concurrentPerform(iterations: seeds.count) { index in
            let played = results(rules, against: level, starter: starter, games: games, seed: seeds[index])
            runs.withLock { $0[index] = played }
        }
        return runs.withLock { $0 }
    }

    /// The game (counting from 1) that ends the first run of `run` games in a row not lost; one
    /// past the games played when there is none.
    public static func firstRun(of run: Int = unbeaten, in results: [LearnerResult]) -> Int {
        var length = 0
        for (index, result) in results.enumerated() {
            length = result == .lost ? 0 : length + 1
            if length == run { return index + 1 }
        }
        return results.count + 1
    }

    /// The share (0–1) of `result` in games `range` (counting from 1).
    public static func share(of result: LearnerResult, in results: [LearnerResult], games range: ClosedRange<Int>) -> Double {
        let slice = results[(range.lowerBound - 1)..<range.upperBound]
        return Double(slice.filter { $0 == result }.count) / Double(slice.count)
    }

    /// The value below which `fraction` of `values` lie (linear between neighbours).
    public static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let position = fraction * Double(sorted.count - 1)
        let below = Int(position.rounded(.down)), above = min(below + 1, sorted.count - 1)
        return sorted[below] + (sorted[above] - sorted[below]) * (position - Double(below))
    }

    public static func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
}

/// A value shared by the seeds' threads.
final class Guarded<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
