import Basics
import GPIO
import Lights
import Reactive

/// Every LED of the board: the 3×3 bi-colour matrix, multiplexed — one row lit at a time, fast
/// enough that the eye sees all three — and the two status LEDs, directly driven.
///
/// ## Contract
/// - Shows the latest ``Frame`` bound into it (`lights <~ frames`): its cells, its status LEDs,
///   and the brightness of each.
/// - Each scan step, every `rowPeriod` on `scheduler`, first blanks the matrix (all rows and
///   columns off) and then, in a second write, sets the next row's columns, switches that row
///   on and sets the status LEDs. Every level inside the second write is a subset of the target,
///   so no LED of another row can flash (ghosting), whatever order the chip applies the lines in.
/// - A dim LED is lit in one frame (three row steps) of every `dimCycle.frames` (the
///   ``DimCycle`` chosen from the LED part) and dark in the others, a half one in the first
///   half of them, within the same writes: brightness adds no write and no wake-up.
/// - The row scan runs only while a cell is lit. A frame with no cell lit and no status LED dim
///   is written once (the matrix blank, the status LEDs set) and nothing is then scheduled at
///   all; the next frame that needs more starts it again. A dark board costs no wake-ups.
/// - A dim status LED with no cell lit (a new game with O to start) is pulsed on its own, with
///   the matrix blank: lit for a frame's time (three row periods) at the start of every
///   `dimCycle.frames` frames' time and dark for the rest, the same light on its line as
///   the scan gives it, in two writes and two wake-ups a cycle instead of two writes each row
///   period (docs/BENCHMARKS.md has the figures). A new frame restarts the cycle, lit.
/// - ``framesWritten`` sends once each new frame has been written out in full while started:
///   at once for a frame that needs no scan (a pulsed one: once its status LEDs are written
///   lit), after the scan has lit all three rows for one that does (in frames that light its
///   dim LEDs, if it has any). The service tells systemd it is ready on the first.
/// - A write that fails is written again at the next scan step (a row period later; a pulse's at
///   its next change; for a board that needs neither, its one write is retried every row
///   period), so a transient error (`EINTR`, `EAGAIN`) costs a blink at most. When writes have
///   failed without a success in between for as long as `persistentFailure` says, the scan
///   stops for good, nothing more is written until ``stop()``, and ``failures`` sends once.
/// - ``stop()`` stops the scan and switches every LED line off; the board stays stopped.
/// - Confined to `scheduler`: frames must arrive there (the view model sends them there), and
///   ``start()`` and ``stop()`` must be called there, so its state needs no lock.
public final class LEDBoard: BindingTargetProvider, Sendable {
    /// The scan itself. Bindings and the scan timer hold it strongly, not the board weakly: a
    /// weak reference would put every retain of it on the runtime's slow path, on every step.
    private let scan: LightScan
    private let token: Lifetime.Token
    private let lifetime: Lifetime
    /// The lines' persistent failure, once; the scan has stopped.
    public let failures: Signal<LEDFailure>
    public let framesWritten: Signal<Void>

    /// The board's LEDs on `lines`, which must include the pin map's matrix and status lines.
    /// - Parameter dimCycle: how dim LEDs are lit (the board's settings choose it from the part).
    /// - Parameter persistentFailure: when failed writes stop the scan and are reported.
    public init(
        lines: any OutputLines, pins: PinMap, rowPeriod: Duration, dimCycle: DimCycle = .standard, scheduler: any Scheduler,
        persistentFailure: PersistentWriteFailure = .standard
    ) {
        let failures = Signal<LEDFailure>.pipe(confinedTo: scheduler), framesWritten = Signal<Void>.pipe(confinedTo: scheduler)
        scan = LightScan(
            lines: lines, pins: pins, rowPeriod: rowPeriod, dimCycle: dimCycle, scheduler: scheduler,
            persistentFailure: persistentFailure,
            failures: failures.input, framesWritten: framesWritten.input)
        self.failures = failures.output
        self.framesWritten = framesWritten.output
        (lifetime, token) = Lifetime.make()
    }

    /// The frame the LEDs show.
    public var bindingTarget: BindingTarget<Frame> {
        BindingTarget(lifetime: lifetime) { [scan] frame in scan.show(frame) }
    }

    /// The frame being shown.
    public var shownFrame: Frame { scan.writes.frame }

    /// Whether scan steps are scheduled now (only while started and a cell is lit).
    public var isScanning: Bool { scan.isScanning }

    /// Whether the status LEDs' own pulse is scheduled now (only while started, a status LED is
    /// dim and no cell is lit).
    public var isPulsing: Bool { scan.isPulsing }

    /// Starts showing: scans while a cell is lit, pulses while only a status LED is dim.
    public func start() { scan.start() }

    /// Stops scanning and switches every LED off.
    public func stop() { scan.stop() }

    /// Its timers hold the scan: invalidating them lets the scan go with the board.
    deinit { scan.invalidateTimers() }
}

