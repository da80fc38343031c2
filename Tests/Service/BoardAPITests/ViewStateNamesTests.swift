@testable import BoardAPI
import BoardProtocol
import Lights
import Testing
import TicTacToe
import ViewModel

@Suite("The state's names a client tells apart")
struct ViewStateNamesTests {
    @Test("the headline of a choice of opponent is the table's; the boards seen and the game before are the session's")
    func names() throws {
        #expect(ViewState.choosingOpponent == Headline.choosingOpponent(.person).name)
        var state = SessionState(snapshot: GameSnapshot(board: Board(starter: .x), nextStarter: .o, opponent: .person))
        _ = state.see([SeenBoard(name: "attic", invites: true), SeenBoard(name: "kitchen", invites: false)])
        let shown = ViewState(state, players: PlayerNames(), marks: .standard)
        #expect(shown.boardsSeen == [.init(board: "attic", invites: true), .init(board: "kitchen", invites: false)])
        #expect(shown.headline != ViewState.choosingOpponent)
        _ = state.choose(.board(try #require(RemoteBoard(name: "attic", side: .x))))
        #expect(ViewState(state, players: PlayerNames(), marks: .standard).headline == ViewState.choosingOpponent)
    }
}
