import Basics
import Dispatch
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A configuration whose `[network]` table reaches `broker` as `user` (plain MQTT), in a folder
/// of its own with the user's password file; its path.
private func readerConfiguration(_ broker: Broker, user: String = "visitor") throws -> String {
    let folder = try Tictactoe.temporaryFolder()
    try Data(Broker.password(user).utf8).write(to: URL(fileURLWithPath: "\(folder)/password"))
    let config = """
        [network]
        broker = "127.0.0.1:\(broker.port)"
        user = "\(user)"
        password-file = "\(folder)/password"

        """
    try Data(config.utf8).write(to: URL(fileURLWithPath: "\(folder)/tictactoe.toml"))
    return "\(folder)/tictactoe.toml"
}

@Suite("tictactoe boards: every board on a real broker (mosquitto)", .serialized, .process)
struct BoardsCommandTests {
    @Test("two linked boards listed with their presence, marks, turn and score; a state that is not one ignored; a stopped link offline")
    func listsLinkedBoards() throws {
        let broker = try Broker()
        let kitchen = try ServedSimulation(), attic = try ServedSimulation()
        defer {
            kitchen.stop()
            attic.stop()
        }
        let kitchenLink = try ServedNetwork(board: kitchen, broker: broker, tls: false)
        let atticLink = try ServedNetwork(board: attic, broker: broker, name: "attic", tls: false)
        _ = try kitchenLink.log(until: "connected to the broker")
        _ = try atticLink.log(until: "connected to the broker")
        // The link subscribes to its commands before it publishes the board's state: once that is
        // seen, a press is heard.
        let watcher = try broker.subscribe("tictactoe/kitchen/#")
        #expect(watcher.next("state") != nil)
        try broker.publish("tictactoe/kitchen/commands", #"{"command":"press","cell":7}"#)
        #expect(watcher.next("events", containing: #""cell":7"#) != nil)
        // A user may write under its own name only: the visitor's "state" is there, but no state.
        try broker.publish("tictactoe/visitor/state", #"{"type":"state","state":"\u001b[2J"}"#, as: "visitor", retain: true)
        let config = try readerConfiguration(broker)
        let listed = try Tictactoe.run(["boards", "--once", "--config", config])
        #expect(listed.status == 0, "\(listed.err)")
        #expect(listed.out == """
            2 boards on 127.0.0.1:\(broker.port): 2 online, 0 offline; 1 message ignored (not a board's state or presence)
            attic    online   ··· ··· ···  X to move  two-players  X 0 · O 0 · draws 0
            kitchen  online   X·· ··· ···  O to move  two-players  X 0 · O 0 · draws 0

            """)
        atticLink.stop()
        let after = try Tictactoe.run(["boards", "--once", "--config", config])
        #expect(after.out.split(separator: "\n").dropFirst().first?.hasPrefix("attic    offline  ··· ··· ···") == true, "\(after.out)")
    }

    @Test("a hundred boards on one broker: all listed, once each, by name; a linked board among them offers sixteen, those that invite it first, its link's and its own memory bounded; the page's boards view lists them all, live, the web view's memory bounded")
    func hundredBoards() throws {
        let names = (1...100).map { "board-\($0)" }
        let broker = try Broker(boards: names)
        // A real board and its link, there before the hundred: it hears each arrive.
        let attic = try ServedSimulation()
        defer { attic.stop() }
        // Under AddressSanitizer (make sanitize) memory freed is held back in its quarantine, which
        // the link's resident size would count: without it, the size is what the link keeps.
        let sanitizer = ProcessInfo.processInfo.environment["ASAN_OPTIONS"].map { ["ASAN_OPTIONS": $0 + " quarantine_size_mb=0"] } ?? [:]
        let atticLink = try ServedNetwork(board: attic, broker: broker, name: "attic", tls: false, environment: sanitizer)
        _ = try atticLink.log(until: "connected to the broker")
        let rssBefore = atticLink.residentKiB, boardBefore = attic.residentKiB
        // Each board's retained state and presence, published as that board's user (the access
        // list lets a user write only under its own name), from one shell; every fourth invites
        // the attic.
        let script = names.enumerated().map { index, name in
            let credentials = "-h 127.0.0.1 -p \(broker.port) -u \(name) -P \(Broker.password(name)) -r -q 1"
            let opponent = index % 4 == 3 ? "board:attic" : "computer-3"
            let state = #"{"state":{"asleep":false,"cells":["X","","","","O","","","",""],"flashing":null,"headline":"x-to-move","looks":[],"names":{"o":null,"x":null},"opponent":"computer-3","outcome":"playing","scores":{"computer-3":{"draws":2,"oWins":1,"xWins":0}},"starter":"X","thinking":false,"turn":"X","winningLines":[]},"type":"state"}"#
                .replacingOccurrences(of: #""opponent":"computer-3""#, with: #""opponent":"\#(opponent)""#)
            return "mosquitto_pub \(credentials) -t tictactoe/\(name)/state -m '\(state)' && mosquitto_pub \(credentials) -t tictactoe/\(name)/presence -m online"
        }.joined(separator: " && ")
        #expect(try Broker.run("/bin/sh", ["-c", script]) == 0)
        // The last message, board-100's presence, reaches the attic through its link (at most ten
        // lists a second, the latest held): it invites, and comes first by name. The attic then
        // offers the first sixteen of the twenty-five that invite it.
        _ = try attic.log(until: "The board board-100 invites this board")
        let inviting = names.enumerated().filter { $0.offset % 4 == 3 }.map(\.element).sorted()
        let seen = try TwoBoards.state(of: attic)["boardsSeen"] as? [[String: Any]] ?? []
        let offered = seen.compactMap { $0["invites"] as? Bool == true ? $0["board"] as? String : nil }
        #expect(offered == Array(inviting.prefix(16)) && seen.count == 16, "\(seen)")
        let rssAfter = atticLink.residentKiB
        // The flood test's bound (NetworkCommandTests): under AddressSanitizer its redzones and
        // shadow make about 9 MiB of it; a release build's link keeps its size (make bench).
        #expect(rssAfter > 0 && rssAfter - rssBefore < 16_384, "the link keeps a hundred boards in \(rssAfter - rssBefore) KiB more")
        // The board is told sixteen of them at most, whatever the broker holds.
        let boardAfter = attic.residentKiB
        #expect(boardBefore > 0 && boardAfter - boardBefore < 4_096, "the board grew by \(boardAfter - boardBefore) KiB with a hundred boards online")
        let listed = try Tictactoe.run(["boards", "--once", "--config", try readerConfiguration(broker)])
        #expect(listed.status == 0, "\(listed.err)")
        let lines = listed.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "101 boards on 127.0.0.1:\(broker.port): 101 online, 0 offline")
        #expect(lines.dropFirst().map { String($0.prefix { $0 != " " }) } == ["attic"] + names.sorted())
        let hundred = lines.dropFirst(2)
        #expect(hundred.filter { $0.contains("online   X·· ·O· ···  X to move  board:attic") }.count == 25)
        #expect(hundred.filter { $0.hasSuffix("online   X·· ·O· ···  X to move  computer-3   X 0 · O 1 · draws 2") }.count == 75)
        try boardsView(of: attic, atticLink, on: broker, names: names, environment: sanitizer)
    }

    /// The page's boards view of the hundred and the attic: the attic's link keeps the list in its
    /// file, the web view sends it whole to a page that opens the view, and keeps its size; the
    /// list goes when the link stops.
    private func boardsView(of attic: ServedSimulation, _ atticLink: ServedNetwork, on broker: Broker, names: [String], environment: [String: String]) throws {
        let web = try ServedWeb(board: attic.socket, arguments: ["--boards-file", atticLink.boardsFile], environment: environment)
        defer { web.stop() }
        let page = try web.page()
        let rssBefore = web.residentKiB
        #expect(page.sendText(#"{"command":"boards","watch":true}"#))
        guard let text = page.text(containing: #""type":"boards""#),
              let list = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], let boards = list["boards"] as? [[String: Any]]
        else {
            Issue.record("no boards list came")
            return
        }
        #expect(boards.compactMap { $0["name"] as? String } == ["attic"] + names.sorted())
        #expect(list["connected"] as? Bool == true && list["broker"] as? String == "127.0.0.1:\(broker.port)")
        let porch = boards.first { $0["name"] as? String == "board-4" }
        #expect(porch?["opponent"] as? String == "board:attic" && porch?["cells"] as? [String] == ["X", "", "", "", "O", "", "", "", ""])
        #expect((porch?["score"] as? [String: Int]) == nil && porch?["online"] as? Bool == true)
        // A move on the attic reaches its own line in the list (its state, through its link).
        #expect(try attic.run(["press", "5"]).status == 0)
        #expect(page.text(containing: #""cells":["","","","","X","","","",""],"name":"attic""#) != nil)
        let rssAfter = web.residentKiB
        #expect(rssBefore > 0 && rssAfter - rssBefore < 8_192, "the web view grew by \(rssAfter - rssBefore) KiB with the list open")
        atticLink.stop()
        #expect(!FileManager.default.fileExists(atPath: atticLink.boardsFile), "the link left its list behind")
        #expect(page.text(containing: "tictactoe-network) is not running") != nil)
    }

    @Test("the link's list for the web view: its failure said once, written within a pace of its folder coming back though no board changed, removed when the link stops")
    func linkKeepsTheList() throws {
        let broker = try Broker()
        let kitchen = try ServedSimulation()
        defer { kitchen.stop() }
        let folder = try Tictactoe.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let link = try ServedNetwork(board: kitchen, broker: broker, tls: false, boardsFile: "\(folder)/later/boards.json")
        // The first write is tried as the link starts, before or after the broker lets it in.
        #expect(try link.log(until: "(the link's --boards-file)").contains("\(folder)/later/boards.json"))
        try FileManager.default.createDirectory(atPath: "\(folder)/later", withIntermediateDirectories: false)
        _ = try link.log(until: "the boards list for the web view is written again")
        let list = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/later/boards.json"))
        let object = try JSONSerialization.jsonObject(with: list) as? [String: Any]
        #expect((object?["boards"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["kitchen"], "\(object ?? [:])")
        #expect(object?["connected"] as? Bool == true)
        var status = stat()
        #expect(stat("\(folder)/later/boards.json", &status) == 0 && status.st_mode & 0o777 == 0o644)
        link.stop()
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/later/boards.json"))
    }

    @Test("live: the list printed again at a change, and afresh after the broker came back; SIGINT ends it with 0")
    func live() throws {
        let broker = try Broker()
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tictactoe-network").path
        let process = Process(), output = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["boards", "--config", try readerConfiguration(broker)]
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let pid = process.processIdentifier, ended = Protected(false)
        defer {
            ended.withValue { $0 = true }
            if process.isRunning { process.terminate() }
        }
        // A line that never comes must fail the test, not hang it: the reads end at the output's end.
        DispatchQueue.global().asyncAfter(deadline: .now() + 120) {
            ended.withValue { if !$0 { _ = kill(pid, SIGTERM) } }
        }
        #expect(try ServedSimulation.read(output, until: "0 boards on").contains("0 online, 0 offline"))
        try broker.publish("tictactoe/kitchen/presence", "online", as: "kitchen", retain: true)
        _ = try ServedSimulation.read(output, until: "kitchen  online   (no state yet)")
        // The broker restarted empty (no persistence): the board's retained presence went with it.
        broker.kill()
        #expect(try ServedSimulation.read(output, until: "trying again").contains("127.0.0.1:\(broker.port)"))
        try broker.start()
        try broker.publish("tictactoe/attic/presence", "offline", as: "attic", retain: true)
        // Made afresh: the kitchen, whose retained presence the restarted broker no longer has, is gone.
        let afresh = try ServedSimulation.read(output, until: "attic  offline  (no state yet)\n")
        #expect(afresh.hasSuffix("1 board on 127.0.0.1:\(broker.port): 0 online, 1 offline\nattic  offline  (no state yet)\n"), "\(afresh)")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test("once: an output that cannot be written is 74, not a success; cut short by a signal before the list, 128 + the signal")
    func onceFailures() throws {
        let broker = try Broker()
        let config = try readerConfiguration(broker)
        let full = try Tictactoe.run(["boards", "--once", "--config", config], program: "/bin/sh",
                                     prefix: ["-c", "exec \"$0\" \"$@\" >/dev/full", Tictactoe.executable ?? "tictactoe"])
        #expect(full.status == 74, "\(full.err)")
        #expect(full.err.contains("standard output cannot be written"), "\(full.err)")
        // A broker that never answers: interrupted while the list waits for it.
        broker.kill()
        let waiting = Process()
        waiting.executableURL = URL(fileURLWithPath: Tictactoe.executable ?? "tictactoe")
        waiting.arguments = ["boards", "--once", "--config", config]
        let said = Pipe()
        waiting.standardOutput = FileHandle.nullDevice
        waiting.standardError = said
        try waiting.run()
        // It says the broker cannot be reached only after its signal handlers are in place (the
        // link's program, exec'd in place): from then on SIGINT is recorded, not fatal.
        _ = try ServedSimulation.read(said, until: "trying again")
        waiting.interrupt()
        waiting.waitUntilExit()
        #expect(waiting.terminationStatus == 130)
    }

    @Test("a refused login: said at once, with what to check, exit 77; no broker: said, with what to check, and exit 69; no tictactoe-network beside or on the PATH: said, exit 69")
    func failures() throws {
        let broker = try Broker()
        // A password the broker does not take: said at once, with what to check, not waited out.
        let wrong = try readerConfiguration(broker)
        try Data("not-the-password\n".utf8).write(to: URL(fileURLWithPath: URL(fileURLWithPath: wrong).deletingLastPathComponent().path + "/password"))
        let refused = try Tictactoe.run(["boards", "--once", "--config", wrong])
        #expect(refused.status == 77, "\(refused.err)")
        #expect(refused.err.contains("the broker refused the connection") && refused.err.contains("check network.user and the password file's first line"), "\(refused.err)")
        #expect(refused.err.contains("the user \"visitor\", the broker at 127.0.0.1:\(broker.port)") && !refused.err.contains("not-the-password"), "\(refused.err)")
        broker.kill()
        let unreachable = try Tictactoe.run(["boards", "--once", "--config", try readerConfiguration(broker)])
        #expect(unreachable.status == 69)
        #expect(unreachable.err.contains("no answer from the broker at 127.0.0.1:\(broker.port) within 10 s"), "\(unreachable.err)")
        // A copy of tictactoe alone in a folder, with a PATH that holds nothing: the link's program
        // is missing. (The rest of the environment kept: a sanitizer's options are in it.)
        guard let executable = Tictactoe.executable else { throw Tictactoe.MissingExecutable() }
        let folder = try Tictactoe.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Copied by cp, not in this process: a file this process had open for writing would be
        // inherited by a child another test forks meanwhile, and the exec would fail as "Text file
        // busy" until that child execs (seen once in CI).
        try Broker.run("cp", [executable, "\(folder)/tictactoe"])
        let alone = try Tictactoe.run(["boards", "--once"], program: "/usr/bin/env", prefix: ["PATH=/nonexistent", "\(folder)/tictactoe"])
        #expect(alone.status == 69)
        #expect(alone.err.contains("install the tictactoe-gpio-network package"), "\(alone.err)")
    }
}