/// The lights' state and scan steps, confined to the scheduler.
private final class LightScan: @unchecked Sendable {
    private let lines: any OutputLines
    private let scheduler: any Scheduler
    private let rowPeriod: Duration
    /// A dim LED is lit in one frame of this many (``DimCycle/frames``).
    private let dimFrames: Int
    private let allOff: [LineSetting]
    /// The blank write, never changed: held here as well, because a `let` of the scan is passed
    /// to the chip without a retain, where one inside `writes` would be copied on every step.
    private let blank: [LineSetting]
    private(set) var writes: RowScan
    private var row = 2
    /// The frame of the dim cycle the scan is in (`0..<dimFrames`).
    private var dimFrame = 0
    private var isRunning = false
    // Made at first use, then set and cancelled without allocating (``LoopTimer``).
    // Each holds the scan strongly until the board invalidates it.
    private lazy var scanTimer = timers.make { [self] in step() }
    /// The next try of a still board's one write, after it failed.
    private lazy var retryTimer = timers.make { [self] in followFrame() }
    /// The status LEDs' pulse: its lit write, then its dark one, each once a cycle.
    private lazy var pulseLit = timers.make { [self] in pulse(lit: true) }
    private lazy var pulseDark = timers.make { [self] in pulse(lit: false) }
    private let timers: LoopTimers
    /// Rows of the latest frame still to be written before it counts as shown; nil once shown.
    private var rowsToWrite: Int?
    private let persistentFailure: PersistentWriteFailure
    /// Writes failed since the last that worked, and when the first of them failed.
    private var failedWrites = 0
    private var failingSince = MonotonicInstant.zero
    private let failureInput: Signal<LEDFailure>.Input
    private let framesWrittenInput: Signal<Void>.Input

    init(lines: any OutputLines, pins: PinMap, rowPeriod: Duration, dimCycle: DimCycle, scheduler: any Scheduler,
         persistentFailure: PersistentWriteFailure, failures: Signal<LEDFailure>.Input, framesWritten: Signal<Void>.Input) {
        self.lines = lines
        self.rowPeriod = rowPeriod
        dimFrames = dimCycle.frames
        self.scheduler = scheduler
        timers = LoopTimers(on: scheduler)
        self.persistentFailure = persistentFailure
        allOff = pins.allLEDsOff
        writes = RowScan(pins: pins, dimCycle: dimCycle)
        blank = writes.blank
        failureInput = failures
        framesWrittenInput = framesWritten
    }

    var isScanning: Bool { scanTimer.isSet }
    var isPulsing: Bool { pulseLit.isSet }

    func invalidateTimers() { timers.invalidateAll() }

    func start() {
        isRunning = true
        failedWrites = 0
        rowsToWrite = 3
        followFrame()
    }

    func stop() {
        isRunning = false
        cancelScan()
        try? lines.set(allOff)
    }

    func show(_ frame: Frame) {
        guard frame != writes.frame else { return }
        writes.show(frame)
        rowsToWrite = 3
        followFrame()
    }

    /// Schedules the scan while started and needed; otherwise cancels it and pulses the status
    /// LEDs or writes the frame once (the scan's writes will not carry it).
    private func followFrame() {
        guard isRunning else { return }
        if writes.needsScan {
            guard !scanTimer.isSet else { return }
            cancelScan()
            scanTimer.set(every: rowPeriod)
        } else {
            cancelScan()
            if writes.needsPulse {
                pulse()
            } else if write(writes.still) {
                frameWritten()
            } else if isRunning {
                retryTimer.set(after: rowPeriod)
            }
        }
    }

    /// Starts the status LEDs' own dim cycle: lit now and at the start of every cycle, dark
    /// from a frame's time (three row periods) into it, as the scan would light them.
    private func pulse() {
        let now = scheduler.now, frameTime = rowPeriod * 3, cycle = frameTime * dimFrames
        pulseLit.set(at: now + cycle, repeatingEvery: cycle)
        pulseDark.set(at: now + frameTime, repeatingEvery: cycle)
        pulse(lit: true)
    }

    /// One write of the pulse; the frame counts as written at its first lit one.
    private func pulse(lit: Bool) {
        guard write(lit ? writes.still : writes.stillDimDark), lit, rowsToWrite != nil else { return }
        frameWritten()
    }

    private func frameWritten() {
        rowsToWrite = nil
        framesWrittenInput.send()
    }

    /// Cancels the scan, the pulse and a pending retry.
    func cancelScan() {
        timers.cancelAll()
    }

    /// One scan step: blank, then light the next row. Runs on the scheduler.
    private func step() {
        row = (row + 1) % 3
        if row == 0 { dimFrame = (dimFrame + 1) % dimFrames }
        guard write(blank), write(writes.write(row: row, frame: dimFrame)), let rows = rowsToWrite else { return }
        // A row counts once written with every LED the frame lights, dim ones included.
        guard dimFrame == 0 || !writes.hasDim else { return }
        if rows > 1 { rowsToWrite = rows - 1 } else { frameWritten() }
    }

    @discardableResult
    private func write(_ settings: [LineSetting]) -> Bool {
        do {
            try lines.set(settings)
            failedWrites = 0
            return true
        } catch {
            failed(error)
            return false
        }
    }

    /// Counts a failed write; once the failure is persistent, stops for good and reports it.
    /// The scan or pulse timers go on meanwhile: their next write is the retry.
    private func failed(_ error: GPIOError) {
        let now = scheduler.now
        if failedWrites == 0 { failingSince = now }
        failedWrites += 1
        guard isRunning, persistentFailure.holds(writes: failedWrites, lasting: now - failingSince) else { return }
        isRunning = false
        cancelScan()
        failureInput.send(LEDFailure(writes: failedWrites, lasting: now - failingSince, last: error))
    }
}
