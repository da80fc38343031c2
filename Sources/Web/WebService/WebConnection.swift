import Basics
import BoardProtocol
import WebRules
#if canImport(Glibc)
import Glibc
#endif

/// One browser's connection to the ``WebServer``: its requests read (``ClientTraffic``) and
/// answered in order, then, once upgraded, its page's WebSocket: the page's messages held to
/// their allowance and passed to the ``PageHub``, the hub's frames written back.
///
/// Confined to the server's loop.
final class WebConnection {
    let fd: Int32
    /// The client's address, as the per-address limit counts it.
    let address: String
    private let limits: WebServer.Limits
    /// Told when a whole buffer waits for the client that its socket does not take.
    private let behind: () -> Void
    private var traffic: ClientTraffic
    /// The page this connection's WebSocket is, once upgraded.
    private(set) var page: BoardRelay.PageID?
    private var allowance = CommandAllowance()
    /// Bytes waiting for the client, from `sent` on.
    private var toClient: [UInt8] = []
    private var sent = 0
    private var lastHeard: MonotonicInstant
    /// Since when bytes have waited for the client without it taking any.
    private var stalledSince: MonotonicInstant?
    /// A whole buffer waits that the client's socket did not take.
    private var isBehind = false
    private var headBegan: MonotonicInstant?
    /// Bytes the client sent, not yet read as heads or frames: kept while the client has not
    /// taken what it was answered (at most one read's worth).
    private var unread: [UInt8] = []
    private var unreadFrom = 0
    /// Nothing more is read from the client: it shut its side, or nothing more is answered.
    private var doneReading = false
    /// Nothing more of what was read is answered: a head was refused, a response closes the
    /// connection, or the page sent a close frame.
    private var doneAnswering = false
    /// The client shut its sending side: it is answered what it sent, then the connection ends.
    private var clientShut = false
    /// The connection ends once the client has what waits for it (and a page, all it was sent).
    private var endsWhenWritten = false

    private let now: () -> MonotonicInstant

    init(fd: Int32, address: String, limits: WebServer.Limits, now: @escaping () -> MonotonicInstant, behind: @escaping () -> Void) {
        self.fd = fd
        self.address = address
        self.limits = limits
        self.now = now
        self.behind = behind
        traffic = ClientTraffic(limits: limits.traffic)
        lastHeard = now()
    }

    private var waiting: Int { toClient.count - sent }
    /// Bytes held for the client: what waits, and what it took that is not yet dropped.
    var held: Int { toClient.count }

    /// What to wait for: reading while everything read is answered and fewer than `limits.buffer`
    /// bytes wait for the client, writing while any do.
    var pollRequest: pollfd {
        var events: Int32 = 0
        if !doneReading && unreadFrom == unread.count && waiting < limits.buffer { events |= Int32(POLLIN) }
        if waiting > 0 { events |= Int32(POLLOUT) }
        return pollfd(fd: fd, events: Int16(events), revents: 0)
    }

    /// Takes the page's frames from the hub while fewer than `limits.buffer` bytes wait for the
    /// client.
    func fill(from hub: PageHub) {
        guard let page else { return }
        // A page that shut its sending side is sent the close once its messages are answered,
        // the board's answers included.
        if clientShut && unreadFrom == unread.count && !hub.isFinished(page) && !hub.isAwaitingBoard(page) { hub.finish(page) }
        while waiting < limits.buffer, let frame = hub.take(from: page) { queue(frame.encoded) }
        if hub.isFinished(page) {
            doneReading = true
            doneAnswering = true
            endsWhenWritten = true
        }
    }

