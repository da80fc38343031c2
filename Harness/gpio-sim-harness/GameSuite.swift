import Console
import Devices
import Foundation
import GPIO
import Lights
import TicTacToe

/// The real-kernel suite's scenarios, in order, each reported under its name: the real
/// `tictactoe run` on a gpio-sim chip, buttons pressed through the simulated pulls (with contact
/// bounce) and the LEDs read from the simulated values.
struct GameSuite {
    let tictactoe: String
    let gpiomon: String
    let gpioinfo: String
    let toolsV2: Bool
    let sim: GPIOSim
    let pins = PinMap.standard
    let leds: LEDWatcher

    init(tictactoe: String, gpiomon: String, gpioinfo: String, toolsV2: Bool, sim: GPIOSim) {
        self.tictactoe = tictactoe
        self.gpiomon = gpiomon
        self.gpioinfo = gpioinfo
        self.toolsV2 = toolsV2
        self.sim = sim
        leds = LEDWatcher(sim: sim, pins: pins)
    }

    func run() {
        missingChip()
        busyLine()
        selfTest()
        guard let (game, startup) = startGame(["--x-name", "Alice", "--o-name", "Bob", "--log-level", "debug"]) else {
            report("done", ["error": "the game did not start"])
            return
        }
        report("ready", [
            "seconds": startup, "line": game.output.first { $0.contains("ready on") } ?? "",
            "library": game.output.first { $0.contains("with libgpiod") } ?? "",
        ])
        play()
        let board = boardLatencies()
        let (monitor, monitorErrors) = gpiomonLatencies()
        // All of it: the debug lines pair each kernel edge stamp with the game's decision, the
        // evidence when a step goes wrong.
        report("game-log", ["lines": game.output])
        report("latency", ["board": board, "gpiomon": monitor, "gpiomonErrors": monitorErrors])
        stopAndRestart(game)
        report("done", [:])
    }

    // MARK: Scenarios

    /// 1. A chip that does not exist.
    private func missingChip() {
        guard let missing = try? ChildProcess(tictactoe, ["run", "--chip", "no-such-chip", "--state-dir", "/tmp/tictactoe-state"]) else { return }
        let status = missing.wait(timeout: 30)
        report("missing-chip", ["status": status, "stderr": missing.errorOutput])
    }

    /// 2. A button line already held by another program.
    private func busyLine() {
        let holderArguments = toolsV2 ? ["-c", sim.chipName, "17"] : [sim.chipName, "17"]
        guard let holder = try? ChildProcess(gpiomon, holderArguments) else { return }
        pause(1.0)
        if let game = try? ChildProcess(tictactoe, ["run", "--chip", sim.label, "--state-dir", "/tmp/tictactoe-state"]) {
            let status = game.wait(timeout: 30)
            report("busy-line", ["status": status, "stderr": game.errorOutput])
        }
        holder.signal(SIGTERM)
        holder.wait(timeout: 5)
    }

    /// 2b. The unattended self-test on a correctly wired (simulated) board.
    private func selfTest() {
        guard let check = try? ChildProcess(tictactoe, ["selftest", "--non-interactive", "--chip", sim.label]) else { return }
        let status = check.wait(timeout: 60)
        report("selftest", ["status": status, "stdout": check.output.joined(separator: "\n"), "stderr": check.errorOutput])
    }

    /// One step of vm/game-script.json: a key of the board.
    private struct ScriptStep: Decodable {
        let name: String
        let key: String
    }

    /// 3. A complete run of play, every key with bouncing contacts on press and release. The
    /// steps and what each must show live together in vm/game-script.json (the host test reads
    /// the same file); each step is reported under its name.
    private func play() {
        let script = (try? Data(contentsOf: URL(fileURLWithPath: "/etc/game-script.json"))) ?? Data()
        let steps = (try? JSONDecoder().decode([ScriptStep].self, from: script)) ?? []
        if steps.isEmpty { report("setup", ["error": "no steps in /etc/game-script.json"]) }
        report("game-start", ["frames": watch(windows: 3)])
        for step in steps {
            guard let key = step.key.first, let (line, hold) = line(for: key) else {
                report("game-step", ["name": step.name, "key": step.key, "error": "not a key of the board"])
                continue
            }
            tap(line, hold: hold)
            pause(0.1)
            report("game-step", ["name": step.name, "key": step.key, "frames": watch(windows: 7)])
        }
    }

    /// 4. Latency: a button edge to the LED lines lighting that cell, in seconds, measured from
    /// the same clock as gpiomon seeing the same kind of edge (``gpiomonLatencies()``).
    private func boardLatencies() -> [Double] {
        var board: [Double] = []
        for cell in [Position.all[0], Position.all[4], Position.all[8], Position.all[2], Position.all[6]] {
            // Each trial on a fresh game: hold new game, then press one cell.
            tap(pins.newGameButton, hold: 1.9)
            pause(0.3)
            let button = Int(pins.button(for: cell).rawValue)
            let row = Int(pins.rows[cell.row].rawValue)
            let columns = [Int(pins.redColumns[cell.column].rawValue), Int(pins.greenColumns[cell.column].rawValue)]
            let start = now()
            sim.pull(button, up: false)
            var seen: Double? = nil
            while now() - start < 2 {
                if sim.value(row) && columns.contains(where: { sim.value($0) }) { seen = now(); break }
                // Polled like gpiomon's output below: a spinning harness would take the vCPU
                // the game needs, and measure itself.
                usleep(50)
            }
            if let seen { board.append(seen - start) }
            pause(0.15)
            sim.pull(button, up: true)
            pause(0.2)
        }
        return board
    }

