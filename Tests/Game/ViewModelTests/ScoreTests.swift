import Testing
import TicTacToe
@testable import ViewModel

@Suite("Score")
struct ScoreTests {
    @Test("each outcome counts once; a game in progress counts nothing")
    func counts() {
        let score = Score().recording(.won(by: .x, along: WinningLines())).recording(.draw)
            .recording(.won(by: .o, along: WinningLines())).recording(.won(by: .x, along: WinningLines())).recording(.inProgress(next: .o))
        #expect(score == Score(xWins: 2, oWins: 1, draws: 1))
    }

    @Test("a count at its limit (only a forged saved file gets there) stays there instead of trapping")
    func saturates() {
        let limit = Score.countLimit
        let full = Score(xWins: limit, oWins: limit, draws: limit)
        #expect(full.recording(.won(by: .x, along: WinningLines())) == full)
        #expect(full.recording(.won(by: .o, along: WinningLines())) == full)
        #expect(full.recording(.draw) == full)
        #expect(Score(xWins: limit - 1).recording(.won(by: .x, along: WinningLines())).xWins == limit)
        #expect(limit == 4_294_967_295)
    }
}

@Suite("Scoreboard")
struct ScoreboardTests {
    @Test("each pairing keeps its own score; the pairings played come back as they went in")
    func pairingsApart() {
        var board = Scoreboard()
        #expect(Opponent.allCases.allSatisfy { board[$0] == Score() })
        #expect(board.played.isEmpty)
        for (index, opponent) in Opponent.allCases.enumerated() {
            board[opponent] = Score(xWins: index, oWins: 10 * index, draws: 100 * index + 1)
        }
        for (index, opponent) in Opponent.allCases.enumerated() {
            #expect(board[opponent] == Score(xWins: index, oWins: 10 * index, draws: 100 * index + 1), "\(opponent)")
        }
        let played = board.played
        #expect(played.count == Opponent.allCases.count)
        #expect(Scoreboard(played) == board)
        board[.computer(.perfect)] = Score()
        #expect(board.played[.computer(.perfect)] == nil && board.played.count == Opponent.allCases.count - 1)
        #expect(Scoreboard(board.played) == board)
    }

    @Test("counts run to the limit; a larger one set is kept as the limit; equal boards hash alike")
    func limitsAndEquality() {
        let limit = Score.countLimit
        var board = Scoreboard()
        board[.person] = Score(xWins: limit, oWins: limit + 1, draws: Int.max)
        #expect(board[.person] == Score(xWins: limit, oWins: limit, draws: limit))
        let same = Scoreboard([.person: Score(xWins: limit, oWins: limit, draws: limit)])
        #expect(board == same && board.hashValue == same.hashValue)
        #expect(board != Scoreboard())
    }
}
