import ArgumentParser
import Basics
import BoardSimulation
import Lights
import Reactive
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `simulate --serve --leds FILE`: what an eye sees of the simulated board's LEDs, written as it
/// changes, one JSON line per change, for a test (or a tool) that checks the lines rather than
/// the API:
///
/// ```
/// {"ms":1250,"cells":["off","off","off","off","red","off","off","off","off"],"x":false,"o":true}
/// ```
///
/// `cells` in reading order (top left first); `ms` on the monotonic clock. The eye looks every
/// 10 ms on a thread of its own (the game loop only scans), through ``FramePerception``'s 30 ms
/// window, so a blinking line shows as lines turning off and on.
final class LEDLog: Sendable {
    private let looking: any Disposable
    private let timer = ThreadScheduler(named: "LED log")
    private let fd: Int32

    init(file: String, seeing board: SimulatedBoard) throws(ExitCode) {
        fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            printError("--leds \(file.quoted()): \(TextFile.describeErrno(errno)); give a file in a folder you can write to.")
            throw ExitStatus.cannotCreate
        }
        let last = Locked<Frame?>(nil)
        looking = timer.schedule(every: .milliseconds(10)) { [fd] in
            let frame = board.seenFrame
            guard last.withLock({ seen in seen == frame ? false : { seen = frame; return true }() }) else { return }
            let cells = frame.cells.map { "\"\($0)\"" }.joined(separator: ",")
            let line = "{\"ms\":\(board.scheduler.now.nanoseconds / 1_000_000),\"cells\":[\(cells)],\"x\":\(frame.xStatus),\"o\":\(frame.oStatus)}\n"
            _ = TextFile.writeAll(fd, Array(line.utf8))
        }
    }

    /// Stops looking and closes the file, after a line being written (on the eye's thread).
    func stop() {
        looking.dispose()
        timer.runAndWait { [fd] in _ = close(fd) }
        timer.stop()
    }
}
