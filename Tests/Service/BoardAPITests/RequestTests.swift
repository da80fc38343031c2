@testable import BoardAPI
import BoardProtocol
import Testing
import TicTacToe
import ViewModel

@Suite("API requests and lines")
struct RequestTests {
    @Test("every request survives its own line", arguments: [
        APIRequest.press(Position(keypadKey: 7)!), .press(Position(keypadKey: 3)!), .newGame, .abandon,
        .opponent(.computer(.random)), .opponent(.person), .status, .history(.all), .history(HistoryQuery(player: "Al\"ice", opponent: "learner", outcome: "draw", since: "2026-11-01", limit: 3)), .resetLearner(games: nil), .resetLearner(games: 0), .resetLearner(games: 1234), .resetLearner(games: 3, resets: 2), .resetLearner(games: nil, resets: 0), .teach(games: 500, level: 4), .teach(games: 1, level: 1), .stopTeaching,
    ])
    func roundTrip(request: APIRequest) {
        #expect(APIRequest.parse(Array(request.line.utf8)) == .success(request))
    }

    @Test("heard: a board's name, online, and its game (a mark, a number 1 to a billion, cells 1–9 once each) or null; anything else a bad argument")
    func heardArgument() {
        let report = HeardReport(board: "kitchen", online: true, game: .init(mark: "O", number: 3, moves: [5, 1]))
        #expect(APIRequest.parse(Array(APIRequest.heard(report).line.utf8)) == .success(.heard(report)))
        let away = HeardReport(board: "kitchen", online: false, game: nil)
        #expect(APIRequest.parse(Array(#"{"command":"heard","board":"kitchen","online":false,"game":null}"#.utf8)) == .success(.heard(away)))
        #expect(APIRequest.parse(Array(#"{"command":"heard","board":"kitchen","online":false}"#.utf8)) == .success(.heard(away)))
        let game = #""game":{"mark":"X","number":1,"moves":[]}"#
        for bad in [
            #"{"command":"heard"}"#, #"{"command":"heard","board":"kitchen"}"#, #"{"command":"heard","online":true}"#,
            #"{"command":"heard","board":"Kitchen","online":true}"#, #"{"command":"heard","board":"a/#","online":true}"#,
            #"{"command":"heard","board":"kitchen","online":"yes"}"#, #"{"command":"heard","board":"kitchen","online":true,"game":5}"#,
            #"{"command":"heard","board":"kitchen","online":true,"game":{"mark":"Z","number":1,"moves":[]}}"#,
            #"{"command":"heard","board":"kitchen","online":true,"game":{"mark":"X","number":0,"moves":[]}}"#,
            #"{"command":"heard","board":"kitchen","online":true,"game":{"mark":"X","number":1000000001,"moves":[]}}"#,
            #"{"command":"heard","board":"kitchen","online":true,"game":{"mark":"X","number":1,"moves":[5,5]}}"#,
            #"{"command":"heard","board":"kitchen","online":true,"game":{"mark":"X","number":1,"moves":[0]}}"#,
            #"{"command":"heard","board":"kitchen","online":true,"game":{"mark":"X","number":1,"moves":[1,2,3,4,5,6,7,8,9,1]}}"#,
            #"{"command":"heard","board":"kitchen","online":true,"game":{"mark":"X","number":1}}"#,
            #"{"command":"heard","board":"kitchen","online":true,"game":{"mark":"X","number":2,"moves":[],"previous":[3,3]}}"#,
            #"{"command":"heard","board":"kitchen","online":true,"game":{"mark":"X","number":2,"moves":[],"previous":[10]}}"#,
            #"{"command":"heard","board":"kitchen","online":true,"#.replacingOccurrences(of: "true,", with: "true,") + game.replacingOccurrences(of: "1,", with: "1.5,") + "}",
        ] {
            guard case .failure(let error) = APIRequest.parse(Array(bad.utf8)) else {
                Issue.record("\(bad) was taken")
                continue
            }
            #expect(error.reason == .badArgument && error.command == "heard", "\(bad)")
        }
    }

