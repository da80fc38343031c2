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
public final class LEDMatrix: BindingTargetProvider, @unchecked Sendable {
    private let lines: any OutputLines
    private let scheduler: any Scheduler
    private let rowPeriod: Duration
    private var scan: RowScan
    private var row = 2
    private var cells = Frame.dark.cells
    private var isRunning = false
    private var scanTimer: (any Disposable)?
    private let token: Lifetime.Token
    private let lifetime: Lifetime
    /// Rows of the latest frame still to be written before it counts as shown; nil once shown.
    private var rowsToWrite: Int?
    public let failures: Signal<GPIOError>
    private let failureInput: Signal<GPIOError>.Input
    public let framesWritten: Signal<Void>
    private let framesWrittenInput: Signal<Void>.Input

    /// A matrix on `lines`, which must include the pin map's rows and columns.
    public init(lines: any OutputLines, pins: PinMap, rowPeriod: Duration, scheduler: any Scheduler) {
        self.lines = lines
        self.rowPeriod = rowPeriod
        self.scheduler = scheduler
        scan = RowScan(pins: pins)
        (lifetime, token) = Lifetime.make()
        (failures, failureInput) = Signal<GPIOError>.pipe()
        (framesWritten, framesWrittenInput) = Signal<Void>.pipe()
    }

    /// The frame whose cells the matrix shows.
    public var bindingTarget: BindingTarget<Frame> {
        BindingTarget(lifetime: lifetime) { [weak self] frame in self?.show(frame.cells) }
    }

    /// The cells being shown.
    public var shownCells: [LEDColor] { cells }

    /// Whether scan steps are scheduled now (only while started and something is lit).
    public var isScanning: Bool { scanTimer != nil }

    /// Starts showing: scans while any cell is lit.
    public func start() {
        isRunning = true
        rowsToWrite = 3
        if !scan.isLit { write(scan.blank) }
        followCells()
    }

    /// Stops scanning and switches the whole matrix off.
    public func stop() {
        isRunning = false
        cancelScan()
        try? lines.set(scan.blank)
    }

    deinit { scanTimer?.dispose() }

    private func show(_ newCells: [LEDColor]) {
        guard newCells != cells else { return }
        cells = newCells
        scan.show(newCells)
        rowsToWrite = 3
        followCells()
    }

    /// Schedules the scan while started and lit; otherwise blanks once and cancels it.
    private func followCells() {
        guard isRunning else { return }
        if scan.isLit {
            guard scanTimer == nil else { return }
            scanTimer = scheduler.schedule(every: rowPeriod) { [weak self] in self?.step() }
        } else {
            if scanTimer != nil {
                cancelScan()
                write(scan.blank)
            }
            frameWritten()
        }
    }

    private func frameWritten() {
        rowsToWrite = nil
        framesWrittenInput.send()
    }

    private func cancelScan() {
        scanTimer?.dispose()
        scanTimer = nil
    }

    /// One scan step: blank, then light the next row. Runs on the scheduler.
    func step() {
        row = (row + 1) % 3
        guard write(scan.blank), write(scan.rows[row]), let rows = rowsToWrite else { return }
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
