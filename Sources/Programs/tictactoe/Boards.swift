import ArgumentParser
import Basics
#if canImport(Glibc)
import Glibc
#endif

/// `tictactoe boards`: every board on the MQTT broker, as `tictactoe-network boards` lists them.
///
/// Runs that program in its own place (exec), so the board's own program links no network
/// client: the list needs the `tictactoe-gpio-network` package (or `make install`), which
/// carries the link to the broker. Found beside this program first, then on the PATH.
struct Boards: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every board on the MQTT broker: presence, marks, whose turn, score (tictactoe-network boards).",
        discussion: """
            Runs tictactoe-network boards with these arguments: --once prints the list once, \
            --broker HOST:PORT and --config FILE say where the broker is (default: the [network] \
            table of the configuration file). Needs the tictactoe-gpio-network package.
            """)

    @Argument(parsing: .captureForPassthrough, help: "tictactoe-network boards' options (--once, --broker, --config; --help for its own help).")
    var arguments: [String] = []

    func run() throws {
        let beside = Self.ownFolder().map { $0 + "/tictactoe-network" }
        let program = beside.flatMap { access($0, X_OK) == 0 ? $0 : nil } ?? "tictactoe-network"
        let argv = [program, "boards"] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        execvp(program, &cArguments)
        let why = String(cString: strerror(errno))
        for argument in cArguments { free(argument) }
        printError("tictactoe boards runs tictactoe-network, which could not be started (\(why)): install the tictactoe-gpio-network package (make install installs it too).")
        throw ExitStatus.linkNotInstalled
    }

    /// The folder of this very program, from the kernel's link to it.
    private static func ownFolder() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.lastIndex(of: "/").map { String(path[..<$0]) }
    }
}
