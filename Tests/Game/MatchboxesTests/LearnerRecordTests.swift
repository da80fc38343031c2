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

    @Test("a record read back must be the tens its game count leaves: whole tens but the last, as many as the games fill, within the bound")
    func readBack() {
        let ten = LearnerRecord.Tally(won: 4, drew: 4, lost: 2), five = LearnerRecord.Tally(drew: 3, lost: 2)
        #expect(LearnerRecord(tens: [ten, LearnerRecord.Tally(won: 1)], games: 11) != nil)
        #expect(LearnerRecord(tens: [], games: 0) != nil)
        let kept = Array(repeating: ten, count: LearnerRecord.keptTens - 1)
        #expect(LearnerRecord(tens: kept + [five], games: 10_005) != nil, "older tens were dropped")
        #expect(LearnerRecord(tens: kept + [ten], games: 20_000) != nil)
        #expect(LearnerRecord(tens: kept + [five], games: 10_006) == nil, "the last ten holds the games left over")
        #expect(LearnerRecord(tens: [ten], games: 9_999) == nil, "tens missing for the games counted")
        #expect(LearnerRecord(tens: [ten, ten], games: 10) == nil, "more tens than the games")
        #expect(LearnerRecord(tens: [ten, five], games: 25) == nil)
        #expect(LearnerRecord(tens: [], games: 3) == nil)
        #expect(LearnerRecord(tens: [LearnerRecord.Tally(won: 1), ten], games: 11) == nil, "a partial ten before the last")
        #expect(LearnerRecord(tens: [ten], games: 9) == nil)
        #expect(LearnerRecord(tens: [LearnerRecord.Tally(won: 11)], games: 11) == nil)
        #expect(LearnerRecord(tens: [LearnerRecord.Tally(won: 12, lost: -2)], games: 10) == nil)
        #expect(LearnerRecord(tens: [LearnerRecord.Tally()], games: 0) == nil, "an empty ten")
        #expect(LearnerRecord(tens: kept + [ten, ten], games: 10_010) == nil, "past the bound")
        #expect(LearnerRecord(tens: [ten], games: -10) == nil)
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

extension LearnerRecordTests {
    @Test("its latest games are the last ten tens: every game up to 100, then 91 to 100 as a ten fills, counted game by game")
    func latest() {
        var record = LearnerRecord()
        var played: [LearnerResult] = []
        var random = SeededRandom(seed: 54)
        #expect(record.latest == LearnerRecord.Tally())
        for game in 1...137 {
            let result = LearnerResult.allCases[Int.random(in: 0..<3, using: &random)]
            record.add(result)
            played.append(result)
            // The window, from the results themselves: the games of the tens that hold the last ten of them.
            let window = played.suffix(game <= 100 ? game : 90 + ((game - 1) % 10 + 1))
            let expected = LearnerRecord.Tally(
                won: window.filter { $0 == .won }.count, drew: window.filter { $0 == .drew }.count, lost: window.filter { $0 == .lost }.count)
            #expect(record.latest == expected, "after game \(game)")
        }
        #expect(record.latest.games == 97 && record.total.games == 137)
    }
}
