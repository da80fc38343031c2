@testable import BoardAPI
import BoardProtocol
import Foundation
import Testing

/// One client's session fed bytes and read back, as the server's thread does with a socket, but
/// with arrays: no socket, no thread, no clock.
@Suite("A client's session, without a socket")
struct ClientSessionTests {
    static let encoder = MessageEncoder()
    static let status = Array((APIRequest.status.line + "\n").utf8)
    static let history = Array((APIRequest.history(.all).line + "\n").utf8)

    static let hello = encoder.line(APIMessage(type: .hello))

    /// A state line, told apart by its text (the session never reads what it queues).
    static func state(_ name: String) -> [UInt8] {
        var message = APIMessage(type: .state)
        message.text = name
        return encoder.line(message)
    }

    static func session(greeting: (hello: [UInt8], state: [UInt8])? = nil) -> ClientSession {
        ClientSession(greeting: greeting, badLinesInARow: 16, encoder: encoder)
    }

    /// A reply line that names its request and its turn, to check the order replies arrive in.
    static func answer(_ request: APIRequest, _ number: Int, padding: Int = 0) -> [UInt8] {
        encoder.line(.ok(request.command, "\(number)" + String(repeating: " ", count: padding)))
    }

    @Test("a request split across reads is taken once its newline has come, and read no further until it is answered")
    func splitAcrossReads() {
        var session = Self.session()
        session.received(Self.status.prefix(7))
        #expect(session.nextRequest() == nil)
        #expect(session.wantsInput, "half a line: read on")
        session.received(Self.status.dropFirst(7))
        #expect(session.nextRequest() == .status)
        #expect(!session.wantsInput, "its reply is awaited")
        session.reply(Self.answer(.status, 1))
        #expect(session.wantsInput)
        var client = Client()
        client.read(from: &session)
        #expect(client.texts == ["ok status 1"])
    }

    @Test("two requests in one read are handed out one at a time, in order, each after the last one's reply")
    func twoInOneRead() {
        var session = Self.session()
        session.received(Self.status + Self.history)
        #expect(session.nextRequest() == .status)
        #expect(session.nextRequest() == nil, "one request at a time")
        #expect(!session.wantsInput)
        session.reply(Self.answer(.status, 1))
        #expect(session.nextRequest() == .history(.all))
        session.reply(Self.answer(.history(.all), 2))
        #expect(session.nextRequest() == nil)
        #expect(session.wantsInput, "both taken: the next read may come")
        var client = Client()
        client.read(from: &session)
        #expect(client.texts == ["ok status 1", "ok history 2"])
    }

    @Test("an over-long line gets an error and the connection stays usable; blank lines are skipped")
    func overLongLine() {
        var session = Self.session()
        let long = Array(repeating: UInt8(ascii: "x"), count: APIRequest.maximumLineLength + 1000) + [UInt8(ascii: "\n")]
        session.received(long.prefix(3000))
        session.received(long.dropFirst(3000) + Array(" \t\n".utf8) + Self.status)
        var client = Client()
        #expect(client.serve(&session) == [.status])
        #expect(client.texts == ["error the line is longer than 4096 bytes", "ok status 1"])
        #expect(!session.isFinished)
        #expect(session.wantsInput)
    }

    @Test("16 bad lines in a row get their errors, then a bye, the last message: nothing more is taken, and it ends once written")
    func badLinesInARow() {
        var session = Self.session(greeting: (Self.hello, Self.state("s1")))
        let nonsense = Array("nonsense\n".utf8)
        let fifteen = Array(Array(repeating: nonsense, count: 15).joined())
        let sixteen = Array(Array(repeating: nonsense, count: 16).joined())
        session.received(fifteen + Self.status + sixteen + Self.status)
        var client = Client(room: 0)
        #expect(client.serve(&session) == [], "nothing written: the lines wait")
        client.room = .max
        #expect(client.serve(&session) == [.status], "the status after 16 bad lines is never taken")
        session.show(state: Self.state("s2"))
        client.read(from: &session)
        let kinds = client.texts.map { $0.split(separator: " ").first.map(String.init) ?? $0 }
        let greeting = ["hello", "state"]
        let errors: [String] = Array(repeating: "error", count: 15)
        let moreErrors: [String] = Array(repeating: "error", count: 16)
        let expected: [String] = greeting + errors + ["ok"] + moreErrors + ["bye"]
        #expect(kinds == expected)
        #expect(client.texts.last == "bye 16 bad lines in a row; closing. docs/API.md lists the commands.")
        #expect(session.isFinished)
        #expect(!session.wantsInput)
    }

    @Test("back-pressure: a client that does not read is not read once 15 replies wait; once it reads, the lines held back are answered")
    func backPressureByReplies() {
        var session = Self.session()
        session.received(Array(Array(repeating: Self.status, count: 20).joined()))
        var client = Client(room: 0)
        // A line is taken while two more replies fit: the last one taken makes 15.
        #expect(client.serve(&session).count == Outbox.replyLimit - 1)
        #expect(!session.wantsInput)
        #expect(!session.canTakeLine)
        #expect(session.wantsOutput)
        client.room = .max
        #expect(client.serve(&session).count == 20 - (Outbox.replyLimit - 1))
        #expect(session.wantsInput, "every line answered and written: read again")
        #expect(client.texts == (1...20).map { "ok status \($0)" }, "every reply, in order")
    }