    @Test("seen: a list of at most sixteen boards by name, each once, with whether it invites; anything else a bad argument")
    func seenArgument() {
        let report = SeenReport(boards: [.init(board: "attic", invites: true), .init(board: "kitchen", invites: false)])
        #expect(APIRequest.parse(Array(APIRequest.seen(report).line.utf8)) == .success(.seen(report)))
        #expect(APIRequest.parse(Array(#"{"command":"seen","boards":[]}"#.utf8)) == .success(.seen(SeenReport(boards: []))))
        let seventeen = (1...17).map { #"{"board":"b\#($0)","invites":false}"# }.joined(separator: ",")
        for bad in [
            #"{"command":"seen"}"#, #"{"command":"seen","boards":null}"#, #"{"command":"seen","boards":{"board":"attic","invites":true}}"#,
            #"{"command":"seen","boards":[{"board":"attic"}]}"#, #"{"command":"seen","boards":[{"invites":true}]}"#,
            #"{"command":"seen","boards":[{"board":"Attic","invites":true}]}"#, #"{"command":"seen","boards":[{"board":"a\u001b[31m","invites":true}]}"#,
            #"{"command":"seen","boards":[{"board":"attic","invites":1}]}"#,
            #"{"command":"seen","boards":[{"board":"attic","invites":true},{"board":"attic","invites":false}]}"#,
            #"{"command":"seen","boards":[\#(seventeen)]}"#,
        ] {
            guard case .failure(let error) = APIRequest.parse(Array(bad.utf8)) else {
                Issue.record("\(bad) was taken")
                continue
            }
            #expect(error.reason == .badArgument && error.command == "seen", "\(bad)")
        }
    }

    @Test("reset-learner: games absent or null for any learner, a count of games, else refused as a bad argument")
    func resetLearnerArgument() {
        #expect(APIRequest.parse(Array(#"{"command":"reset-learner"}"#.utf8)) == .success(.resetLearner(games: nil)))
        #expect(APIRequest.parse(Array(#"{"command":"reset-learner","games":null}"#.utf8)) == .success(.resetLearner(games: nil)))
        #expect(APIRequest.parse(Array(#"{"command":"reset-learner","games":30}"#.utf8)) == .success(.resetLearner(games: 30)))
        #expect(APIRequest.parse(Array(#"{"command":"reset-learner","games":30,"resets":2}"#.utf8)) == .success(.resetLearner(games: 30, resets: 2)))
        #expect(APIRequest.parse(Array(#"{"command":"reset-learner","resets":null}"#.utf8)) == .success(.resetLearner(games: nil, resets: nil)))
        for bad in [#"{"command":"reset-learner","games":-1}"#, #"{"command":"reset-learner","games":"3"}"#, #"{"command":"reset-learner","games":2.5}"#,
                    #"{"command":"reset-learner","resets":-1}"#, #"{"command":"reset-learner","games":3,"resets":"1"}"#] {
            guard case .failure(let error) = APIRequest.parse(Array(bad.utf8)) else {
                Issue.record("\(bad) was taken")
                continue
            }
            #expect(error.reason == .badArgument && error.command == "reset-learner", "\(bad)")
        }
    }

    @Test("teach: games 1 to the board's most and a level 1 to 4, both required, else refused as a bad argument naming the rule")
    func teachArguments() {
        #expect(APIRequest.parse(Array(#"{"command":"teach","games":10000,"level":1}"#.utf8)) == .success(.teach(games: 10_000, level: 1)))
        #expect(APIRequest.parse(Array(#"{"command":"stop-teaching"}"#.utf8)) == .success(.stopTeaching))
        #expect(APIRequest.mostLessonGames == Lesson.mostGames, "the protocol's bound is the board's")
        #expect(APIRequest.lessonLevels == ComputerLevel.allCases.first!.rawValue...ComputerLevel.allCases.last!.rawValue)
        for bad in [#"{"command":"teach"}"#, #"{"command":"teach","games":5}"#, #"{"command":"teach","level":2}"#, #"{"command":"teach","games":0,"level":2}"#,
                    #"{"command":"teach","games":10001,"level":2}"#, #"{"command":"teach","games":5,"level":5}"#, #"{"command":"teach","games":5,"level":0}"#,
                    #"{"command":"teach","games":"5","level":2}"#, #"{"command":"teach","games":5.5,"level":2}"#] {
            guard case .failure(let error) = APIRequest.parse(Array(bad.utf8)) else {
                Issue.record("\(bad) was taken")
                continue
            }
            #expect(error.reason == .badArgument && error.command == "teach" && (error.text.contains("games") || error.text.contains("level")), "\(bad): \(error.text)")
        }
    }

    @Test("history: each filter checked, naming the field; a field that is no filter refused, not taken for none", arguments: [
        (#"{"command":"history","palyer":"Ann"}"#, #""palyer" is no filter of history's"#),
        (#"{"command":"history","player":5}"#, #""player" must be text"#),
        (#"{"command":"history","since":"2026-13-01"}"#, #""since" is "2026-13-01""#),
        (#"{"command":"history","since":"2026-11-01T24:00:00Z"}"#, #""since" is"#),
        (#"{"command":"history","since":"yesterday"}"#, #""since" is "yesterday""#),
        (#"{"command":"history","outcome":"won"}"#, #""outcome" is "won"; give one of x-wins, o-wins, draw"#),
        (#"{"command":"history","limit":0}"#, #""limit" is 0; give a number of games from 1 to 100"#),
        (#"{"command":"history","limit":"5"}"#, #""limit" must be a whole number of games, 1 to 100"#),
        (#"{"command":"history","player":""}"#, #""player" must be 1 to 128 bytes"#),
    ])
    func historyFilters(line: String, words: String) {
        guard case .failure(let error) = APIRequest.parse(Array(line.utf8)) else {
            Issue.record("\(line) was taken")
            return
        }
        #expect(error.reason == .badArgument && error.command == "history" && error.text.contains(words), "\(error.text)")
    }

    @Test("cells are keypad numbers: 7 is the top left, 3 the bottom right")
    func keypadCells() {
        #expect(APIRequest.parse(Array(#"{"command":"press","cell":7}"#.utf8)) == .success(.press(Position(row: 0, column: 0)!)))
        #expect(APIRequest.parse(Array(#"{"cell":3,"command":"press","extra":[1]}"#.utf8)) == .success(.press(Position(row: 2, column: 2)!)))
    }

    /// Each class of bad line, and the words its reply must contain.
    static let badLines: [(String, [UInt8], String)] = [
        ("not JSON", Array("press 5".utf8), "not JSON"),
        ("not an object", Array("[1,2]".utf8), "a request is a JSON object"),
        ("no command", Array("{}".utf8), #"no "command""#),
        ("command of the wrong type", Array(#"{"command":5}"#.utf8), #""command" must be text"#),
        ("unknown command", Array(#"{"command":"fly"}"#.utf8), #"unknown command "fly""#),
        ("press without a cell", Array(#"{"command":"press"}"#.utf8), #"press needs "cell""#),
        ("a cell of the wrong type", Array(#"{"command":"press","cell":"5"}"#.utf8), #""cell" must be a whole number from 1 to 9"#),
        ("a fractional cell", Array(#"{"command":"press","cell":5.5}"#.utf8), #""cell" must be a whole number"#),
        ("a cell off the board", Array(#"{"command":"press","cell":0}"#.utf8), #""cell" is 0; give a cell from 1 to 9"#),
        ("invalid UTF-8", [0x7B, 0xFF, 0xFE, 0x7D], "not valid UTF-8"),
        ("a raw control character in a string", Array("{\"command\":\"pr\u{01}ess\"}".utf8), "raw control character (U+0001)"),
        // Swift 6.0's decoder traps on a bad escape in an object's key [6.0.3: decoder-traps].
        ("a bad escape in a key", Array(#"{"command":"press","c\[":1}"#.utf8), #""\[" stands inside a string, and is no escape JSON has"#),
        ("a short unicode escape", Array(#"{"command":"pr\u12"}"#.utf8), #""\u12" stands inside a string"#),
        ("over 4 KiB", Array(repeating: UInt8(ascii: " "), count: 4097), "longer than 4096 bytes"),
    ]

    @Test("an opponent's name is carried as it is, escaped on its line: the board, which knows the names, refuses one it does not")
    func opponentNames() {
        let odd = APIRequest.opponent(name: "robot \"7\"\n")
        #expect(APIRequest.parse(Array(odd.line.utf8)) == .success(odd))
        #expect(APIRequest.opponent(.computer(.perfect)) == .opponent(name: "computer-4"))
    }

    @Test("each bad line is refused with a reply that names the problem")
    func badLines() {
        for (name, line, words) in Self.badLines {
            guard case .failure(let error) = APIRequest.parse(line) else {
                Issue.record("\(name): accepted")
                continue
            }
            #expect(error.text.contains(words), "\(name): \(error.text)")
        }
    }

    @Test("lines: split at newlines, CR LF taken, a partial line kept for later, an over-long one reported once and skipped")
    func lineBuffer() {
        var buffer = LineBuffer(limit: 8)
        #expect(buffer.append(Array("ab\ncd\r\nef".utf8)) == [.complete(Array("ab".utf8)), .complete(Array("cd".utf8))])
        #expect(buffer.pendingCount == 2)
        #expect(buffer.append(Array("gh\n".utf8)) == [.complete(Array("efgh".utf8))])
        #expect(buffer.append(Array("123456789".utf8)) == [.tooLong])
        #expect(buffer.pendingCount == 0)
        #expect(buffer.append(Array("more of it".utf8)) == [])
        #expect(buffer.append(Array("still\nok\n".utf8)) == [.complete(Array("ok".utf8))])
        #expect(buffer.append(Array("12345678\n".utf8)) == [.complete(Array("12345678".utf8))])
    }

    @Test("an outbox holds at most one state (the newest replaces one not begun) and a bounded number of replies")
    func outbox() {
        var outbox = Outbox()
        outbox.add(state: Array("s1\n".utf8))
        let taken = outbox.add(reply: Array("r1\n".utf8))
        #expect(taken)
        outbox.add(state: Array("s2\n".utf8))
        outbox.add(state: Array("s3\n".utf8))
        var written: [UInt8] = []
        // A client that takes two bytes, then nothing: the state it began stays, whole.
        var budget = 2
        let first = outbox.flush { bytes in
            let taken = min(budget, bytes.count)
            written += bytes.prefix(taken)
            budget -= taken
            return taken
        }
        #expect(first)
        outbox.add(state: Array("s4\n".utf8))
        let second = outbox.flush { bytes in
            written += bytes
            return bytes.count
        }
        #expect(second)
        #expect(String(decoding: written, as: UTF8.self) == "r1\ns4\n")
        let accepted = (0..<Outbox.replyLimit).map { outbox.add(reply: Array("r\($0)\n".utf8)) }
        #expect(accepted.allSatisfy { $0 })
        let oneTooMany = outbox.add(reply: Array("one too many\n".utf8))
        #expect(!oneTooMany)
        let failing = outbox.flush { _ in nil }
        #expect(!failing)
    }
}
