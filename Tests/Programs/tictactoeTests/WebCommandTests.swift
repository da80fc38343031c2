import Basics
import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport
import TicTacToe
#if canImport(Glibc)
import Glibc
#endif

/// `tictactoe-web` running in the background against a board, as `make web` starts it.
final class ServedWeb {
    let port: UInt16
    private let process = Process()
    private let log = Pipe()

    /// `environment`: more of the web view's environment, beside the test's.
    init(board: String, arguments: [String] = [], environment: [String: String] = [:]) throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tictactoe-web").path
        let page = repositoryRoot
            .appendingPathComponent("web").path
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--socket", board, "--listen", "127.0.0.1:0", "--page", page] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let text = try ServedSimulation.read(log, until: "\n")
        // "… the board's page is at http://127.0.0.1:PORT/ …"
        guard let range = text.range(of: "http://127.0.0.1:"), let port = UInt16(text[range.upperBound...].prefix { $0.isNumber }) else {
            throw ServedSimulation.NotReady(log: text)
        }
        self.port = port
    }

    /// The web view's resident memory, in KiB.
    var residentKiB: Int { residentMemoryKiB(of: process.processIdentifier) }

    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A page's WebSocket, opened as the page opens it, past the web view's first messages.
    func page() throws -> WebClient {
        let client = try WebClient(port: port)
        let host = "127.0.0.1:\(port)"
        guard try client.upgrade(host: host, origin: "http://\(host)").status == 101 else { throw WebClient.Closed() }
        return client
    }
}

/// The board's own status, as `status --json` gives it.
private func status(_ board: ServedSimulation) throws -> [String: Any] {
    let status = try board.run(["status", "--json"])
    return try JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [String: Any] ?? [:]
}

/// The board's moves so far, from its own status.
private func moves(_ board: ServedSimulation) throws -> Int {
    (try status(board)["health"] as? [String: Any])?["moves"] as? Int ?? -1
}