    /// gpiomon seeing a falling edge (pull-up bias) on a spare line, in seconds, and its errors.
    /// gpiomon prints through a buffered stdout, so each trial runs one that exits after its
    /// first event (-n 1): the line arrives when it exits, which flatters gpiomon slightly.
    private func gpiomonLatencies() -> ([Double], [String]) {
        var monitor: [Double] = [], monitorErrors: [String] = []
        let spare = 7
        let monitorArguments = toolsV2
            ? ["-c", sim.chipName, "-b", "pull-up", "-e", "falling", "-n", "1", "\(spare)"]
            : ["-B", "pull-up", "-f", "-n", "1", sim.chipName, "\(spare)"]
        for _ in 0..<5 {
            guard let mon = try? ChildProcess(gpiomon, monitorArguments) else { continue }
            pause(1.0)
            let start = now()
            sim.pull(spare, up: false)
            var seen: Double? = nil
            while now() - start < 3 {
                if !mon.output.isEmpty { seen = now(); break }
                usleep(50)
            }
            if let seen { monitor.append(seen - start) } else { monitorErrors.append(mon.errorOutput) }
            mon.signal(SIGTERM)
            mon.wait(timeout: 5)
            sim.pull(spare, up: true)
            pause(0.2)
        }
        return (monitor, monitorErrors)
    }

    /// 5. SIGTERM mid-game: every LED line low afterwards, the lines free again, and the game
    /// starting again on them.
    private func stopAndRestart(_ game: ChildProcess) {
        tap(pins.newGameButton, hold: 1.9)
        pause(0.3)
        tap(pins.button(for: Position.all[4]))
        tap(pins.button(for: Position.all[0]))
        pause(0.3)
        let litBefore = !leds.allOff || (try? leds.anyLit(over: 0.1)) == true
        game.signal(SIGTERM)
        let status = game.wait(timeout: 30)
        var info = ""
        if let lister = try? ChildProcess(gpioinfo, toolsV2 ? ["-c", sim.chipName] : [sim.chipName]) {
            lister.wait(timeout: 10)
            info = lister.output.joined(separator: "\n")
        }
        report("sigterm", [
            "status": status, "litBefore": litBefore, "allOffAfter": leds.allOff,
            "stdout": game.output.suffix(6).joined(separator: "\n"), "gpioinfo": info,
        ])
        guard let (again, seconds) = startGame() else {
            report("restart", ["ready": false])
            return
        }
        report("restart", ["ready": true, "seconds": seconds])
        again.signal(SIGINT)
        report("restart-stop", ["status": again.wait(timeout: 30), "allOffAfter": leds.allOff])
    }

    // MARK: Hands and eyes

    /// Presses (or releases) a button line with a burst of contact bounce, as a cheap switch does.
    private func bounce(_ line: LineOffset, down: Bool) {
        sim.bounce(Int(line.rawValue), endingUp: !down)
    }

    private func tap(_ line: LineOffset, hold: Double = 0.15) {
        bounce(line, down: true)
        pause(hold)
        bounce(line, down: false)
    }

    private func line(for key: Character) -> (LineOffset, Double)? {
        switch KeyCommand(key: key) {
        case .cell(let position): (pins.button(for: position), 0.15)
        case .newGame: (pins.newGameButton, 0.15)
        case .holdNewGame: (pins.newGameButton, 1.9)
        default: nil
        }
    }

    /// Frames shown in consecutive 200 ms windows, as one-line pictures (or why a window could
    /// not be read: "starved: …"); why not, if the kernel's record of the LED lines could not be
    /// read.
    private func watch(windows: Int) -> [String] {
        do {
            return try leds.frames(count: windows, each: 0.2).map { window in
                switch window {
                case .success(let frame): frame.description.replacingOccurrences(of: "\n", with: "|")
                case .failure(let starved): starved.description
                }
            }
        } catch {
            return ["unreadable: \(error)"]
        }
    }

    private func startGame(_ extra: [String] = []) -> (ChildProcess, Double)? {
        let started = now()
        // Normal scheduling: under emulation a scan step costs a hundred times what it does on
        // a Pi, and at real-time priority the loop would starve this harness, stretching its
        // simulated contact bounce beyond the debounce window. The service suite covers
        // SCHED_FIFO.
        let arguments = ["run", "--chip", sim.label, "--state-dir", "/tmp/tictactoe-state", "--realtime-priority", "0"] + extra
        // On one processor (busybox's taskset execs the game in its place): the kernel stamps
        // the LED writes it records with a clock that, in this VM, may tick only every few
        // milliseconds, and records of two processors stamped alike could be read out of order;
        // one processor's own are always in order.
        guard let game = try? ChildProcess("/bin/taskset", ["1", tictactoe] + arguments) else { return nil }
        guard game.waitForLine(containing: "ready on", timeout: 60) != nil else {
            report("start", ["error": "no ready line", "stderr": game.errorOutput, "stdout": game.output])
            game.signal(SIGKILL)
            return nil
        }
        return (game, now() - started)
    }
}
