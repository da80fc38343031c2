import Foundation
import Testing

/// `tictactoe check-state`: the saved game read as the board reads it at its start, nothing changed.
@Suite("check-state", .serialized)
struct CheckStateTests {
    static let savedGame = """
        {"cells": ["X", "", "O", "", "X", "", "", "", ""], "nextStarter": "O", "opponent": "two-players",
         "scores": {}, "starter": "X", "version": 2}
        """

    func folder(_ files: [String: String]) throws -> String {
        let folder = try Tictactoe.temporaryFolder()
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        return folder
    }

    func listing(_ folder: String) throws -> [String: Data] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        return Dictionary(uniqueKeysWithValues: names.map { ($0, (try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0))) ?? Data("a directory".utf8)) })
    }

    @Test("a saved game and history are shown as the board will restore them; a leftover temporary file is named")
    func restored() throws {
        let history = #"{"version": 1, "games": []}"#
        let state = try folder(["state.json": Self.savedGame, "history.json": history, "state.json.tmp-3": "{\"cel"])
        defer { try? FileManager.default.removeItem(atPath: state) }
        // A directory at a temporary name is nothing a save left: not listed, never a failure.
        try FileManager.default.createDirectory(atPath: state + "/history.json.tmp-1", withIntermediateDirectories: false)
        let before = try listing(state)
        let text = try Tictactoe.run(["check-state", "--state-dir", state])
        #expect(text.status == 0, "\(text.err)")
        #expect(text.out.contains("state.json: OK, a game the board restores: X.O / .X. / ... (playing)."))
        #expect(text.out.contains("history.jsonl: OK, 0 finished games."), "an older version's history.json, read as the board migrates it")
        #expect(text.out.contains("state.json.tmp-3: left by a save that a crash or power cut interrupted"))
        let json = try Tictactoe.run(["check-state", "--state-dir", state, "--json"])
        let found = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(found["state"] as? String == "restored")
        #expect(found["cells"] as? [String] == ["X", "", "O", "", "X", "", "", "", ""])
        #expect(found["outcome"] as? String == "playing")
        #expect(found["history"] as? String == "read" && found["games"] as? Int == 0)
        #expect((found["leftovers"] as? [String])?.count == 1)
        #expect(try listing(state) == before, "check-state changed the state directory")
    }

    @Test("no saved game: a new one, exit 0")
    func fresh() throws {
        let state = try folder([:])
        defer { try? FileManager.default.removeItem(atPath: state) }
        let outcome = try Tictactoe.run(["check-state", "--state-dir", state, "--json"])
        #expect(outcome.status == 0)
        #expect(outcome.out.contains(#""state":"fresh""#) && outcome.out.contains(#""history":"fresh""#))
    }

    @Test("a file the board could not use is named with what is wrong, exit 65, and left where it is",
          arguments: [("state.json", "{\"cells\": [\"X\""), ("history.json", "{\"version\": 7, \"games\": []}")])
    func unusable(file: String, text: String) throws {
        let state = try folder(["state.json": Self.savedGame].merging([file: text]) { $1 })
        defer { try? FileManager.default.removeItem(atPath: state) }
        let before = try listing(state)
        let outcome = try Tictactoe.run(["check-state", "--state-dir", state])
        #expect(outcome.status == 65)
        #expect(outcome.out.contains("\(state)/\(file)"))
        #expect(outcome.out.contains(file == "state.json" ? "will set it aside" : "format version 7, expected 1: the board will set it aside"))
        #expect(try listing(state) == before)
    }
}