@Suite("tictactoe-web against simulate --serve", .serialized, .process)
struct WebCommandTests {
    @Test("a page gets the board at once, plays a move, sees the state before the reply, and a refusal flashes")
    func play() throws {
        let board = try ServedSimulation()
        defer { board.stop() }
        let web = try ServedWeb(board: board.socket)
        defer { web.stop() }
        let page = try web.page()
        #expect(page.text(containing: #""type":"web""#)?.contains(#""play":true"#) == true)
        #expect(page.text(containing: #""type":"hello""#) != nil)
        #expect(page.text(containing: #""type":"state""#)?.contains(#""cells":["","","","","","","","",""]"#) == true)
        page.sendText(#"{"command":"press","cell":5}"#)
        let state = try #require(page.nextText())
        #expect(state.contains(#""cells":["","","","","X","","","",""]"#))
        #expect(page.nextText()?.contains(#""type":"ok""#) == true)
        page.sendText(#"{"command":"press","cell":5}"#)
        #expect(page.text(containing: #""type":"state""#)?.contains(#""flashing":5"#) == true)
        #expect(page.text(containing: #""type":"error""#)?.contains("taken") == true)
        // A second page sees the same board, and the terminal's watch too.
        let other = try web.page()
        #expect(other.text(containing: #""type":"state""#)?.contains(#""X""#) == true)
        #expect((try status(board)["state"] as? [String: Any])?["cells"] as? [String] == ["", "", "", "", "X", "", "", "", ""])
    }

    @Test("hostile pages: oversized, malformed and 1,000 random frames are refused, and the game is untouched")
    func hostile() throws {
        let board = try ServedSimulation()
        defer { board.stop() }
        let web = try ServedWeb(board: board.socket)
        defer { web.stop() }
        var generator = SeededRandom(seed: 0x5EB_50C)
        // Messages the board's API refuses: each answered with an error, the connection kept.
        let page = try web.page()
        for line in [#"{"command":"press","cell":0}"#, "not json", #"{"command":"fly"}"#, "[1]", #"{"command":"press","cell":"5"}"#] {
            page.sendText(line)
            #expect(page.text(containing: #""type":"error""#) != nil, "\(line)")
        }
        page.sendText(#"{"command":"ping","pad":""# + String(repeating: "a", count: 900) + #""}"#)
        #expect(page.text(containing: "pong") != nil)
        // Random frames: random kinds, lengths and bytes, on a fresh connection each time one is closed.
        var frames = 0, closed = 0
        var random = try web.page()
        while frames < 1000 {
            let opcode = [0x0, 0x1, 0x1, 0x1, 0x2, 0x3, 0x8, 0x9, 0xA, 0xF].randomElement(using: &generator)!
            let length = [0, 1, 10, 125, 126, 1000, 1024, 1025, 5000].randomElement(using: &generator)!
            let payload = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            random.send(WebClient.frame(opcode: UInt8(opcode), payload: payload, fin: Bool.random(using: &generator) || opcode == 0x8))
            frames += 1
            if opcode == 0x8 || length > 1024 || opcode == 0x0 || opcode == 0x2 || opcode == 0x3 || opcode == 0xF {
                // The server ends this connection: a fresh one for the next frames.
                #expect(random.isClosedByServer())
                closed += 1
                random = try web.page()
            }
        }
        #expect(closed > 100)
        #expect(try moves(board) == 0)
        #expect(try board.run(["watch", "--once"]).out.hasPrefix("   ·   ·   ·\n   ·   ·   ·"))
        // And the web view still serves a page that plays.
        let after = try web.page()
        after.sendText(#"{"command":"press","cell":7}"#)
        #expect(after.text(containing: #""type":"ok""#) != nil)
    }

    @Test("a hundred presses in a second: ten reach the board, ninety are refused as too many")
    func flood() throws {
        let board = try ServedSimulation()
        defer { board.stop() }
        let web = try ServedWeb(board: board.socket)
        defer { web.stop() }
        let page = try web.page()
        // The page reads as it sends, as a browser does: a page that reads nothing is sent only
        // the newest of what it has not read.
        let counts = Locked((fromBoard: 0, tooMany: 0))
        let reading = DispatchGroup()
        DispatchQueue.global().async(group: reading) {
            while counts.withLock({ $0.fromBoard + $0.tooMany }) < 100, let text = page.nextText() {
                if text.contains("too many commands") {
                    counts.withLock { $0.tooMany += 1 }
                } else if text.contains(#""type":"ok""#) || text.contains(#""type":"error""#) {
                    counts.withLock { $0.fromBoard += 1 }
                }
            }
        }
        for index in 0..<100 { page.sendText(#"{"command":"press","cell":\#(index % 9 + 1)}"#) }
        #expect(reading.wait(timeout: .now() + 30) == .success)
        let (fromBoard, tooMany) = counts.withLock { $0 }
        #expect(fromBoard <= 10)
        #expect(fromBoard + tooMany == 100)
        #expect(try moves(board) <= 10)
    }

    @Test("--allow watch: pages see the board and may ask for the history, but a press is refused")
    func watchOnly() throws {
        let board = try ServedSimulation()
        defer { board.stop() }
        let web = try ServedWeb(board: board.socket, arguments: ["--allow", "watch"])
        defer { web.stop() }
        let page = try web.page()
        #expect(page.text(containing: #""type":"web""#)?.contains(#""play":false"#) == true)
        // The web view may still be connecting to the board: the board's state says it has.
        #expect(page.text(containing: #""type":"state""#) != nil)
        page.sendText(#"{"command":"press","cell":5}"#)
        #expect(page.text(containing: #""type":"error""#)?.contains("watching only") == true)
        page.sendText(#"{"command":"history"}"#)
        #expect(page.text(containing: #""type":"history""#) != nil)
        #expect(try moves(board) == 0)
    }

    @Test("the board restarts: pages are told it went away, and get its state again when it is back")
    func boardRestarts() throws {
        let folder = try Tictactoe.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let board = try ServedSimulation(socket: folder + "/board.sock")
        let web = try ServedWeb(board: board.socket)
        defer { web.stop() }
        let page = try web.page()
        #expect(page.text(containing: #""type":"state""#) != nil)
        board.stop()
        #expect(page.text(containing: #""reachable":false"#) != nil)
        let again = try ServedSimulation(socket: board.socket)
        defer { again.stop() }
        #expect(page.text(containing: #""reachable":true"#) != nil)
        #expect(page.text(containing: #""type":"state""#) != nil)
    }

    @Test("bad settings: an unreadable page folder (66), a port taken (69), a bad --listen (64), each saying what to do")
    func badSettings() throws {
        let board = try ServedSimulation()
        defer { board.stop() }
        let web = try ServedWeb(board: board.socket)
        defer { web.stop() }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tictactoe-web").path
        let noPage = try Tictactoe.run(["--socket", board.socket, "--listen", "127.0.0.1:0", "--page", "/nonexistent"], program: executable, prefix: [])
        #expect(noPage.status == 66)
        #expect(noPage.err.contains("/nonexistent/index.html") && noPage.err.contains("--page"))
        let page = repositoryRoot
            .appendingPathComponent("web").path
        let taken = try Tictactoe.run(["--socket", board.socket, "--listen", "127.0.0.1:\(web.port)", "--page", page], program: executable, prefix: [])
        #expect(taken.status == 69)
        #expect(taken.err.contains("another program listens there"))
        let bad = try Tictactoe.run(["--listen", "everywhere"], program: executable, prefix: [])
        #expect(bad.status == 64)
        #expect(bad.err.contains("ADDRESS:PORT"))
    }

    @Test("the configuration file: its [web] table is read, a bad one or a file that is not TOML refused (78) with its line; the board's tables are the board's")
    func configurationFile() throws {
        let folder = try Tictactoe.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tictactoe-web").path
        let refused = [
            ("[buttons]\nnew_game = = 3\n", "line 2: not valid TOML"),
            ("[web]\nallow = \"all\"\n", "line 2: web.allow is \"all\"; it must be \"play\" or \"watch\"."),
        ]
        for (text, says) in refused {
            let file = folder + "/bad.toml"
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            let result = try Tictactoe.run(["--config", file, "--listen", "127.0.0.1:0"], program: executable, prefix: [])
            #expect(result.status == 78, "\(text): \(result.err)")
            #expect(result.err.contains("\(file), \(says)"), "\(result.err)")
        }
        // A wiring the web view never uses does not stop it: the board checks its own tables.
        let file = folder + "/tictactoe.toml"
        try Data("[buttons]\nnew_game = \"three\"\n[web]\nallow = \"watch\"\n".utf8).write(to: URL(fileURLWithPath: file))
        let board = try ServedSimulation()
        defer { board.stop() }
        let web = try ServedWeb(board: board.socket, arguments: ["--config", file])
        defer { web.stop() }
        #expect(try web.page().text(containing: #""type":"web""#)?.contains(#""play":false"#) == true)
    }
}

