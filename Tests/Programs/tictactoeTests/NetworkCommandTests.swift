import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `tictactoe-network` in the background between a board and a broker, as its service runs it:
/// the board's user and password, over TLS unless told otherwise.
final class ServedNetwork {
    let folder: String
    private let process = Process()
    private let log = Pipe()

    /// `environment`: more of the link's environment, beside the test's.
    init(
        board: ServedSimulation, broker: Broker, name: String = "kitchen", user: String? = nil, allow: String = "play", tls: Bool = true,
        password: String? = nil, caFile: String? = nil, environment: [String: String] = [:], boardsFile: String? = nil
    ) throws {
        folder = try Tictactoe.temporaryFolder()
        self.boardsFile = boardsFile ?? "\(folder)/boards.json"
        let user = user ?? name
        // With Windows' line end, as an editor there may leave it.
        try Data(((password ?? Broker.password(user)) + "\r\n").utf8).write(to: URL(fileURLWithPath: "\(folder)/password"))
        let config = """
            [network]
            broker = "\(tls ? "localhost" : "127.0.0.1"):\(tls ? broker.tlsPort : broker.port)"
            name = "\(name)"
            allow = "\(allow)"
            user = "\(user)"
            password-file = "\(folder)/password"
            ca-file = "\(caFile ?? (tls ? "\(broker.folder)/ca.pem" : ""))"

            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: "\(folder)/tictactoe.toml"))
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tictactoe-network").path
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--socket", board.socket, "--config", "\(folder)/tictactoe.toml", "--boards-file", self.boardsFile]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = log
        process.standardError = log
        try process.run()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The link's log from here on, read until it contains `marker`.
    func log(until marker: String) throws -> String {
        try ServedSimulation.read(log, until: marker)
    }

    /// Where it keeps the boards list for the web view.
    let boardsFile: String

    /// The link's resident memory, in KiB.
    var residentKiB: Int { residentMemoryKiB(of: process.processIdentifier) }

    var isRunning: Bool { process.isRunning }

    /// The status it exits with of itself.
    func exitStatus() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// A process's resident memory, in KiB; -1 when it cannot be read.
func residentMemoryKiB(of pid: Int32) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}

/// The board's moves so far, from its own status.
private func moves(_ board: ServedSimulation) throws -> Int {
    let status = try board.run(["status", "--json"])
    let object = try JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [String: Any]
    return (object?["health"] as? [String: Any])?["moves"] as? Int ?? -1
}

@Suite("tictactoe-network between simulate --serve and a real broker (mosquitto)", .serialized, .process)
struct NetworkCommandTests {
    @Test("over TLS with a password: the presence, the state retained, a whole game played by commands with their answers and events")
    func wholeGame() throws {
        let broker = try Broker()
        let board = try ServedSimulation()
        defer { board.stop() }
        let watcher = try broker.subscribe("tictactoe/kitchen/#")
        // A command left retained before the link came: never played.
        try broker.publish("tictactoe/kitchen/commands", #"{"command":"press","cell":5}"#, retain: true)
        let link = try ServedNetwork(board: board, broker: broker)
        #expect(try link.log(until: "connected to the broker").contains("over TLS"))
        #expect(watcher.next("presence", containing: "online") != nil)
        #expect(watcher.next("state", containing: #""cells":["","","","","","","","",""]"#) != nil)
        for (number, cell) in [7, 1, 8, 2, 9].enumerated() {
            try broker.publish("tictactoe/kitchen/commands", #"{"command":"press","cell":\#(cell)}"#, correlation: "move-\(number + 1)")
            let event = try #require(watcher.next("events", containing: #""type":"move""#))
            #expect(event.contains(#""cell":\#(cell),"number":\#(number + 1)"#))
            // The events of a state come before the answer to the command that made it.
            if number == 4 { #expect(watcher.next("events")?.contains(#""outcome":"x-wins","type":"game-over""#) == true) }
            #expect(watcher.next("answers", containing: #""type":"ok""#)?.contains("took cell \(cell)") == true)
        }
        // Retained: a newcomer is given the board's last state at once.
        let newcomer = try broker.subscribe("tictactoe/kitchen/state", seconds: 10)
        #expect(newcomer.next("state")?.contains(#""outcome":"x-wins""#) == true)
        #expect(try moves(board) == 5)
        // Home Assistant finds the board as a device, allowed by the access list; its button
        // sends what the discovery says, and the board starts a new game.
        let assistant = try broker.subscribe("homeassistant/#", as: "home", seconds: 10)
        var configs: [String: String] = [:]
        while configs.count < 4, let line = assistant.next(where: { $0.hasSuffix("}") }) {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            configs[parts[0]] = parts[1]
        }
        #expect(configs.keys.sorted() == ["button/kitchen/tictactoe-new-game", "sensor/kitchen/tictactoe-result", "sensor/kitchen/tictactoe-score", "sensor/kitchen/tictactoe-turn"].map { "homeassistant/\($0)/config" })
        let button = try #require(configs["homeassistant/button/kitchen/tictactoe-new-game/config"])
        let press = try #require(try JSONSerialization.jsonObject(with: Data(button.utf8)) as? [String: Any])["payload_press"] as? String
        try broker.publish(try #require(try JSONSerialization.jsonObject(with: Data(button.utf8)) as? [String: Any])["command_topic"] as? String ?? "", press ?? "")
        #expect(watcher.next("events", containing: "new-game") != nil)
        link.stop()
        #expect(watcher.next("presence", containing: "offline") != nil, "a link that stops says the board is offline")
    }

    @Test("the broker killed mid-game and started again: the board played on; the link comes back and publishes where it is")
    func brokerRestarted() throws {
        let broker = try Broker()
        let board = try ServedSimulation()
        defer { board.stop() }
        let link = try ServedNetwork(board: board, broker: broker, tls: false)
        _ = try link.log(until: "connected to the broker")
        // The link subscribes to its commands before it publishes the board's state (the log's
        // line comes before both): once the state is seen, a command is heard.
        let watcher = try broker.subscribe("tictactoe/kitchen/#", seconds: 20)
        #expect(watcher.next("state") != nil)
        try broker.publish("tictactoe/kitchen/commands", #"{"command":"press","cell":5}"#)
        #expect(watcher.next("events", containing: #""cell":5"#) != nil)
        broker.kill()
        _ = try link.log(until: "ended")
        // The board plays on without the network.
        #expect(try board.run(["press", "1"]).status == 0)
        try broker.start()
        _ = try link.log(until: "connected to the broker")
        // Lost again: said again.
        broker.kill()
        _ = try link.log(until: "ended")
        try broker.start()
        _ = try link.log(until: "connected to the broker")
        let after = try broker.subscribe("tictactoe/kitchen/#", seconds: 20)
        #expect(after.next("presence", containing: "online") != nil)
        #expect(after.next("state")?.contains(#""cells":["","","","","X","","O","",""]"#) == true)
        try broker.publish("tictactoe/kitchen/commands", #"{"command":"press","cell":9}"#)
        #expect(after.next("events", containing: #""cell":9,"number":3"#) != nil)
        #expect(link.isRunning)
    }

    @Test("the board restarted mid-game: the presence goes offline, then online with the board's state again")
    func boardRestarted() throws {
        let broker = try Broker()
        let board = try ServedSimulation()
        let socket = board.socket
        let link = try ServedNetwork(board: board, broker: broker, tls: false)
        let watcher = try broker.subscribe("tictactoe/kitchen/#")
        _ = watcher.next("presence", containing: "online")
        try broker.publish("tictactoe/kitchen/commands", #"{"command":"press","cell":5}"#)
        _ = watcher.next("events", containing: #""cell":5"#)
        board.stop(keepingFolder: true)
        #expect(watcher.next("presence", containing: "offline") != nil)
        let again = try ServedSimulation(socket: socket)
        defer { again.stop() }
        #expect(watcher.next("presence", containing: "online") != nil)
        #expect(watcher.next("state") != nil)
        try broker.publish("tictactoe/kitchen/commands", #"{"command":"status"}"#, correlation: "s")
        #expect(watcher.next("answers", containing: #""type":"status""#) != nil)
        #expect(link.isRunning)
    }

    @Test("a hostile network: oversized, malformed, deeply nested and flooded commands, a forged state, another board's commands: no crash, no change, memory bounded")
    func hostile() throws {
        let broker = try Broker()
        let board = try ServedSimulation()
        defer { board.stop() }
        let link = try ServedNetwork(board: board, broker: broker, tls: false)
        _ = try link.log(until: "connected to the broker")
        let watcher = try broker.subscribe("tictactoe/kitchen/#")
        _ = watcher.next("state")
        let before = link.residentKiB
        try broker.publish("tictactoe/kitchen/commands", String(repeating: "x", count: 20_000))
        try broker.publish("tictactoe/kitchen/commands", "{\"command\":\"press\",\"cell\":" + String(repeating: "[", count: 4000))
        try broker.publish("tictactoe/kitchen/commands", #"{"command":"press","cell":10}"#)
        try broker.publish("tictactoe/kitchen/commands", #"{"command":"reset-learner"}"#)
        try broker.publish("tictactoe/kitchen/commands", "\u{FF}not json")
        // Someone else's board may not send this one commands, nor anyone its state.
        try broker.publish("tictactoe/kitchen/commands", #"{"command":"press","cell":1}"#, as: "attic")
        try broker.publish("tictactoe/kitchen/state", #"{"state":"forged"}"#, as: "visitor", retain: true)
        // A flood: far more than ten a second, from the one user allowed to command.
        let flood = Process()
        flood.executableURL = URL(fileURLWithPath: "/bin/sh")
        flood.arguments = ["-c", "for i in $(seq 1 500); do echo '{\"command\":\"status\"}'; done | mosquitto_pub -h 127.0.0.1 -p \(broker.port) -u home -P \(Broker.password("home")) -t tictactoe/kitchen/commands -l -q 1"]
        try flood.run()
        flood.waitUntilExit()
        #expect(try link.log(until: "dropped a message").contains("dropped"))
        // The flood used the second's allowance: the press goes through once a second has passed
        // since the last command let in. Sent again until it does, each time after the last try's
        // silence; the commands that did pass were statuses, which change nothing.
        var pressed: String?
        for attempt in 1...20 where pressed == nil {
            try broker.publish("tictactoe/kitchen/commands", #"{"command":"press","cell":3}"#, correlation: "after-\(attempt)")
            pressed = watcher.next(patience: .seconds(1)) { $0.contains("/events ") && $0.contains(#""cell":3"#) }
        }
        #expect(pressed?.contains(#""number":1"#) == true, "only the press after the flood changed the board")
        #expect(try moves(board) == 1)
        let newcomer = try broker.subscribe("tictactoe/kitchen/state", seconds: 10)
        #expect(newcomer.next("state")?.contains("forged") == false)
        #expect(link.isRunning)
        #expect(link.residentKiB - before < 16_384, "the link grew from \(before) KiB to \(link.residentKiB) KiB")
    }

    @Test("watching only, the link reads no commands; with a wrong password it says why and keeps trying")
    func watchAndRefused() throws {
        let broker = try Broker()
        let board = try ServedSimulation()
        defer { board.stop() }
        let link = try ServedNetwork(board: board, broker: broker, allow: "watch", tls: false)
        _ = try link.log(until: "connected to the broker")
        let watcher = try broker.subscribe("tictactoe/kitchen/#")
        _ = watcher.next("state")
        try broker.publish("tictactoe/kitchen/commands", #"{"command":"press","cell":5}"#)
        try broker.publish("tictactoe/kitchen/commands", #"{"command":"status"}"#, correlation: "mark")
        // The board's own socket is the one way to play: its press is published, no command's.
        #expect(try board.run(["press", "1"]).status == 0)
        #expect(watcher.next("events", containing: #""type":"move""#)?.contains(#""cell":1,"number":1"#) == true)
        #expect(try moves(board) == 1)
        let refused = try ServedNetwork(board: board, broker: broker, name: "attic", tls: false, password: "wrong")
        let said = try refused.log(until: "check network.user")
        #expect(said.contains("refused") && !said.contains("wrong"), "the password is never shown: \(said)")
        #expect(refused.isRunning)
        // A board's user that is not its name: the access list refuses its topics, and it says so.
        let misnamed = try ServedNetwork(board: board, broker: broker, name: "cellar", user: "attic", tls: false)
        #expect(try misnamed.log(until: "refused a publication").contains("network.user = network.name"))
        // A CA file that is not there: named, and the link does not start.
        let missing = try ServedNetwork(board: board, broker: broker, name: "attic", caFile: "/nonexistent/ca.pem")
        #expect(try missing.log(until: "\n").contains("network.ca-file \"/nonexistent/ca.pem\""))
        #expect(missing.exitStatus() == 66)
    }
}
