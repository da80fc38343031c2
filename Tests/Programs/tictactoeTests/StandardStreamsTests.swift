import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing

@Suite("Standard streams the parent closed", .process)
struct StandardStreamsTests {
    /// With standard input and output closed, the first files the runtime opens (libdispatch's
    /// eventfd and epoll) and the board's own socket would take numbers 0 and 1: a script read
    /// from dispatch's eventfd waited for ever, and output could go to a socket. A served board
    /// runs long enough to look: both numbers must still be /dev/null.
    @Test("are held on /dev/null while the command runs, so no file it opens takes their numbers")
    func heldOnDevNull() throws {
        guard let executable = Tictactoe.executable else { throw Tictactoe.MissingExecutable() }
        let folder = try Tictactoe.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let socket = folder + "/board.sock"

        let pid = try Tictactoe.start(["simulate", "--serve", socket], program: executable, input: .closed, output: .closed, in: folder)
        defer {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        // Serving means the runtime and the board have opened what they open at start.
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(20_000) }
        try #require(FileManager.default.fileExists(atPath: socket), "the board never served its socket")
        for fd in [0, 1] {
            let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")
            #expect(target == "/dev/null", "fd \(fd) is \(target)")
        }
    }
}
