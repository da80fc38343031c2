import Basics
import BoardProtocol
import Testing
import WebRules

/// The web view's own refusals carry their reasons as the board's do (``ErrorReason``).
@Suite("The web view's reasons")
struct WebReasonTests {
    private static func failure(_ text: String, playing: Bool = true) -> RequestError? {
        guard case .failure(let error) = PageRequest.parse(Array(text.utf8), playing: playing) else { return nil }
        return error
    }

    @Test("a message too long, a change on a page for watching, another board's report, too many commands a second")
    func pageRefusals() {
        #expect(Self.failure(String(repeating: " ", count: PageRequest.maximumLength + 1))?.reason == .tooLong)
        #expect(Self.failure(#"{"command":"press","cell":5}"#, playing: false)?.reason == .watchOnly)
        #expect(Self.failure(#"{"command":"fly"}"#)?.reason == .unknownCommand)
        // Another board's moves come from the network link alone, never from a page, playing or not.
        let heard = #"{"command":"heard","board":"kitchen","online":true,"game":{"mark":"X","number":1,"moves":[5]}}"#
        #expect(Self.failure(heard)?.reason == .linkOnly && Self.failure(heard, playing: false)?.reason == .linkOnly)
        let seen = #"{"command":"seen","boards":[{"board":"kitchen","invites":true}]}"#
        #expect(Self.failure(seen)?.reason == .linkOnly && Self.failure(seen, playing: false)?.reason == .linkOnly)
        #expect(CommandAllowance().refusal(of: "press").reason == .tooManyCommands)
    }

    /// The text of each delivery, whoever it goes to.
    private static func texts(_ deliveries: [BoardRelay.Delivery]) -> String {
        deliveries.map { delivery in
            switch delivery {
            case .page(_, let text), .everyPage(let text), .board(let text): text
            }
        }.joined(separator: "\n")
    }

    @Test("busy, unreachable, gone before it answered, and why the board cannot be reached, each by its reason")
    func relayReasons() {
        var relay = BoardRelay(playing: true)
        _ = relay.pageJoined(1)
        let away = relay.page(1, asked: .status)
        #expect(away.count == 1 && Self.texts(away).contains(#""reason":"board-unreachable""#))
        #expect(BoardRelay.busy("press").contains(#""reason":"busy""#))
        let lost = relay.boardLost(.boardNotListening, "no board listening")
        #expect(Self.texts(lost).contains(#""reason":"board-not-listening""#))
        _ = relay.boardConnected()
        _ = relay.page(1, asked: .status)
        #expect(Self.texts(relay.boardLost(.boardClosed, "closed")).contains(#""reason":"board-went-away""#))
    }
}
