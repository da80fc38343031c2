import Basics
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The built `tictactoe` executable, run as a user runs it: arguments, a standard input of the
/// test's choosing, and its exit status and output read back.
struct Tictactoe {
    /// What the program's standard input is.
    enum Input {
        case text(String)
        /// A path opened read-only: a directory, a device.
        case path(String)
        /// A path opened for writing only, so that reading it fails.
        case writeOnly(String)
        case closed
    }

    /// Where the program's standard output goes.
    enum Output {
        /// A file the test reads back as ``Outcome/out``.
        case captured
        /// A path opened for writing, such as `/dev/full`; ``Outcome/out`` is then empty.
        case path(String)
        case closed
        /// A pipe whose reading end is already closed, as `| head -c1` leaves it once head has
        /// read its byte: every write fails with EPIPE (and raises SIGPIPE).
        case brokenPipe
    }

    struct Outcome {
        var status: Int32
        /// The signal that ended it, if one did (a crash: 4 is SIGILL, a Swift trap).
        var signal: Int32?
        var out: String
        var err: String
    }

    /// Where the executable is: beside the test bundle in the build folder, built by the same
    /// toolchain as the tests (never another build folder's).
    static let executable: String? = {
        let path = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tictactoe").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    /// A fresh empty folder for one test.
    static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "tictactoe-command-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs `tictactoe arguments…` and waits for it.
    static func run(_ arguments: [String], input: Input = .text(""), output: Output = .captured) throws -> Outcome {
        guard let executable else { throw MissingExecutable() }
        return try run(arguments, program: executable, prefix: [], input: input, output: output)
    }

    /// Runs `program prefix… arguments…`: `tictactoe` through another program (`setpriv`, to run
    /// it as another user).
    static func run(_ arguments: [String], program executable: String, prefix: [String], input: Input = .text(""), output: Output = .captured) throws -> Outcome {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pid = try start(arguments, program: executable, prefix: prefix, input: input, output: output, in: folder)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}

        // Bytes that are not UTF-8 shown as U+FFFD, not lost (Foundation's reader gives up on them).
        let read = { (path: String) in (try? TextFile.readBytes(path)).map { String(decoding: $0, as: UTF8.self) } ?? "" }
        let signal = status & 0x7F
        return Outcome(
            status: signal == 0 ? (status >> 8) & 0xFF : -1, signal: signal == 0 ? nil : signal,
            out: read(folder + "/out"), err: read(folder + "/err"))
    }

    /// Starts `program prefix… arguments…` without waiting for it; its captured output and
    /// standard error go to `out` and `err` in `folder`. The caller waits for the process.
    static func start(
        _ arguments: [String], program executable: String, prefix: [String] = [], input: Input, output: Output, in folder: String
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch input {
        case .text(let text):
            let inPath = folder + "/in"
            try Data(text.utf8).write(to: URL(fileURLWithPath: inPath))
            posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
        case .path(let path): posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        case .writeOnly(let path): posix_spawn_file_actions_addopen(&actions, 0, path, O_WRONLY, 0)
        case .closed: posix_spawn_file_actions_addclose(&actions, 0)
        }
        switch output {
        case .captured: posix_spawn_file_actions_addopen(&actions, 1, folder + "/out", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        case .path(let path): posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY, 0)
        case .closed: posix_spawn_file_actions_addclose(&actions, 1)
        case .brokenPipe: break
        }
        var pipeEnd: Int32 = -1
        defer { if pipeEnd >= 0 { close(pipeEnd) } }
        if case .brokenPipe = output {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw SpawnFailed(errno: errno) }
            close(ends[0])
            pipeEnd = ends[1]
            posix_spawn_file_actions_adddup2(&actions, pipeEnd, 1)
            posix_spawn_file_actions_addclose(&actions, pipeEnd)
        }
        posix_spawn_file_actions_addopen(&actions, 2, folder + "/err", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // SIGPIPE at its default, as a shell leaves it, whatever the test runner ignores (an
        // ignored signal stays ignored across exec).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + prefix + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw SpawnFailed(errno: spawned) }
        return pid
    }

    struct MissingExecutable: Error, CustomStringConvertible {
        var description: String { "the tictactoe executable is not built: run swift build first" }
    }

    struct SpawnFailed: Error {
        var errno: Int32
    }
}
