import Testing
import TicTacToe
@testable import Presentation

@Suite("Score")
struct ScoreTests {
    @Test("each outcome counts once; a game in progress counts nothing")
    func counts() {
        let score = Score().recording(.won(by: .x, along: WinningLines())).recording(.draw)
            .recording(.won(by: .o, along: WinningLines())).recording(.won(by: .x, along: WinningLines())).recording(.inProgress(next: .o))
        #expect(score == Score(xWins: 2, oWins: 1, draws: 1))
    }

    @Test("a count at its maximum (only a forged saved file gets there) stays there instead of trapping")
    func saturates() {
        let full = Score(xWins: .max, oWins: .max, draws: .max)
        #expect(full.recording(.won(by: .x, along: WinningLines())) == full)
        #expect(full.recording(.won(by: .o, along: WinningLines())) == full)
        #expect(full.recording(.draw) == full)
        #expect(Score(xWins: .max - 1).recording(.won(by: .x, along: WinningLines())).xWins == .max)
    }
}
