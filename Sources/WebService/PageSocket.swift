import Basics
import BoardProtocol
import FlyingFox
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebView

/// One page's WebSocket: the page joins the ``PageHub`` and is sent what the board shows; what
/// it sends is parsed (``PageRequest``), held to the allowance of commands a second
/// (``CommandAllowance``) and passed on to the board, or answered here (a `ping`, a refusal).
///
/// The protocol's own frames are answered here too (a ping frame with a pong, a close with a
/// close). FlyingFox's message handler is not used: it takes a page's messages as fast as they
/// come and keeps their frames in a stream without a bound, so a page that does not read would
/// cost memory without end. Here the server's writer pulls each frame from the page's stream
/// when it has written the one before, so what waits for a page is what the hub holds for it,
/// which is bounded in bytes.
///
/// The reading of the page's frames never outlives the writing of its frames: when the hub
/// closes a page that fell behind, the reading is cancelled and awaited before the frames end;
/// when the writing stops on an error (the page has gone), the reading is cancelled as the
/// frames are let go. FlyingFox closes the connection's socket when the writing ends, and a
/// socket closed while a read of it still waits leaves that wait registered under the socket's
/// number, where the next connection given the number is never served (seen: a page's upgrade
/// unanswered for 20 s).
struct PageSocket: WSHandler {
    let hub: PageHub
    let now: @Sendable () -> MonotonicInstant

    func makeFrames(for client: AsyncThrowingStream<WSFrame, any Error>) async throws -> AsyncStream<WSFrame> {
        let (page, frames) = hub.join()
        let reading = Task { [hub, now] in
            var allowance = CommandAllowance()
            let playing = hub.playing
            do {
                for try await frame in client {
                    switch frame.opcode {
                    case .text:
                        Self.answer(Array(frame.payload), from: page, hub: hub, allowance: &allowance, at: now(), playing: playing)
                    case .binary, .continuation:
                        hub.send(BoardRelay.encode(APIMessage.error(nil, "the page sends text messages, not binary ones")), to: page)
                    case .ping:
                        hub.send(WSFrame(fin: true, opcode: .pong, mask: nil, payload: frame.payload), to: page)
                    case .close:
                        hub.close(page, answering: frame)
                    default:
                        break
                    }
                    if frame.opcode == .close { break }
                }
            } catch {
                // The connection broke: the page has gone.
            }
            hub.leave(page)
        }
        let writing = Writing(frames: OneReader(frames), reading: reading)
        return AsyncStream {
            if let frame = await writing.frames.next() { return frame }
            reading.cancel()
            await reading.value
            return nil
        }
    }

    /// What the server's writer holds while it writes a page's frames: let go (the writing has
    /// ended, one way or another), it cancels the reading.
    private final class Writing: Sendable {
        let frames: OneReader
        let reading: Task<Void, Never>

        init(frames: OneReader, reading: Task<Void, Never>) {
            self.frames = frames
            self.reading = reading
        }

        deinit { reading.cancel() }
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
                hub.send(BoardRelay.encode(APIMessage.error(request.command, allowance.refusal)), to: page)
            }
        case .failure(let problem):
            hub.send(BoardRelay.encode(APIMessage.error(problem.command, problem.text)), to: page)
        }
    }
}
