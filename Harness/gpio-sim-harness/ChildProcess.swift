import Foundation

/// A program started by the harness, with its output collected line by line as it comes.
///
/// Spawned with `posix_spawn` and plain pipes rather than Foundation's `Process`, whose run loop
/// machinery wants more of the system than the test VM's minimal kernel offers.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    private let condition = NSCondition()
    private var stdoutLines: [String] = []
    private var stderrText = ""
    private var exitStatus: Int32?

    init(_ path: String, _ arguments: [String]) throws {
        var out: [Int32] = [0, 0], err: [Int32] = [0, 0]
        guard pipe(&out) == 0, pipe(&err) == 0 else { throw HarnessError("pipe failed: \(errno)") }
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        for fd in out + err { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, path, &actions, nil, argv, environ)
        close(out[1])
        close(err[1])
        guard status == 0 else {
            close(out[0])
            close(err[0])
            throw HarnessError("cannot start \(path): errno \(status)")
        }
        pid = child
        let stdoutFD = out[0], stderrFD = err[0]
        Self.drain(stdoutFD) { [self] pending in
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[0..<newline], as: UTF8.self)
                pending.removeSubrange(0...newline)
                condition.lock()
                stdoutLines.append(line)
                condition.broadcast()
                condition.unlock()
            }
        }
        Self.drain(stderrFD) { [self] collected in
            condition.lock()
            stderrText = String(decoding: collected, as: UTF8.self)
            condition.unlock()
        }
    }

    /// Reads `fd` to its end on a thread of its own, handing over after each read everything
    /// read and not yet consumed (the handler may consume from the front), then closes it.
    private static func drain(_ fd: Int32, _ handle: @escaping @Sendable (inout [UInt8]) -> Void) {
        Thread.detachNewThread {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count <= 0 { break }
                pending.append(contentsOf: buffer[0..<count])
                handle(&pending)
            }
            close(fd)
        }
    }

    /// Waits up to `timeout` for an output line containing `text`; returns it.
    func waitForLine(containing text: String, timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while Date() < deadline {
            if let line = stdoutLines.first(where: { $0.contains(text) }) { return line }
            _ = condition.wait(until: min(deadline, Date().addingTimeInterval(0.1)))
        }
        return stdoutLines.first { $0.contains(text) }
    }

    var output: [String] {
        condition.lock()
        defer { condition.unlock() }
        return stdoutLines
    }

    var errorOutput: String {
        condition.lock()
        defer { condition.unlock() }
        return stderrText
    }

    func signal(_ number: Int32) { kill(pid, number) }

    /// Waits for exit (up to `timeout`, then kills it) and returns the exit status, or
    /// 128 + the signal that ended it.
    @discardableResult
    func wait(timeout: TimeInterval) -> Int32 {
        if let exitStatus { return exitStatus }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if Date() >= deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            usleep(20_000)
        }
        // Let the readers take the last output.
        usleep(100_000)
        let code: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        exitStatus = code
        return code
    }
}
