import BoardProtocol
import Foundation
import Testing
import WebRules
import TestSupport

@Suite("What a page sends")
struct PageRequestTests {
    @Test("a ping, and the board's commands")
    func commands() {
        #expect(PageRequest.parse(Array(#"{"command":"ping"}"#.utf8), playing: true) == .success(.ping))
        #expect(PageRequest.parse(Array(#"{"command":"press","cell":5}"#.utf8), playing: true)
            == .success(.board(.press(cell: 5))))
        #expect(PageRequest.parse(Array(#"{"command":"history"}"#.utf8), playing: false) == .success(.board(.history(.all))))
        // The boards view is watching: a page that may only watch may open it.
        #expect(PageRequest.parse(Array(#"{"command":"boards","watch":true}"#.utf8), playing: false) == .success(.boards(watch: true)))
        #expect(PageRequest.parse(Array(#"{"command":"boards","watch":false}"#.utf8), playing: true) == .success(.boards(watch: false)))
        for bad in [#"{"command":"boards"}"#, #"{"command":"boards","watch":"yes"}"#, #"{"command":"boards","watch":null}"#] {
            guard case .failure(let error) = PageRequest.parse(Array(bad.utf8), playing: true) else {
                Issue.record("\(bad) was accepted")
                continue
            }
            #expect(error.command == "boards" && error.text.contains("\"watch\": true or false"), "\(bad): \(error.text)")
        }
    }

    @Test("watching pages may ask but not change the game", arguments: [
        #"{"command":"press","cell":5}"#, #"{"command":"new-game"}"#, #"{"command":"abandon"}"#,
        #"{"command":"opponent","opponent":"computer-4"}"#,
    ])
    func watching(line: String) throws {
        guard case .failure(let error) = PageRequest.parse(Array(line.utf8), playing: false) else {
            Issue.record("\(line) was accepted from a watching page")
            return
        }
        #expect(error.text.contains("watching only"))
        #expect(error.command != nil)
    }

    @Test("a message over 1 KiB is refused before it is read; a bad one gets the board's own words")
    func refusals() {
        let long = Array(#"{"command":"ping","pad":""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: 1024) + Array(#""}"#.utf8)
        guard case .failure(let tooLong) = PageRequest.parse(long, playing: true) else {
            Issue.record("an oversized message was accepted")
            return
        }
        #expect(tooLong.text.contains("1024 bytes"))
        guard case .failure(let unknown) = PageRequest.parse(Array(#"{"command":"fly"}"#.utf8), playing: true) else {
            Issue.record("an unknown command was accepted")
            return
        }
        #expect(unknown.text.contains("unknown command"))
    }

    @Test("every command the page's script sends is one the page may send: the board's names, or the web view's own")
    func pageScriptCommands() throws {
        let script = repositoryRoot.appendingPathComponent("web/board.js")
        let source = try String(contentsOf: script, encoding: .utf8)
        let expression = try NSRegularExpression(pattern: #"command: "([^"]*)""#)
        let sent = expression.matches(in: source, range: NSRange(source.startIndex..., in: source)).compactMap { match in
            Range(match.range(at: 1), in: source).map { String(source[$0]) }
        }
        #expect(Set(sent).count >= 6, "the script's commands were not found: \(sent)")
        for name in Set(sent) {
            #expect(PageRequest.ownCommands.contains(name) || APIRequest.Command(rawValue: name) != nil, "board.js sends \(name.debugDescription)")
        }
    }
}