    /// Moves what can be moved; `false` when the connection has ended.
    func serve(_ revents: Int32, on server: WebServer) -> Bool {
        if doneReading {
            // Gone altogether (a reset, or both sides shut): nobody to answer.
            if revents & Int32(POLLHUP | POLLERR) != 0 { return false }
        } else if revents & Int32(POLLIN | POLLHUP | POLLERR) != 0 {
            guard read(server) else { return false }
        }
        // Written as soon as there is something to write; more answered (a turn's budget at a
        // time) while the client's socket takes what waits.
        for _ in 0..<2 {
            fill(from: server.hub)
            guard flush() else { return false }
            guard hasReadyWork else { break }
            guard answerUnread(on: server) else { return false }
        }
        fill(from: server.hub)
        guard flush() else { return false }
        // A client that shut its side after its requests: answered every one, it is done (a
        // head begun and not ended is dropped: it never ends).
        if clientShut && page == nil && !hasReadyWork && (unreadFrom == unread.count || doneAnswering) { endsWhenWritten = true }
        return !(endsWhenWritten && waiting == 0)
    }

    /// The deadlines of the connection's time-outs.
    var deadlines: [MonotonicInstant] {
        [lastHeard + limits.idle] + [headBegan.map { $0 + limits.head }, stalledSince.map { $0 + limits.stalled }].compactMap { $0 }
    }

    func hasExpired(at moment: MonotonicInstant) -> Bool {
        deadlines.contains { moment >= $0 }
    }

    // MARK: Writing

    /// Adds bytes for the client, dropping what it has taken: what is held is what waits.
    private func queue(_ bytes: [UInt8]) {
        if waiting == 0 { stalledSince = now() }
        if sent == toClient.count {
            toClient = bytes
        } else {
            toClient.removeSubrange(..<sent)
            toClient += bytes
        }
        sent = 0
    }

    /// Writes what the client's socket takes; `false` when the client is gone.
    private func flush() -> Bool {
        guard waiting > 0 else { return true }
        // Read before the bytes go: a client that has them may move a test's clock at once.
        let moment = now()
        guard let count = Socket.sendSome(fd, toClient[sent...]) else { return false }
        sent += count
        if waiting == 0 {
            toClient = []
            sent = 0
        }
        // The stall is timed from when bytes began to wait (``queue(_:)``), or the client last
        // took some; it is behind once its socket takes no more of a whole buffer.
        if count > 0 {
            // Taking what it asked for is not silence: the idle time-out counts from here too.
            lastHeard = moment
            stalledSince = waiting == 0 ? nil : moment
        }
        if waiting >= limits.buffer && !isBehind { behind() }
        isBehind = waiting >= limits.buffer
        return true
    }

    // MARK: Reading

    /// Reads what the client sent, or that it shut its side; `false` when the connection ends.
    private func read(_ server: WebServer) -> Bool {
        let count = Glibc.read(fd, &server.buffer, server.buffer.count)
        if count > 0 {
            lastHeard = now()
            return take(Array(server.buffer[..<count]), on: server)
        }
        guard count == 0 else { return errno == EAGAIN || errno == EINTR }
        // Shut after its requests (a head begun and not ended is dropped: it never ends), or a
        // page that has said all it will: it gets the answers to what it said, then the close.
        doneReading = true
        clientShut = true
        headBegan = nil
        return true
    }

    /// Reads and answers whole heads and frames in `bytes`; `false` when the connection ends at
    /// once (a refused frame, or an upgrade answered that was not asked for).
    private func take(_ bytes: [UInt8], on server: WebServer) -> Bool {
        unread += bytes
        return answerUnread(on: server)
    }

    /// Heads and frames answered for one connection in one turn of the loop, at most: a client
    /// pipelining cheap requests waits its turn behind the others, not they behind it.
    static let turnBudget = 32
    /// A page's messages are read no further while this many answers wait for it in the hub: a
    /// burst read at once is answered as the page takes the answers, not ended at the hub's bound.
    static let pageBacklogPause = 32

    /// Whether read bytes wait to be answered that the next turn can answer (the loop then does
    /// not sleep).
    var hasReadyWork: Bool { unreadFrom < unread.count && !doneAnswering && waiting < limits.buffer }

