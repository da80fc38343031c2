import BoardProtocol
import Foundation
import Testing

/// A good board, `kitchen`, with the field `key` (if any) holding `value` instead.
private func kitchen(_ key: String = "", _ value: String = "") -> String {
    let fields = [
        ("name", #""kitchen""#), ("online", "true"), ("cells", #"["X","","O","","X","","","",""]"#), ("turn", #""O""#), ("outcome", #""playing""#),
        ("opponent", #""two-players""#), ("score", #"{"xWins":2,"oWins":1,"draws":0}"#),
    ]
    return "{" + fields.map { "\"\($0.0)\":\($0.0 == key ? value : $0.1)" }.joined(separator: ",") + "}"
}

/// A list of `boards` (one good board unless told), with `extra` fields.
private func list(boards: String = kitchen(), extra: String = "") -> [UInt8] {
    return Array(#"{"type":"boards","broker":"broker.home:8883","connected":true,"boards":[\#(boards)],"lost":0,"ignored":0,"beyondLimit":0\#(extra)}"#.utf8)
}

@Suite("The boards list the link writes and the web view passes on")
struct BoardsListTests {
    @Test("a list as the link writes it is read back whole, and written again the same")
    func roundTrip() throws {
        let read = try BoardsList.read(list())
        #expect(read.boards.map(\.name) == ["kitchen"])
        #expect(read.boards.first?.score == ViewState.Tally(xWins: 2, oWins: 1, draws: 0))
        let again = try BoardsList.read(Array((JSONLine.encode(read) ?? "").utf8))
        #expect(again == read)
        // A board heard only by its presence: no marks, and nothing of a game.
        let presenceOnly = try BoardsList.read(list(boards: #"{"name":"attic","online":false}"#))
        #expect(presenceOnly.boards.first?.cells == nil && presenceOnly.boards.first?.online == false)
    }

    @Test("anything that is not a list a link could write is refused, saying what", arguments: [
        ("{", "not a list of boards"),
        (#"{"type":"state","broker":"b","connected":true,"boards":[],"lost":0,"ignored":0,"beyondLimit":0}"#, "type is not"),
        (#"{"type":"boards","broker":"b","connected":true,"boards":[],"lost":-1,"ignored":0,"beyondLimit":0}"#, "negative"),
        // The broker is shown too: a host and port, nothing that could mislead a reader.
        (#"{"type":"boards","broker":"<script>:1883","connected":true,"boards":[],"lost":0,"ignored":0,"beyondLimit":0}"#, "broker is not"),
        (#"{"type":"boards","broker":"b‮:1883","connected":true,"boards":[],"lost":0,"ignored":0,"beyondLimit":0}"#, "broker is not"),
        (#"{"type":"boards","broker":"","connected":true,"boards":[],"lost":0,"ignored":0,"beyondLimit":0}"#, "broker is not"),
    ])
    func refusedWhole(file: String, said: String) {
        #expect(throws: BoardsList.Unreadable.self) { try BoardsList.read(Array(file.utf8)) }
        do { _ = try BoardsList.read(Array(file.utf8)) } catch { #expect(error.reason.contains(said), "\(error.reason)") }
    }

    @Test("a board that could not be is refused: its name, marks, turn, outcome, opponent or score", arguments: [
        ("name", #""Kitchen""#, "name"), ("name", #""a/b""#, "name"), ("name", #""\u001b[2J""#, "name"),
        ("cells", #"["X","","O"]"#, "not one a board could be in"), ("cells", #"["Z","","O","","X","","","",""]"#, "not one a board could be in"),
        ("cells", #"["X","X","X","","","","","",""]"#, "not one a board could be in"), ("turn", "null", "not one a board could be in"),
        ("outcome", #""x-wins""#, "not one a board could be in"), ("turn", #""Q""#, "not one a board could be in"), ("opponent", #""board:""#, "not one a board could be in"),
        ("score", #"{"xWins":-1,"oWins":0,"draws":0}"#, "not one a board could be in"),
    ])
    func refusedBoard(key: String, value: String, said: String) {
        do {
            _ = try BoardsList.read(list(boards: kitchen(key, value)))
            Issue.record("\(key) \(value) was read")
        } catch {
            #expect(error.reason.contains(said), "\(key) \(value): \(error.reason)")
        }
    }

    @Test("a state without marks, a board twice, more than 1,024 boards, a broker too long and a file over its bound are refused")
    func refusedOtherwise() {
        let cases: [([UInt8], String)] = [
            (list(boards: #"{"name":"attic","turn":"X"}"#), "without marks"),
            (list(boards: #"{"name":"attic"},{"name":"attic"}"#), "twice"),
            (list(boards: (0...1024).map { #"{"name":"b\#($0)"}"# }.joined(separator: ",")), "more than 1024"),
            (list(extra: #","pad":""# + String(repeating: "a", count: BoardsList.largestFile) + #"""#), "larger than"),
            (Array(#"{"type":"boards","broker":"\#(String(repeating: "h", count: 256)):65535","connected":true,"boards":[],"lost":0,"ignored":0,"beyondLimit":0}"#.utf8), "broker is not"),
        ]
        for (file, said) in cases {
            do {
                _ = try BoardsList.read(file)
                Issue.record("a list that should be refused (\(said)) was read")
            } catch {
                #expect(error.reason.contains(said), "\(error.reason)")
            }
        }
        // The most it holds, each board at its longest name, fits in the file's bound.
        let most = (0..<BoardsList.most).map { index in
            var board = BoardsList.Board(name: String(repeating: "b", count: 28) + String(format: "%04d", index), online: true)
            (board.cells, board.turn, board.outcome) = (Array(repeating: "", count: 9), "X", "playing")
            (board.opponent, board.score) = ("board:" + String(repeating: "c", count: 32) + ":x", ViewState.Tally(xWins: 999_999, oWins: 999_999, draws: 999_999))
            return board
        }
        let longest = JSONLine.encode(BoardsList(broker: "[" + String(repeating: "f", count: 253) + "]:65535", connected: true, boards: most)) ?? ""
        #expect(longest.utf8.count <= BoardsList.largestFile, "\(longest.utf8.count) bytes")
        #expect((try? BoardsList.read(Array(longest.utf8)))?.boards.count == BoardsList.most)
    }
}
