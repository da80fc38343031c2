import ArgumentParser
import Basics
import BoardMemory
import BoardConfiguration
import BoardSimulation
import GPIO
import Reactive
import SimulatedGPIO
import SystemdService
import WiredBoard
#if canImport(Glibc)
import Glibc
#endif

/// `simulate --serve`: the service's own parts on a simulated chip, headless, in real time,
/// serving the board's API at a path of the user's.
struct SimulatedService {
    let socket: String
    let stateDirectory: String?
    /// Where the LEDs an eye sees are written (``LEDLog``), if anywhere.
    let ledsFile: String?
    let settings: BoardSettings

    func run() throws {
        // Caught from here on, as in `run`: a signal during start-up still ends cleanly.
        let shutdown = ShutdownSignal()
        let logger = ServiceLog(level: .info, environment: [:])
        let directory = try stateDirectory ?? Self.temporaryDirectory()
        defer { if stateDirectory == nil { Self.remove(directory) } }
        let loop = ThreadScheduler(named: "game loop")
        let chip = SimulatedChip(clock: loop)
        var configuration = Configuration()
        configuration.settings = settings
        let ledLog = try ledsFile.map { file throws(ExitCode) in
            try LEDLog(file: file, seeing: SimulatedBoard(chip: chip, pins: settings.pins, scheduler: loop, dimCycle: settings.dimCycle))
        }
        defer { ledLog?.stop() }
        let service = BoardService(
            configuration: configuration,
            openChip: { chip },
            stateDirectory: directory, notifier: Notifier(socketPath: nil), logger: logger, realtimePriority: 0,
            loop: loop, apiSocket: { [socket] in try APIListener.take(orMakeAt: socket) }, program: TicTacToeCommand.program,
            extraParts: Run.testFaults(stateDirectory: directory, loop: loop, logger: logger))
        logger.info("a simulated board, headless; its state in \(directory)")
        try service.serve(until: shutdown)
    }

    /// A new directory of this process's own under $TMPDIR.
    static func temporaryDirectory() throws(ExitCode) -> String {
        do {
            return try TextFile.makeTemporaryDirectory(prefix: "tictactoe-simulate")
        } catch {
            printError("\(error.reason). Give --state-dir.")
            throw ExitStatus.cannotCreate
        }
    }

    /// Removes what a served simulation left in its temporary state directory.
    static func remove(_ directory: String) {
        for name in BoardMemory.fileNames { unlink(directory + "/" + name) }
        rmdir(directory)
    }
}
