import BoardProtocol
import Testing
import WebRules

@Suite("The relay between the pages and the board")
struct BoardRelayTests {
    let hello = #"{"protocol":1,"type":"hello"}"#
    let state1 = #"{"state":{"cells":["","","","","X","","","",""]},"type":"state"}"#
    let state2 = #"{"state":{"cells":["","","","","X","","O","",""]},"type":"state"}"#
    let ok = #"{"command":"press","text":"X took cell 5.","type":"ok"}"#
    let refused = #"{"command":"press","text":"cell 5 is taken","type":"error"}"#
    let press5 = APIRequest.press(cell: 5)

    func connected() -> BoardRelay {
        var relay = BoardRelay(playing: true)
        _ = relay.boardConnected()
        _ = relay.boardSent(hello)
        _ = relay.boardSent(state1)
        return relay
    }

    @Test("a page that joins is told it may play, then gets the board's hello and latest state at once")
    func join() {
        var relay = connected()
        let deliveries = relay.pageJoined(1)
        #expect(deliveries.count == 3)
        #expect(deliveries[0] == .page(1, #"{"play":true,"reachable":true,"type":"web"}"#))
        #expect(deliveries[1] == .page(1, hello))
        #expect(deliveries[2] == .page(1, state1))
    }

    @Test("states go to every page as the board sent them; each reply to the page that asked, in order")
    func routing() {
        var relay = connected()
        _ = relay.pageJoined(1)
        _ = relay.pageJoined(2)
        let result1 = relay.page(2, asked: press5)
        #expect(result1 == [.board(press5.line)])
        let result2 = relay.page(1, asked: press5)
        #expect(result2 == [.board(press5.line)])
        let result3 = relay.boardSent(state2)
        #expect(result3 == [.everyPage(state2)])
        let result4 = relay.boardSent(ok)
        #expect(result4 == [.page(2, ok)])
        let result5 = relay.boardSent(refused)
        #expect(result5 == [.page(1, refused)])
        // A reply nobody waits for (a board that answers twice) goes nowhere.
        let result6 = relay.boardSent(ok)
        #expect(result6 == [])
    }

    @Test("a page has one history on its way at a time: the next is answered busy until the board has answered it")
    func oneHistoryAtATime() {
        var relay = connected()
        _ = relay.pageJoined(1)
        _ = relay.pageJoined(2)
        #expect(relay.page(1, asked: .history(.all)) == [.board(APIRequest.history(.all).line)])
        #expect(relay.page(1, asked: .history(.all)) == [.page(1, BoardRelay.busy("history"))])
        #expect(relay.page(2, asked: .history(.all)) == [.board(APIRequest.history(.all).line)])
        #expect(relay.page(1, asked: .status) == [.board(APIRequest.status.line)])
        let history = #"{"games":[],"type":"history"}"#
        #expect(relay.boardSent(history) == [.page(1, history)])
        #expect(relay.page(1, asked: .history(.all)) == [.board(APIRequest.history(.all).line)])
    }

    @Test("a page that has left, or was closed for falling behind, asks the board nothing more")
    func leftPageAsksNothing() {
        var relay = connected()
        _ = relay.pageJoined(1)
        relay.pageLeft(1)
        #expect(relay.page(1, asked: .history(.all)) == [])
        #expect(relay.page(2, asked: .history(.all)) == [])
    }

    @Test("one page asking as fast as it may holds at most 8 commands at the board, and never keeps another page out; 64 wait at most")
    func waitingBounded() {
        var relay = connected()
        for page in 1...9 { _ = relay.pageJoined(page) }
        var toBoard = 0
        var busy = 0
        for _ in 0..<20 {
            for delivery in relay.page(1, asked: .status) {
                if case .board = delivery { toBoard += 1 }
                if case .page(1, let text) = delivery, text.contains("busy") { busy += 1 }
            }
        }
        #expect(toBoard == BoardRelay.waitingPerPage)
        #expect(busy == 20 - BoardRelay.waitingPerPage)
        #expect(relay.page(2, asked: press5) == [.board(press5.line)])
        // The board answers page 1's first: it may ask again.
        #expect(relay.boardSent(ok) == [.page(1, ok)])
        #expect(relay.page(1, asked: .status) == [.board(APIRequest.status.line)])
        // Every page at its bound: the 65th command waits for none.
        for page in 2...9 {
            for _ in 0..<BoardRelay.waitingPerPage { _ = relay.page(page, asked: .status) }
        }
        let over = relay.page(9, asked: .status)
        #expect(over.count == 1)
        if case .page(9, let text)? = over.first { #expect(text.contains("busy")) } else { Issue.record("\(over)") }
    }

    @Test("a reply to a page that has left is dropped, and the next reply still finds its page")
    func leftPage() {
        var relay = connected()
        _ = relay.pageJoined(1)
        _ = relay.pageJoined(2)
        _ = relay.page(1, asked: press5)
        _ = relay.page(2, asked: .status)
        relay.pageLeft(1)
        let result7 = relay.boardSent(ok)
        #expect(result7 == [])
        let result8 = relay.boardSent(refused)
        #expect(result8 == [.page(2, refused)])
    }

    @Test("when the board goes away: waiting pages get an error, every page is told once, and commands are answered here")
    func boardLost() {
        var relay = connected()
        _ = relay.pageJoined(1)
        _ = relay.pageJoined(2)
        _ = relay.page(1, asked: press5)
        let lost = relay.boardLost(.boardClosed, "the board closed the connection")
        #expect(lost.count == 2)
        guard case .page(1, let error) = lost[0] else {
            Issue.record("the waiting page was not answered: \(lost)")
            return
        }
        #expect(error.contains(#""type":"error""#) && error.contains(#""reason":"board-went-away""#))
        #expect(lost[1] == .everyPage(#"{"play":true,"reachable":false,"reason":"board-closed","text":"the board closed the connection","type":"web"}"#))
        // Trying again and failing the same way is not news.
        let result9 = relay.boardLost(.boardClosed, "the board closed the connection")
        #expect(result9 == [])
        let answer = relay.page(2, asked: press5)
        guard case .page(2, let text) = answer.first, answer.count == 1 else {
            Issue.record("a command to an absent board was not answered here: \(answer)")
            return
        }
        #expect(text.contains("cannot be reached") && text.contains(#""reason":"board-unreachable""#))
        // A page that joins now hears that the board is away, not an old state.
        let result10 = relay.pageJoined(3)
        #expect(result10 == [.page(3, #"{"play":true,"reachable":false,"reason":"board-closed","text":"the board closed the connection","type":"web"}"#)])
        // Back: every page is told, and the board's own hello and state follow.
        let result11 = relay.boardConnected()
        #expect(result11 == [.everyPage(#"{"play":true,"reachable":true,"type":"web"}"#)])
        let result12 = relay.boardSent(state2)
        #expect(result12 == [.everyPage(state2)])
    }

    @Test("a watching relay says so; a bye and unreadable lines reach no page; a type of a later board reaches all")
    func otherLines() {
        var relay = BoardRelay(playing: false)
        let result13 = relay.pageJoined(1)
        #expect(result13 == [.page(1, #"{"play":false,"reachable":false,"reason":"connecting","text":"connecting to the board","type":"web"}"#)])
        _ = relay.boardConnected()
        let result14 = relay.boardSent(#"{"text":"the board is stopping","type":"bye"}"#)
        #expect(result14 == [])
        let result15 = relay.boardSent("not json")
        #expect(result15 == [])
        let result16 = relay.boardSent(#"{"type":"sparkle"}"#)
        #expect(result16 == [.everyPage(#"{"type":"sparkle"}"#)])
    }
}
