import Basics
import BoardProtocol
import WebView

/// One page's WebSocket: the page joins the ``PageHub`` and is sent what the board shows; what
/// it sends is parsed (``PageRequest``), held to the allowance of commands a second
/// (``CommandAllowance``) and passed on to the board, or answered here (a `ping`, a refusal).
///
/// The protocol's own frames are answered here too (a ping frame with a pong, a close with a
/// close). The page's frames are written one at a time, each taken from the page's stream when
/// the one before is written, so what waits for a page is what the hub holds for it, which is
/// bounded in bytes.
///
/// The reading of the page's frames never outlives the writing of its frames: when the hub
/// closes a page that fell behind, or the writing stops on an error (the page has gone), the
/// reading is cancelled and awaited before the connection is closed. A socket closed while a
/// read of it still waits would leave that wait registered under the socket's number, where
/// the next connection given the number is never served (seen with FlyingSocks' own queue,
/// before `ReadinessQueue`: a page's upgrade unanswered for 20 s).
struct PageSocket: Sendable {
    let hub: PageHub
    let now: @Sendable () -> MonotonicInstant

    /// Answers the upgrade and serves the page until one side ends.
    func serve(_ connection: PageConnection, accept: String) async {
        let (page, frames) = hub.join()
        let reading = Task { [hub, now] in
            await Self.read(connection, page: page, hub: hub, now: now)
        }
        do {
            try await connection.write(PageResponse.switching(accept: accept))
            for await frame in frames { try await connection.write(frame.encoded) }
        } catch {
            // The connection broke: the page has gone.
        }
        reading.cancel()
        await reading.value
    }

    private static func read(_ connection: PageConnection, page: BoardRelay.PageID, hub: PageHub, now: @Sendable () -> MonotonicInstant) async {
        var allowance = CommandAllowance()
        let playing = hub.playing
        do {
            reading: while true {
                let frame = try await connection.frame()
                switch frame.opcode {
                case .text:
                    answer(frame.payload, from: page, hub: hub, allowance: &allowance, at: now(), playing: playing)
                case .binary, .continuation:
                    hub.send(BoardRelay.encode(APIMessage.error(nil, .notJSON, "the page sends text messages, not binary ones")), to: page)
                case .ping:
                    hub.send(PageFrame(opcode: .pong, payload: frame.payload), to: page)
                case .close:
                    hub.close(page, answering: frame)
                    break reading
                case .pong:
                    break
                }
            }
        } catch {
            // The connection broke, or sent what no browser sends: the page has gone.
        }
        hub.leave(page)
    }

    private static func answer(
        _ bytes: [UInt8], from page: BoardRelay.PageID, hub: PageHub, allowance: inout CommandAllowance, at moment: MonotonicInstant,
        playing: Bool
    ) {
        switch PageRequest.parse(bytes, playing: playing) {
        case .success(.ping):
            hub.send(#"{"type":"pong"}"#, to: page)
        case .success(.board(let request)):
            if allowance.take(at: moment) {
                hub.page(page, asked: request)
            } else {
                hub.send(BoardRelay.encode(APIMessage.error(allowance.refusal(of: request.command))), to: page)
            }
        case .failure(let problem):
            hub.send(BoardRelay.encode(APIMessage.error(problem)), to: page)
        }
    }
}
