import Testing
@testable import WebRules

@Suite("A message's type, read without decoding the rest")
struct TopLevelTypeTests {
    @Test("the top-level type, wherever it stands, never one inside a value", arguments: [
        (#"{"type":"state","state":{"cells":["X"]}}"#, "state"),
        (#"{"games":[{"type":"x","names":{"x":"A \"type\": \"bye\""}}],"type":"history"}"#, "history"),
        (#" { "command" : "press" , "text" : "X took cell 5." , "type" : "ok" } "#, "ok"),
        (#"{"n":-1.5e3,"t":true,"f":null,"a":[[],{}],"type":"hello"}"#, "hello"),
        (#"{"text":"a \\ b","type":"error"}"#, "error"),
    ])
    func found(line: String, type: String) {
        #expect(TopLevelType.of(line.utf8) == type)
    }

    @Test("anything else has none", arguments: [
        "", "[]", #""type""#, #"{"type":1}"#, #"{"type":"state""#, #"{"games":[{"type":"x"}]}"#, #"{"a":"unended}"#,
        #"{"type":"st\"ate"}"#, "{", #"{"a" "type":"ok"}"#,
    ])
    func none(line: String) {
        let type = TopLevelType.of(line.utf8)
        #expect(type == nil || type == "")
    }
}