    @Test("back-pressure in bytes: lines are taken only while fewer than 64 KiB wait, then again as the client reads")
    func backPressureByBytes() {
        var session = Self.session()
        session.received(Array(Array(repeating: Self.history, count: 10).joined()))
        var client = Client(room: 0)
        let served = client.serve(&session, padding: 10_000)
        #expect(served.count == 7, "six replies of 10 KB leave room; the seventh fills it")
        #expect(session.waitingBytes >= Outbox.byteLimit)
        #expect(session.waitingBytes < Outbox.byteLimit + 10_100)
        #expect(!session.wantsInput)
        // The client reads 20 KB: two replies' worth of room, and two more lines are answered.
        client.room = 20_100
        #expect(client.serve(&session, padding: 10_000).count == 2)
        client.room = .max
        #expect(client.serve(&session, padding: 10_000).count == 1)
        #expect(client.texts.map { $0.trimmingCharacters(in: .whitespaces) } == (1...10).map { "ok history \($0)" })
        #expect(session.wantsInput)
    }

    @Test("half-close: every line is answered, a press's reply from the game loop included, the unfinished one dropped; then it ends")
    func halfClose() {
        var session = Self.session()
        let press = Array((APIRequest.newGame.line + "\n").utf8)
        session.received(Self.status + press + Self.history + Array(#"{"comm"#.utf8))
        session.inputEnded()
        #expect(!session.wantsInput)
        var client = Client()
        #expect(client.serve(&session, onTheLoop: [.newGame]) == [.status, .newGame])
        #expect(!session.isFinished, "the game loop's reply is awaited")
        session.reply(Self.encoder.line(.ok("new-game", "started")))
        #expect(client.serve(&session) == [.history(.all)])
        #expect(client.texts == ["ok status 1", "ok new-game started", "ok history 2"])
        #expect(session.isFinished)
    }

    @Test("half-close: a client that hangs up altogether is answered no more")
    func halfCloseThenGone() {
        var session = Self.session()
        session.received(Self.status)
        session.inputEnded()
        #expect(session.nextRequest() == .status)
        session.connectionLost()
        session.reply(Self.answer(.status, 1))
        #expect(session.isFinished)
        #expect(!session.wantsOutput)
    }

    @Test("states: hello first, then the state; the same state is not queued twice, and the newest replaces one not begun")
    func statesDeduplicated() {
        let (s1, s2, s3) = (Self.state("s1"), Self.state("s2"), Self.state("s3"))
        var session = Self.session(greeting: (Self.hello, s1))
        session.show(state: s1)
        var client = Client()
        client.read(from: &session)
        #expect(client.texts == ["hello", "state s1"])
        session.show(state: s1)
        #expect(!session.wantsOutput, "the state it was sent is not sent again")
        session.show(state: s2)
        session.show(state: s2)
        session.show(state: s3)
        session.show(state: s3)
        client.read(from: &session)
        #expect(client.texts == ["hello", "state s1", "state s3"], "a client that did not read is sent the newest state, once")
    }

    @Test("a write that fails loses the connection: nothing more is written, and it ends")
    func writeFails() {
        var session = Self.session(greeting: (Self.hello, Self.state("s1")))
        session.write { _ in nil }
        #expect(session.isFinished)
        #expect(!session.wantsInput && !session.wantsOutput)
    }
}

/// The far end of a session's socket: takes up to ``room`` bytes, as a socket whose buffer
/// holds that much more, and reads them as lines. It also plays the server's part: asks the
/// session for requests and answers them, the way the server answers `status`.
private struct Client {
    var room = Int.max
    private var received: [UInt8] = []
    private var answered = 0

    init(room: Int = .max) { self.room = room }

    /// The lines read so far, without their newlines.
    var lines: [String] { received.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) } }

    /// Each message read so far as its type and text ("ok status 1").
    var texts: [String] {
        lines.compactMap { line in
            guard let message = try? JSONDecoder().decode(APIMessage.self, from: Data(line.utf8)) else { return nil }
            return ([message.type.rawValue, message.command, message.text] as [String?]).compactMap { $0 }.joined(separator: " ")
        }
    }

    mutating func read(from session: inout ClientSession) {
        session.write { bytes in
            let taken = min(room, bytes.count)
            received += bytes.prefix(taken)
            room -= taken
            return taken
        }
    }

    /// The server's part: each request answered (now, unless it is `onTheLoop`) through
    /// ``ClientSession/answerLines(_:write:)``, written to this client. Returns the requests
    /// handed out.
    mutating func serve(_ session: inout ClientSession, padding: Int = 0, onTheLoop: Set<APIRequest> = []) -> [APIRequest] {
        var requests: [APIRequest] = []
        var answered = answered
        var room = room
        var received = received
        session.answerLines({ request in
            requests.append(request)
            guard !onTheLoop.contains(request) else { return nil }
            answered += 1
            return ClientSessionTests.answer(request, answered, padding: padding)
        }, write: { bytes in
            let taken = min(room, bytes.count)
            received += bytes.prefix(taken)
            room -= taken
            return taken
        })
        (self.answered, self.room, self.received) = (answered, room, received)
        return requests
    }
}
