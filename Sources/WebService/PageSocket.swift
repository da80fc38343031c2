import Basics
import BoardAPI
import FlyingFox
import WebView

/// One page's WebSocket: the page joins the ``PageHub`` and is sent what the board shows; what
/// it sends is parsed (``PageRequest``), held to the allowance of commands a second
/// (``CommandAllowance``) and passed on to the board, or answered here (a `ping`, a refusal).
struct PageSocket: WSMessageHandler {
    let hub: PageHub
    let now: @Sendable () -> MonotonicInstant

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        let (page, messages) = hub.join()
        Task { [hub, now] in
            var allowance = CommandAllowance()
            let playing = hub.playing
            for await message in client {
                switch message {
                case .text(let text):
                    switch PageRequest.parse(Array(text.utf8), playing: playing) {
                    case .success(.ping):
                        hub.send(#"{"type":"pong"}"#, to: page)
                    case .success(.board(let request)):
                        if allowance.take(at: now()) {
                            hub.page(page, asked: request)
                        } else {
                            hub.send(BoardRelay.encode(APIMessage.error(request.command, allowance.refusal)), to: page)
                        }
                    case .failure(let problem):
                        hub.send(BoardRelay.encode(APIMessage.error(problem.command, problem.text)), to: page)
                    }
                case .data:
                    hub.send(BoardRelay.encode(APIMessage.error(nil, "the page sends text messages, not binary ones")), to: page)
                case .close:
                    break
                }
            }
            hub.leave(page)
        }
        return messages
    }
}
