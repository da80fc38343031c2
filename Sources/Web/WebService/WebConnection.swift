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
    /// Nothing more is read from the client: it shut its side, a head was refused, a response
    /// closes the connection, or the page sent a close frame.
    private var doneReading = false
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
        while waiting < limits.buffer, let frame = hub.take(from: page) { queue(frame.encoded) }
        if hub.isFinished(page) {
            doneReading = true
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
        // Written as soon as there is something to write; more answered while the client's
        // socket takes what waits.
        while true {
            fill(from: server.hub)
            guard flush() else { return false }
            if waiting >= limits.buffer || unreadFrom == unread.count || doneReading { break }
            guard answerUnread(on: server) else { return false }
        }
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

    private func queue(_ bytes: [UInt8]) {
        if waiting == 0 { stalledSince = now() }
        if sent == toClient.count {
            toClient = bytes
            sent = 0
        } else {
            toClient += bytes
        }
    }

    /// Writes what the client's socket takes; `false` when the client is gone.
    private func flush() -> Bool {
        guard waiting > 0 else { return true }
        guard let count = Socket.sendSome(fd, toClient[sent...]) else { return false }
        sent += count
        if waiting == 0 {
            toClient = []
            sent = 0
        }
        // The stall is timed from when bytes began to wait (``queue(_:)``), or the client last
        // took some; it is behind once its socket takes no more of a whole buffer.
        if count > 0 { stalledSince = waiting == 0 ? nil : now() }
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
        headBegan = nil
        if let page { server.hub.end(page) } else { endsWhenWritten = true }
        return true
    }

    /// Reads and answers whole heads and frames in `bytes`; `false` when the connection ends at
    /// once (a refused frame, or an upgrade answered that was not asked for).
    private func take(_ bytes: [UInt8], on server: WebServer) -> Bool {
        unread += bytes
        return answerUnread(on: server)
    }

    /// Answers what was read and not answered, one head or frame at a time while fewer than
    /// `limits.buffer` bytes wait for the client: a client that sends requests faster than it
    /// takes their answers holds at most that and one response. `false` as for ``take(_:on:)``.
    private func answerUnread(on server: WebServer) -> Bool {
        while unreadFrom < unread.count && !doneReading && waiting < limits.buffer {
            let scanned = traffic.scan(unread[unreadFrom...], upTo: 1)
            unreadFrom += scanned.consumed
            for unit in scanned.units {
                guard answer(unit, on: server) else { return false }
            }
            if let refusal = scanned.refusal { return refuse(refusal, on: server) }
        }
        if unreadFrom == unread.count {
            unread = []
            unreadFrom = 0
        }
        // The head time-out runs from a head's first byte; a head begun and ended in these
        // bytes was quick enough.
        if traffic.isInsideHead && !doneReading {
            if headBegan == nil {
                headBegan = lastHeard
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
        case .pong, .binary, .continuation:
            // Binary and continuation frames are refused as they are read.
            break
        }
    }
}
