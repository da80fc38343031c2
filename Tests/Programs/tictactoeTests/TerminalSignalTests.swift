import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A real pseudo-terminal for `tictactoe simulate` (ended by a signal as a closed window or a
/// `kill` ends it) and `tictactoe watch`.
private struct PseudoTerminal {
    let master: Int32
    let slavePath: String

    /// Linux's `TIOCSPTLCK` and `TIOCGPTN` (asm-generic/ioctls.h, the same on x86_64 and arm64):
    /// `posix_openpt`, `unlockpt` and `ptsname` are not visible to Swift without `_XOPEN_SOURCE`.
    private static let unlock: UInt = 0x4004_5431, number: UInt = 0x8004_5430

    init?() {
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var locked: Int32 = 0, index: UInt32 = 0
        guard master >= 0, ioctl(master, Self.unlock, &locked) == 0, ioctl(master, Self.number, &index) == 0 else { return nil }
        slavePath = "/dev/pts/\(index)"
    }

    /// Starts `argv` with the terminal as its standard input, output and error, as a shell
    /// starts it: every signal at its default and none blocked, whatever the test runner
    /// ignores or blocks. Returns its pid, or nil if it could not be started.
    func spawn(_ argv: [String]) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        let arguments = argv.map { argument in argument.withCString { strdup($0) } } + [nil]
        defer { arguments.forEach { free($0) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid = pid_t()
        return posix_spawn(&pid, argv[0], &actions, &attributes, arguments, environ) == 0 ? pid : nil
    }

    /// Reads what the program wrote until `done` holds of it, end of output, or `seconds` pass.
    func read(until done: (String) -> Bool, seconds: Int32) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(TimeInterval(seconds))
        while Date() < deadline, !done(String(decoding: bytes, as: UTF8.self)) {
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) >= 0 else { break }
            guard poller.revents != 0 else { continue }
            let count = Glibc.read(master, &chunk, chunk.count)
            if count <= 0 { break }  // EIO once the program has exited
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The wait status of `pid` once it has exited, or nil (and the process killed) if it is still
/// running after `seconds`: a test that fails, never one that hangs.
private func exitStatus(of pid: pid_t, within seconds: Int) -> Int32? {
    let status = LockedStatus()
    let exited = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        var code: Int32 = 0
        while waitpid(pid, &code, 0) < 0 && errno == EINTR {}
        status.set(code)
        exited.signal()
    }
    guard exited.wait(timeout: .now() + .seconds(seconds)) == .success else {
        kill(pid, SIGKILL)
        exited.wait()
        return nil
    }
    return status.get()
}

private final class LockedStatus: @unchecked Sendable {
    private let lock = NSLock()
    private var code: Int32 = 0
    func set(_ value: Int32) { lock.withLock { code = value } }
    func get() -> Int32 { lock.withLock { code } }
}

@Suite("tictactoe simulate on a terminal, ended by signals", .process)
struct TerminalSignalTests {
    @Test("each ending signal puts the terminal back (cursor, screen, echo and line mode) and exits 128 + the signal",
          .timeLimit(.minutes(1)), arguments: [SIGHUP, SIGINT, SIGQUIT, SIGTERM])
    func restored(signal number: Int32) throws {
        let executable = try #require(Tictactoe.executable)
        let terminal = try #require(PseudoTerminal())
        defer { close(terminal.master) }

        let pid = try #require(terminal.spawn([executable, "simulate"]))

        // The game is up once it has drawn its first screen on the alternate screen.
        let started = terminal.read(until: { $0.contains("\u{1B}[?1049h") && $0.contains("Press 1–9") }, seconds: 30)
        #expect(started.contains("\u{1B}[?1049h\u{1B}[?25l"), "the game did not start: \(started.debugDescription)")
        var raw = termios()
        #expect(tcgetattr(terminal.master, &raw) == 0 && raw.c_lflag & tcflag_t(ICANON | ECHO) == 0, "not in raw mode")

        kill(pid, number)
        let rest = terminal.read(until: { $0.contains("\u{1B}[?25h\u{1B}[?1049l") }, seconds: 30)
        let status = try #require(exitStatus(of: pid, within: 30), "still running after the signal")
        #expect(status & 0x7F == 0, "ended by the signal itself, without putting the terminal back")
        #expect((status >> 8) & 0xFF == 128 + number)
        #expect(rest.contains("\u{1B}[?25h\u{1B}[?1049l"), "the cursor and the main screen were not restored")
        var restored = termios()
        #expect(tcgetattr(terminal.master, &restored) == 0)
        #expect(restored.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO), "echo and line mode not restored")
    }
}

@Suite("tictactoe watch on a terminal", .process)
struct WatchTerminalTests {
    @Test("watch draws the running board, presses a cell with its key, says when the board goes away, takes it back when it returns, and q puts the terminal back",
          .timeLimit(.minutes(1)))
    func watchesPressesAndQuits() throws {
        let executable = try #require(Tictactoe.executable)
        // The socket in a folder that outlives the first board: the second listens there too.
        let shared = try Tictactoe.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: shared) }
        let board = try ServedSimulation(socket: shared + "/board.sock")
        defer { board.stop() }
        let terminal = try #require(PseudoTerminal())
        defer { close(terminal.master) }

        let pid = try #require(terminal.spawn([executable, "watch", "--socket", board.socket]))

        // Read to the help line, the screen's last: "X to move." comes before it, and a read
        // that stopped there could end mid-screen on a busy machine (it did, once).
        let drawn = terminal.read(until: { $0.contains("X to move.") && $0.contains("q quit") }, seconds: 30)
        #expect(drawn.contains("\u{1B}[?1049h"), "not on the alternate screen: \(drawn.debugDescription)")
        #expect(drawn.contains("1–9 press a cell · n new game · q quit"))
        #expect(write(terminal.master, "5", 1) == 1)
        let pressed = terminal.read(until: { $0.contains("X took cell 5.") }, seconds: 30)
        #expect(pressed.contains("X took cell 5."), "\(pressed.debugDescription)")
        // The centre cell, red, as the simulator draws a lit LED.
        #expect(pressed.contains("\u{1B}[1;31m●"))

        board.stop()
        let waiting = terminal.read(until: { $0.contains("waiting for it to return") }, seconds: 30)
        #expect(waiting.contains("waiting for it to return"), "\(waiting.debugDescription)")
        // A new board on the same socket (its own game): watch draws it without being asked.
        let again = try ServedSimulation(socket: board.socket)
        defer { again.stop() }
        let back = terminal.read(until: { $0.contains("X to move.") }, seconds: 30)
        #expect(back.contains("X to move."), "\(back.debugDescription)")
        #expect(write(terminal.master, "q", 1) == 1)
        let rest = terminal.read(until: { $0.contains("\u{1B}[?25h\u{1B}[?1049l") }, seconds: 30)
        let status = try #require(exitStatus(of: pid, within: 30), "still running after q")
        #expect(status == 0)
        #expect(rest.contains("\u{1B}[?25h\u{1B}[?1049l"), "the cursor and the main screen were not restored")
    }
}
