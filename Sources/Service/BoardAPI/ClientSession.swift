import BoardProtocol

/// One client's side of the protocol as a value: the bytes it sends become requests, and what
/// it is to be sent (its greeting, the states, the replies, a `bye`) waits in its ``Outbox``.
/// No I/O and no clock: the server reads the socket and tells the session what came, asks it
/// for the next request and whether to read or write, and writes what it gives; tests do the
/// same with arrays of bytes.
///
/// ## Contract
/// - **Threading.** A plain value, confined to whoever holds it (the server's thread); it takes
///   no locks and keeps no closures: ``write(_:)`` and ``answerLines(_:write:)`` call the ones
///   they are given, synchronously, before they return.
/// - **One request at a time, in order.** Lines are taken in the order they came.
///   ``nextRequest()`` hands out a request only once the one before has had its ``reply(_:)``,
///   and each request must get exactly one; bad lines before it are answered (an `error` each)
///   in their place. A line of spaces and tabs is skipped.
/// - **Back-pressure.** ``wantsInput`` holds only while no line waits, no reply is awaited, the
///   input has not ended and the outbox ``Outbox/hasRoom``; lines are taken only while it has
///   room (``answerLines(_:write:)`` takes them again as the client reads), and a line makes at most two messages (an `error` and a `bye`), so replies are never
///   dropped: a reply that found no room (a broken caller) ends the session instead, which the
///   client sees.
/// - **States.** The newest state replaces one waiting and not begun, and a state equal to the
///   last one queued is not queued again: a client is sent each change once, and one that does
///   not read falls behind by at most one state.
/// - **Termination.** After `badLinesInARow` bad lines in a row a `bye` is queued, it is the
///   last message, and no more lines are taken. ``inputEnded()`` (the client shut its sending
///   side) drops a line left unfinished; its other lines are answered. ``isFinished`` says
///   when the connection should be closed: lost, or its `bye` or last reply written.
/// - **Memory.** Lines the caller has read and not yet taken (one read's worth, as it reads
///   only while ``wantsInput``), one unfinished line (``LineBuffer``), and the outbox's bound.
struct ClientSession {
    private var lines = LineBuffer()
    private var unread: ArraySlice<LineBuffer.Line> = []
    private var outbox = Outbox()
    private var lastState: [UInt8]?
    private var badLines = 0
    private var awaitingReply = false
    /// A `bye` is queued: nothing more is taken or queued.
    private var closing = false
    private(set) var hasInputEnded = false
    /// The connection failed, or a reply found no room: nothing more is written.
    private(set) var isLost = false
    private let badLinesInARow: Int
    private let encoder: MessageEncoder

    /// - Parameter greeting: the `hello` and the state shown now, sent first; `nil` before the
    ///   board has shown anything (the first state still comes, with no `hello`).
    init(greeting: (hello: [UInt8], state: [UInt8])?, badLinesInARow: Int, encoder: MessageEncoder) {
        self.badLinesInARow = badLinesInARow
        self.encoder = encoder
        if let greeting {
            queue(reply: greeting.hello)
            show(state: greeting.state)
        }
    }

    // MARK: What the server asks

    /// Whether to read the client now (poll it for input).
    var wantsInput: Bool {
        !awaitingReply && !closing && !hasInputEnded && !isLost && unread.isEmpty && outbox.hasRoom
    }

    /// Whether anything waits to be written (poll it for output).
    var wantsOutput: Bool { !isLost && !outbox.isEmpty }

    /// Whether ``nextRequest()`` would take a line now: it has lines, and the outbox has room.
    var canTakeLine: Bool { !awaitingReply && !closing && !isLost && !unread.isEmpty && outbox.hasRoom }

    /// Bytes waiting to be written.
    var waitingBytes: Int { outbox.byteCount }

    /// The connection is done with: lost, its `bye` written, or its input ended and every line
    /// answered and written.
    var isFinished: Bool {
        if isLost { return true }
        if closing { return outbox.isEmpty }
        return hasInputEnded && unread.isEmpty && !awaitingReply && outbox.isEmpty
    }

    // MARK: What happened

    /// Bytes the client sent.
    mutating func received<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        unread += lines.append(bytes)
    }

    /// The client shut its sending side (a read returned 0).
    mutating func inputEnded() { hasInputEnded = true }

    /// Reading or writing failed, or the client hung up after its input ended: nobody to answer.
    mutating func connectionLost() { isLost = true }

    /// A new state to show, encoded once for every client.
    mutating func show(state line: [UInt8]) {
        guard !closing, !isLost, line != lastState else { return }
        lastState = line
        outbox.add(state: line)
    }

    /// The answer to the request ``nextRequest()`` handed out last.
    mutating func reply(_ line: [UInt8]) {
        guard awaitingReply else { return }
        awaitingReply = false
        queue(reply: line)
    }

    // MARK: Requests in, bytes out

    /// The next request to answer, having answered the bad lines before it; `nil` when no line
    /// may be taken now (see ``canTakeLine``) or none is left.
    mutating func nextRequest() -> APIRequest? {
        while canTakeLine, let line = unread.popFirst() {
            switch Self.parse(line) {
            case nil:
                continue
            case .failure(let error)?:
                refuse(error)
            case .success(let request)?:
                badLines = 0
                awaitingReply = true
                return request
            }
        }
        // A slice holds on to its whole array: let a read's lines go once all are taken.
        if unread.isEmpty { unread = [] }
        return nil
    }

    /// Takes the lines that may be taken, each answered by `answer` (`nil`: the answer comes
    /// later, through ``reply(_:)``), and writes with `write` after each, until no line may be
    /// taken: so the outbox's room is what the client has not yet read, and lines held back
    /// while it was full are taken as soon as its socket takes the replies before them.
    mutating func answerLines(_ answer: (APIRequest) -> [UInt8]?, write: (UnsafeRawBufferPointer) -> Int?) {
        repeat {
            while let request = nextRequest() {
                if let line = answer(request) { reply(line) }
                self.write(write)
            }
            self.write(write)
        } while canTakeLine
    }

    /// Writes what waits with `write`, which returns how many bytes the socket took (0 when it
    /// takes no more now) or `nil` when writing failed.
    mutating func write(_ write: (UnsafeRawBufferPointer) -> Int?) {
        guard !isLost else { return }
        if !outbox.flush(write) { isLost = true }
    }

    // MARK: Inside

    /// `nil` for a blank line, which is no request and no mistake.
    private static func parse(_ line: LineBuffer.Line) -> Result<APIRequest, RequestError>? {
        switch line {
        case .tooLong:
            return .failure(.lineTooLong)
        case .complete(let bytes):
            if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return nil }
            return APIRequest.parse(bytes)
        }
    }

    private mutating func refuse(_ error: RequestError) {
        badLines += 1
        queue(reply: encoder.line(.error(error)))
        guard badLines >= badLinesInARow else { return }
        queue(reply: encoder.line(.bye("\(badLinesInARow) bad lines in a row; closing. docs/API.md lists the commands.")))
        closing = true
    }

    private mutating func queue(reply line: [UInt8]) {
        // Lines are taken only with room for their replies; a reply without room means the
        // caller broke that rule, and dropping it silently would lose an answer.
        if !outbox.add(reply: line) { isLost = true }
    }
}
