import Basics
import BoardProtocol
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import WebService
import WebRules

/// A list of `names`, each online with an empty board, as the link writes it.
private func boardsFile(_ names: [String], connected: Bool = true) -> String {
    let boards = names.map { name in
        var board = BoardsList.Board(name: name, online: true)
        (board.cells, board.turn, board.outcome, board.opponent) = (Array(repeating: "", count: 9), "X", "playing", "two-players")
        return board
    }
    return JSONLine.encode(BoardsList(broker: "broker.home:1883", connected: connected, boards: boards)) ?? ""
}

/// The boards lists and refusals of the view a page is sent next, the board's own messages skipped.
private func nextBoards(_ page: WebClient) -> String? {
    while let text = page.nextText() {
        if text.contains(#""type":"boards"#) { return text }
    }
    return nil
}

@Suite("The boards view: the link's list to the pages that show it", .serialized)
struct BoardsViewTests {
    @Test("a page that opens the view is sent the list, then each new one within a look; why there is none; nothing once it closes the view")
    func listsFollowTheFile() async throws {
        let folder = try TextFile.makeTemporaryDirectory(prefix: "boards-view")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/boards.json"
        // Watching only: the view changes nothing, so a watching page has it too.
        let web = try RunningWeb(playing: false, boardsFile: path)
        try await blocking {
            let page = try WebClient(port: web.port)
            #expect(try page.upgrade(host: "localhost:\(web.port)", origin: "http://localhost:\(web.port)").status == 101)
            #expect(page.sendText(#"{"command":"boards","watch":true}"#))
            let none = nextBoards(page)
            #expect(none?.contains(#""reason":"no-link""#) == true && none?.contains("tictactoe-network) is not running") == true, "\(none ?? "")")
            try TextFile.write(boardsFile(["kitchen", "attic"]), to: path)
            web.advance(by: BoardsList.interval)
            let first = nextBoards(page)
            #expect(first == boardsFile(["kitchen", "attic"]), "\(first ?? "")")
            // Replaced by the link: sent at the next look.
            try TextFile.write(boardsFile(["kitchen", "attic", "porch"]), to: path)
            web.advance(by: BoardsList.interval)
            #expect(nextBoards(page)?.contains("porch") == true)
            // Not a list: said, and nothing of it passed on.
            try TextFile.write(#"{"type":"boards","broker":"b","connected":true,"boards":[{"name":"<script>"}],"lost":0,"ignored":0,"beyondLimit":0}"#, to: path)
            web.advance(by: BoardsList.interval)
            let bad = nextBoards(page)
            #expect(bad?.contains(#""reason":"not-a-list""#) == true, "\(bad ?? "")")
            #expect(bad?.contains("is not the link's list of boards: a board's name is not one") == true && bad?.contains("script") == false, "\(bad ?? "")")
            // The view closed (once its pong says the server has read that): a new list is not sent,
            // even after a look's time; a ping is answered next.
            #expect(page.sendText(#"{"command":"boards","watch":false}"#) && page.sendText(#"{"command":"ping"}"#))
            #expect(page.nextText() == #"{"type":"pong"}"#)
            try TextFile.write(boardsFile(["cellar"]), to: path)
            web.advance(by: BoardsList.interval)
            try web.serverHasLooked()
            #expect(page.sendText(#"{"command":"ping"}"#))
            #expect(page.nextText() == #"{"type":"pong"}"#)
            // Opened again: the list as it is now, at once.
            #expect(page.sendText(#"{"command":"boards","watch":true}"#))
            #expect(nextBoards(page) == boardsFile(["cellar"]))
        }
        await web.stop()
    }

    @Test("a list rewritten in place, of the same size and with its old time, is read again; a file over the bound is not read")
    func inPlaceAndOversized() async throws {
        let folder = try TextFile.makeTemporaryDirectory(prefix: "boards-view")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/boards.json"
        try TextFile.write(boardsFile(["attic"]), to: path)
        let web = try RunningWeb(boardsFile: path)
        try await blocking {
            let page = try WebClient(port: web.port)
            #expect(try page.upgrade(host: "localhost:\(web.port)", origin: "http://localhost:\(web.port)").status == 101)
            #expect(page.sendText(#"{"command":"boards","watch":true}"#))
            #expect(nextBoards(page) == boardsFile(["attic"]))
            // Another name as long, written over the same file, its modification time put back:
            // only its change time tells.
            var before = stat()
            #expect(stat(path, &before) == 0)
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.write(contentsOf: Data(boardsFile(["cellr"]).utf8))
            try handle.close()
            var times = [before.st_atim, before.st_mtim]
            #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
            var after = stat()
            #expect(stat(path, &after) == 0 && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec && after.st_ino == before.st_ino)
            web.advance(by: BoardsList.interval)
            #expect(nextBoards(page) == boardsFile(["cellr"]))
            try TextFile.write(String(repeating: " ", count: BoardsList.largestFile + 1), to: path)
            web.advance(by: BoardsList.interval)
            let oversized = nextBoards(page)
            #expect(oversized?.contains(#""reason":"not-a-list""#) == true && oversized?.contains("larger than \(BoardsList.largestFile) bytes") == true)
        }
        await web.stop()
    }

    @Test("a web view told to show no boards says so")
    func noBoardsFile() async throws {
        let web = try RunningWeb(boardsFile: nil)
        try await blocking {
            let page = try WebClient(port: web.port)
            #expect(try page.upgrade(host: "localhost:\(web.port)", origin: "http://localhost:\(web.port)").status == 101)
            #expect(page.sendText(#"{"command":"boards","watch":true}"#))
            let none = nextBoards(page)
            #expect(none?.contains(#""reason":"none""#) == true && none?.contains("--boards-file") == true, "\(none ?? "")")
        }
        await web.stop()
    }

    @Test("a page holds one list it has not taken, the latest, beside its backlog; none after it is ended")
    func latestOnly() {
        let hub = PageHub(playing: true) { _ in }
        let page = hub.join(), other = hub.join()
        _ = hub.take(from: page)
        hub.watchBoards(page, true, latest: "first")
        for index in 0..<1000 { hub.boardsListed("list \(index)") }
        hub.send("answer", to: page)
        var taken: [String] = []
        while let frame = hub.take(from: page) { taken.append(String(decoding: frame.payload, as: UTF8.self)) }
        #expect(taken == ["answer", "list 999"])
        // The other page never opened the view: nothing of it.
        var others: [String] = []
        while let frame = hub.take(from: other) { others.append(String(decoding: frame.payload, as: UTF8.self)) }
        #expect(!others.contains { $0.hasPrefix("list") })
        // A page that closes is sent its close frame last, no list after it.
        hub.boardsListed("list 1000")
        hub.finish(page)
        var last: PageFrame?
        while let frame = hub.take(from: page) { last = frame }
        #expect(last?.opcode == .close && hub.isFinished(page))
        hub.boardsListed("list 1001")
        #expect(hub.take(from: page) == nil && !hub.isWatchingBoards)
    }
}