    /// Answers what was read and not answered, one head or frame at a time while fewer than
    /// `limits.buffer` bytes wait for the client (a client that sends requests faster than it
    /// takes their answers holds at most that and one response), at most ``turnBudget`` a turn.
    /// `false` as for ``take(_:on:)``.
    private func answerUnread(on server: WebServer) -> Bool {
        var answered = 0
        while hasReadyWork && answered < Self.turnBudget && !(page.map { server.hub.backlog(of: $0) >= Self.pageBacklogPause } ?? false) {
            let scanned = traffic.scan(unread[unreadFrom...], upTo: 1)
            unreadFrom += scanned.consumed
            answered += scanned.units.count
            for unit in scanned.units {
                guard answer(unit, on: server) else { return false }
            }
            if let refusal = scanned.refusal { return refuse(refusal, on: server) }
        }
        if unreadFrom == unread.count {
            unread = []
            unreadFrom = 0
        }
        // The head time-out runs while the server waits for the rest of a head from the client:
        // from when every byte it sent is read, not while the server itself reads no more.
        if traffic.isInsideHead && !doneReading && unreadFrom == unread.count {
            if headBegan == nil {
                headBegan = now()
                server.events(.headBegan)
            }
        } else {
            headBegan = nil
        }
        return true
    }

    private func refuse(_ refusal: ClientTraffic.Refusal, on server: WebServer) -> Bool {
        server.count { $0.refused += 1 }
        server.events(.refused(refusal))
        guard let (status, _) = refusal.response else { return false }
        queue(PageRoutes.text(status, "The board's web view cannot take this request: \(refusal).").encoded(closing: true))
        doneReading = true
        doneAnswering = true
        endsWhenWritten = true
        headBegan = nil
        return true
    }

    private func answer(_ unit: ClientTraffic.Unit, on server: WebServer) -> Bool {
        switch unit {
        case .head(let head):
            return answer(head, on: server)
        case .frame(let frame):
            if let page { answer(frame, from: page, on: server) }
            return true
        }
    }

    private func answer(_ head: RequestHead, on server: WebServer) -> Bool {
        switch server.routes.answer(head) {
        case .response(let response):
            traffic.notUpgraded()
            let closing = !head.keepsConnection
            queue(response.encoded(closing: closing))
            if closing {
                doneReading = true
                doneAnswering = true
                endsWhenWritten = true
            }
        case .upgrade(let accept):
            // The routes upgrade only a head that asks for it, as the traffic read it.
            guard traffic.isWaitingForUpgrade else { return false }
            traffic.upgraded()
            queue(PageResponse.switching(accept: accept))
            page = server.hub.join()
        }
        return true
    }

    /// A page's frame: a message passed to the hub or answered here, or the protocol's own.
    private func answer(_ frame: PageFrame, from page: BoardRelay.PageID, on server: WebServer) {
        let hub = server.hub
        switch frame.opcode {
        case .text:
            switch PageRequest.parse(frame.payload, playing: hub.playing) {
            case .success(.ping):
                hub.send(#"{"type":"pong"}"#, to: page)
            case .success(.boards(let watch)):
                // Held to the allowance too: each opening looks at the list's file at once.
                if allowance.take(at: now()) {
                    server.watchBoards(page, watch)
                } else {
                    hub.send(BoardRelay.encode(APIMessage.error(allowance.refusal(of: "boards"))), to: page)
                }
            case .success(.board(let request)):
                if allowance.take(at: now()) {
                    hub.page(page, asked: request)
                } else {
                    hub.send(BoardRelay.encode(APIMessage.error(allowance.refusal(of: request.command))), to: page)
                }
            case .failure(let problem):
                hub.send(BoardRelay.encode(APIMessage.error(problem)), to: page)
            }
        case .ping:
            hub.send(PageFrame(opcode: .pong, payload: frame.payload), to: page)
        case .close:
            hub.close(page, answering: frame)
            doneReading = true
            doneAnswering = true
        case .pong, .binary, .continuation:
            // Binary and continuation frames are refused as they are read.
            break
        }
    }
}
