import Testing
import TicTacToe
@testable import Matchboxes

@Suite("The learner's record")
struct LearnerRecordTests {
    @Test("results go in tens in order, the last ten partial; only the last 1,000 tens are kept, every game counted")
    func tens() {
        var record = LearnerRecord()
        let results: [LearnerResult] = (0..<25).map { [.won, .drew, .lost, .drew][$0 % 4] }
        for result in results { record.add(result) }
        #expect(record.games == 25)
        #expect(record.tens.map(\.games) == [10, 10, 5])
        #expect(record.tens[0] == LearnerRecord.Tally(won: 3, drew: 5, lost: 2))
        #expect(record.total == LearnerRecord.Tally(won: 7, drew: 12, lost: 6))
        for _ in 0..<(LearnerRecord.keptTens * 10) { record.add(.drew) }
        #expect(record.tens.count == LearnerRecord.keptTens)
        #expect(record.games == 25 + LearnerRecord.keptTens * 10)
        #expect(record.tens.first?.games == 10 && record.tens.last?.games == 5, "the oldest tens went, whole")
    }

    @Test("a record read back must be whole tens but the last, within the bound, with games counting them")
    func readBack() {
        let ten = LearnerRecord.Tally(won: 4, drew: 4, lost: 2)
        #expect(LearnerRecord(tens: [ten, LearnerRecord.Tally(won: 1)], games: 11) != nil)
        #expect(LearnerRecord(tens: [ten], games: 9_999) != nil, "older tens were dropped")
        #expect(LearnerRecord(tens: [LearnerRecord.Tally(won: 1), ten], games: 11) == nil, "a partial ten before the last")
        #expect(LearnerRecord(tens: [ten], games: 9) == nil)
        #expect(LearnerRecord(tens: [LearnerRecord.Tally(won: 11)], games: 11) == nil)
        #expect(LearnerRecord(tens: [LearnerRecord.Tally(won: 12, lost: -2)], games: 10) == nil)
        #expect(LearnerRecord(tens: [LearnerRecord.Tally()], games: 0) == nil, "an empty ten")
        #expect(LearnerRecord(tens: Array(repeating: ten, count: LearnerRecord.keptTens + 1), games: 20_000) == nil)
    }
}

extension LearnerRecordTests {
    @Test("the kept total is the tens' sum, as results come, as tens are dropped and as a record is read back")
    func totalKept() throws {
        var record = LearnerRecord()
        var random = SeededRandom(seed: 41)
        for _ in 0..<(LearnerRecord.keptTens * 10 + 37) {
            record.add(LearnerResult.allCases[Int.random(in: 0..<3, using: &random)])
        }
        let summed = record.tens.reduce(into: LearnerRecord.Tally()) { $0.won += $1.won; $0.drew += $1.drew; $0.lost += $1.lost }
        #expect(record.total == summed && summed.games == LearnerRecord.keptTens * 10 - 3)
        let read = try #require(LearnerRecord(tens: record.tens, games: record.games))
        #expect(read == record)
    }
}
