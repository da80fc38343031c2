import GPIO
import Lights
import Reactive

/// The 3×3 bi-colour matrix, multiplexed: one row lit at a time, fast enough that the eye sees
/// all three.
///
/// ## Contract
/// - Shows the cells of the latest ``Frame`` bound into it (`matrix <~ frames`).
/// - Each scan step, every `rowPeriod` on `scheduler`, first blanks (all rows and columns off)
///   and then, in a second write, sets the next row's columns and switches that row on. Every
///   level inside the second write is a subset of the target, so no LED of another row can
///   flash (ghosting), whatever order the chip applies the lines in.
/// - Quiet when dark: a dark frame is written once (the blank) and the scan is then not
///   scheduled at all; the next lit frame starts it again. A dark board costs no wake-ups.
/// - ``framesWritten`` sends once each new frame has been written out in full while started:
///   at once for a dark frame (its blank), after the scan has lit all three rows for a lit one.
///   The service tells systemd it is ready on the first.
/// - A write error stops the scan and is sent on ``failures``.
/// - ``stop()`` stops the scan and switches every matrix line off; the matrix stays stopped.
/// - Confined to `scheduler`: frames must arrive there (the view model sends them there), and
///   ``start()`` and ``stop()`` must be called there, so its state needs no lock.
public final class LEDMatrix: BindingTargetProvider, Sendable {
    /// The scan itself. Bindings and the scan timer hold it strongly, not the matrix weakly: a
    /// weak reference would put every retain of it on the runtime's slow path, on every step.
    private let scan: MatrixScan
    private let token: Lifetime.Token
    private let lifetime: Lifetime
    public let failures: Signal<GPIOError>
    public let framesWritten: Signal<Void>

    /// A matrix on `lines`, which must include the pin map's rows and columns.
    public init(lines: any OutputLines, pins: PinMap, rowPeriod: Duration, scheduler: any Scheduler) {
        let failures = Signal<GPIOError>.pipe(), framesWritten = Signal<Void>.pipe()
        scan = MatrixScan(
            lines: lines, pins: pins, rowPeriod: rowPeriod, scheduler: scheduler, failures: failures.input,
            framesWritten: framesWritten.input)
        self.failures = failures.output
        self.framesWritten = framesWritten.output
        (lifetime, token) = Lifetime.make()
    }

    /// The frame whose cells the matrix shows.
    public var bindingTarget: BindingTarget<Frame> {
        BindingTarget(lifetime: lifetime) { [scan] frame in scan.show(frame.cells) }
    }

    /// The cells being shown.
    public var shownCells: FrameCells { scan.cells }

    /// Whether scan steps are scheduled now (only while started and something is lit).
    public var isScanning: Bool { scan.isScanning }

    /// Starts showing: scans while any cell is lit.
    public func start() { scan.start() }

    /// Stops scanning and switches the whole matrix off.
    public func stop() { scan.stop() }

    /// Its timer holds the scan: cancelling it lets the scan go with the matrix.
    deinit { scan.cancelScan() }
}

/// The matrix's state and scan steps, confined to the scheduler.
private final class MatrixScan: @unchecked Sendable {
    private let lines: any OutputLines
    private let scheduler: any Scheduler
    private let rowPeriod: Duration
    private var writes: RowScan
    private var row = 2
    private(set) var cells = FrameCells()
    private var isRunning = false
    private var scanTimer: (any Disposable)?
    /// Rows of the latest frame still to be written before it counts as shown; nil once shown.
    private var rowsToWrite: Int?
    private let failureInput: Signal<GPIOError>.Input
    private let framesWrittenInput: Signal<Void>.Input

    init(lines: any OutputLines, pins: PinMap, rowPeriod: Duration, scheduler: any Scheduler,
         failures: Signal<GPIOError>.Input, framesWritten: Signal<Void>.Input) {
        self.lines = lines
        self.rowPeriod = rowPeriod
        self.scheduler = scheduler
        writes = RowScan(pins: pins)
        failureInput = failures
        framesWrittenInput = framesWritten
    }

    var isScanning: Bool { scanTimer != nil }

    func start() {
        isRunning = true
        rowsToWrite = 3
        if !writes.isLit { write(writes.blank) }
        followCells()
    }

    func stop() {
        isRunning = false
        cancelScan()
        try? lines.set(writes.blank)
    }

    func show(_ newCells: FrameCells) {
        guard newCells != cells else { return }
        cells = newCells
        writes.show(newCells)
        rowsToWrite = 3
        followCells()
    }

    /// Schedules the scan while started and lit; otherwise blanks once and cancels it.
    private func followCells() {
        guard isRunning else { return }
        if writes.isLit {
            guard scanTimer == nil else { return }
            scanTimer = scheduler.schedule(every: rowPeriod) { [self] in step() }
        } else {
            if scanTimer != nil {
                cancelScan()
                write(writes.blank)
            }
            frameWritten()
        }
    }

    private func frameWritten() {
        rowsToWrite = nil
        framesWrittenInput.send()
    }

    func cancelScan() {
        scanTimer?.dispose()
        scanTimer = nil
    }

    /// One scan step: blank, then light the next row. Runs on the scheduler.
    private func step() {
        row = (row + 1) % 3
        guard write(writes.blank), write(writes.rows[row]), let rows = rowsToWrite else { return }
        if rows > 1 { rowsToWrite = rows - 1 } else { frameWritten() }
    }

    @discardableResult
    private func write(_ settings: [LineSetting]) -> Bool {
        do {
            try lines.set(settings)
            return true
        } catch {
            cancelScan()
            failureInput.send(error)
            return false
        }
    }
}
