import Foundation
import TestSupport
import Testing

/// `tictactoe check-state`: the saved game read as the board reads it at its start, nothing changed.
@Suite("check-state", .serialized, .process)
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

    @Test("release 0.4's files are shown as the board will import them; a leftover temporary file is named")
    func restored() throws {
        let history = #"{"version": 1, "games": []}"#
        let state = try folder(["state.json": Self.savedGame, "history.json": history, "state.json.tmp-3": "{\"cel"])
        defer { try? FileManager.default.removeItem(atPath: state) }
        // A directory at a temporary name is nothing a save left: not listed, never a failure.
        try FileManager.default.createDirectory(atPath: state + "/history.json.tmp-1", withIntermediateDirectories: false)
        let before = try listing(state)
        let text = try Tictactoe.run(["check-state", "--state-dir", state])
        #expect(text.status == 0, "\(text.err)")
        #expect(text.out.contains("board.sqlite3: none yet; the board imports release 0.4's files at its next start: 0 finished games."), "\(text.out)")
        #expect(text.out.contains("The saved game, which the board restores: X.O / .X. / ... (playing)."))
        #expect(text.out.contains("state.json.tmp-3: left by a save that a crash or power cut interrupted"))
        let json = try Tictactoe.run(["check-state", "--state-dir", state, "--json"])
        let found = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(found["state"] as? String == "restored" && found["source"] as? String == "release 0.4's files")
        #expect(found["cells"] as? [String] == ["X", "", "O", "", "X", "", "", "", ""])
        #expect(found["outcome"] as? String == "playing")
        #expect(found["games"] as? Int == 0 && (found["problems"] as? [String])?.isEmpty == true)
        #expect((found["leftovers"] as? [String])?.count == 1)
        #expect(try listing(state) == before, "check-state changed the state directory")
    }

    @Test("no saved game: a new one, exit 0")
    func fresh() throws {
        let state = try folder([:])
        defer { try? FileManager.default.removeItem(atPath: state) }
        let outcome = try Tictactoe.run(["check-state", "--state-dir", state, "--json"])
        #expect(outcome.status == 0)
        #expect(outcome.out.contains(#""state":"fresh""#) && outcome.out.contains(#""source":"nothing""#), "\(outcome.out)")
    }

    @Test("a file the board could not use is named with what is wrong, exit 65, and left where it is", arguments: [
        ("state.json", "{\"cells\": [\"X\"", "is not a valid saved game"),
        ("history.json", "{\"version\": 7, \"games\": []}", "format version 7, expected 1: the board will set it aside"),
        ("board.sqlite3", "not a database, however it is named", "board.sqlite3 cannot be used: file is not a database: the board will set it aside"),
    ])
    func unusable(file: String, text: String, words: String) throws {
        let state = try folder(["state.json": Self.savedGame].merging([file: text]) { $1 })
        defer { try? FileManager.default.removeItem(atPath: state) }
        let before = try listing(state)
        let outcome = try Tictactoe.run(["check-state", "--state-dir", state])
        #expect(outcome.status == 65)
        #expect(outcome.out.contains("\(state)/\(file)"))
        #expect(outcome.out.contains(words), "\(outcome.out)")
        #expect(try listing(state) == before)
    }

    @Test("the board's own database, written by a served board: its game and finished games as the board restores them")
    func database() throws {
        let board = try ServedSimulation()
        for cell in [7, 1, 8, 2, 9] { _ = try board.run(["press", "\(cell)"]) }
        let state = board.stateDirectory
        #expect(board.stop(keepingFolder: true) == 0)
        defer { try? FileManager.default.removeItem(atPath: board.folder) }
        let json = try Tictactoe.run(["check-state", "--state-dir", state, "--json"])
        #expect(json.status == 0, "\(json.err)")
        let found = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(found["source"] as? String == "database" && found["state"] as? String == "restored", "\(json.out)")
        #expect(found["games"] as? Int == 1)
        #expect(found["cells"] as? [String] == ["X", "X", "X", "", "", "", "O", "O", ""] && found["outcome"] as? String == "x-wins")
        let newer = try Tictactoe.run(["check-state", "--state-dir", state])
        #expect(newer.out.contains("board.sqlite3: OK, 1 finished games."), "\(newer.out)")
    }

    /// A saved game against the learner, its one box holding `beads` (the empty board's, O to
    /// start: corner, edge and centre), after one game it won.
    static func learnersGame(beads: String) -> String {
        """
        {"version": 3, "cells": ["", "", "", "", "", "", "", "", ""], "starter": "O", "nextStarter": "X",
         "opponent": "learner", "scores": {}, "moves": [],
         "learner": {"boxes": {".........": [\(beads)]}, "refills": 0, "games": 1, "tens": [[1, 0, 0]]}}
        """
    }

    @Test("the learner found is reported with its record, its boxes and its beads' digest; a bead more changes the digest")
    func learner() throws {
        var digests: [String] = []
        for beads in ["5, 4, 0, 0, 4, 0, 0, 0, 0", "5, 5, 0, 0, 4, 0, 0, 0, 0"] {
            let state = try folder(["state.json": Self.learnersGame(beads: beads)])
            defer { try? FileManager.default.removeItem(atPath: state) }
            let json = try Tictactoe.run(["check-state", "--state-dir", state, "--json"])
            #expect(json.status == 0, "\(json.err)")
            let found = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
            let learner = try #require(found["learner"] as? [String: Any], "\(json.out)")
            #expect(learner["games"] as? Int == 1 && learner["won"] as? Int == 1 && learner["drew"] as? Int == 0 && learner["lost"] as? Int == 0)
            #expect(learner["boxes"] as? Int == 1 && learner["refills"] as? Int == 0)
            digests.append(try #require(learner["digest"] as? String))
            let text = try Tictactoe.run(["check-state", "--state-dir", state])
            #expect(text.out.contains("The learner: 1 played (won 1, drew 0, lost 0), 1 of its boxes opened, 0 refilled; its beads' digest \(digests.last ?? ""); the board's first learner."))
            #expect(learner["resets"] as? Int == 0, "release 0.4's file knew no resets")
        }
        // FNV-1a (64 bits) of ".........:5,4,0,0,4,0,0,0,0\n", computed apart from the board's code.
        #expect(digests.first == "282cebea93cb8df2")
        #expect(digests.count == 2 && digests[0] != digests[1], "a bead more must change the digest")
    }

    @Test("no saved game: the fresh learner the board starts with, no boxes, the digest of nothing")
    func freshLearner() throws {
        let state = try folder([:])
        defer { try? FileManager.default.removeItem(atPath: state) }
        let json = try Tictactoe.run(["check-state", "--state-dir", state, "--json"])
        #expect(json.out.contains(#""learner":{"boxes":0,"digest":"cbf29ce484222325","drew":0,"games":0,"lost":0,"refills":0,"resets":0,"won":0}"#), "\(json.out)")
    }
}
