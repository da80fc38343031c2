import Foundation
import TicTacToe
import Testing
@testable import SystemdService

@Suite("Restoring a board")
struct BoardRestoreTests {
    @Test("impossible boards are refused")
    func impossible() {
        let x = Player.x, o = Player.o
        #expect(throws: BoardRestoreError.impossibleCounts(starter: .x, starterMarks: 2, otherMarks: 0)) {
            try Board(starter: .x, marks: [x, x, nil, nil, nil, nil, nil, nil, nil])
        }
        // Both players have a line.
        #expect(throws: BoardRestoreError.playedPastTheEnd) {
            try Board(starter: .x, marks: [x, x, x, o, o, o, nil, nil, nil])
        }
        #expect(throws: BoardRestoreError.wrongCellCount(3)) { try Board(starter: .x, marks: [x, o, nil]) }
    }
}

@Suite("sd_notify")
struct NotifierTests {
    /// A datagram socket standing in for systemd's notification socket.
    final class Listener {
        let fd: Int32
        init(path: String?, abstract: String?) throws {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            var bytes: [UInt8]
            if let abstract { bytes = [0] + Array(abstract.utf8) } else { bytes = Array((path ?? "").utf8) + [0] }
            withUnsafeMutableBytes(of: &address.sun_path) { for (i, b) in bytes.enumerated() { $0[i] = b } }
            let length = MemoryLayout<sa_family_t>.size + bytes.count
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
            }
            guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
        }
        deinit { close(fd) }

        /// The datagrams waiting, in order.
        func received() -> [String] {
            var messages: [String] = []
            var buffer = [UInt8](repeating: 0, count: 512)
            while true {
                let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count <= 0 { return messages }
                messages.append(String(decoding: buffer[0..<count], as: UTF8.self))
            }
        }
    }

    @Test("READY, WATCHDOG and STOPPING arrive in order on a path socket")
    func pathSocket() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(getpid()).sock").path
        unlink(path)
        let listener = try Listener(path: path, abstract: nil)
        defer { unlink(path) }
        let notifier = Notifier(environment: ["NOTIFY_SOCKET": path])
        notifier.ready(status: "playing")
        notifier.watchdog()
        notifier.stopping()
        #expect(listener.received() == ["READY=1\nSTATUS=playing", "WATCHDOG=1", "STOPPING=1"])
    }

    @Test("an abstract socket (@name) works too")
    func abstractSocket() throws {
        let name = "tictactoe-notify-\(getpid())"
        let listener = try Listener(path: nil, abstract: name)
        let notifier = Notifier(environment: ["NOTIFY_SOCKET": "@" + name])
        #expect(notifier.notify("READY=1"))
        #expect(listener.received() == ["READY=1"])
    }

    @Test("without NOTIFY_SOCKET nothing is sent; the watchdog interval comes from WATCHDOG_USEC")
    func environment() {
        #expect(!Notifier(environment: [:]).notify("READY=1"))
        #expect(Notifier.watchdogInterval(environment: ["WATCHDOG_USEC": "5000000"]) == .seconds(5))
        #expect(Notifier.watchdogInterval(environment: ["WATCHDOG_USEC": "5000000", "WATCHDOG_PID": "1"]) == nil)
        #expect(Notifier.watchdogInterval(environment: [:]) == nil)
    }
}
