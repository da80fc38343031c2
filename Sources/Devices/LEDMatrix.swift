import GPIO
import Lights
import Reactive

/// The 3×3 bi-colour matrix, multiplexed: one row lit at a time, fast enough that the eye sees
/// all three.
///
/// ## Contract
/// - Shows the cells of the latest ``Frame`` bound into it (`matrix <~ frames`).
/// - Each scan step, on `scheduler` every `rowPeriod`, first blanks (all rows and columns
///   off) and then, in a second write, sets the next row's columns and switches that row on.
///   Every level inside the second write is a subset of the target, so no LED of another row
///   can flash (ghosting), whatever order the chip applies the lines in.
/// - A dark frame is written once and then not rescanned: nothing to show, nothing to write.
/// - A write error stops the scan and is sent on ``failures``.
/// - ``stop()`` stops the scan and switches every matrix line off.
public final class LEDMatrix: BindingTargetProvider, Sendable {
    private let lines: any OutputLines
    private let pins: PinMap
    private let scheduler: any Scheduler
    private let rowPeriod: Duration
    private let frame = MutableProperty(Frame.dark)
    /// What each scan step writes for each row: derived once per change of the cells, so the
    /// scan itself only reads it; nil while every cell is dark.
    private let rowWrites: Property<[[LineSetting]]?>
    private let scan = SerialDisposable()
    private let state = Protected<(row: Int, isBlank: Bool)>((2, false))
    private let blank: [LineSetting]
    public let failures: Signal<GPIOError>
    private let failureInput: Signal<GPIOError>.Input

    /// A matrix on `lines`, which must include the pin map's rows and columns.
    public init(lines: any OutputLines, pins: PinMap, rowPeriod: Duration, scheduler: any Scheduler) {
        precondition(pins.rows.count == 3 && pins.redColumns.count == 3 && pins.greenColumns.count == 3,
                     "LEDMatrix: validate the pin map first (3 rows, 3 red and 3 green columns)")
        self.lines = lines
        self.pins = pins
        self.rowPeriod = rowPeriod
        self.scheduler = scheduler
        blank = pins.rows.map { LineSetting($0, pins.rowPolarity.level(active: false)) }
            + (pins.redColumns + pins.greenColumns).map { LineSetting($0, pins.columnPolarity.level(active: false)) }
        (failures, failureInput) = Signal<GPIOError>.pipe()
        rowWrites = frame.map(\.cells).skipRepeats().map { cells in
            cells.allSatisfy { $0 == .off } ? nil : (0..<3).map { Self.settings(forRow: $0, cells, pins: pins) }
        }
    }

    /// The frame whose cells the matrix shows.
    public var bindingTarget: BindingTarget<Frame> { frame.bindingTarget }

    /// The frame being shown.
    public var shownFrame: Frame { frame.value }

    /// Starts scanning, one row per `rowPeriod`.
    public func start() {
        scan.inner = scheduler.schedule(every: rowPeriod) { [weak self] in self?.step() }
    }

    /// Stops scanning and switches the whole matrix off.
    public func stop() {
        scan.inner = nil
        try? lines.set(blank)
        state.withValue { $0.isBlank = true }
    }

    deinit { scan.dispose() }

    /// One scan step: blank, then light the next row. Runs on the scheduler.
    func step() {
        let writes = rowWrites.value
        let (row, wasBlank) = state.withValue { state -> (Int, Bool) in
            state.row = (state.row + 1) % 3
            return (state.row, state.isBlank)
        }
        if writes == nil && wasBlank { return }
        do {
            try lines.set(blank)
            if let writes { try lines.set(writes[row]) }
            state.withValue { $0.isBlank = writes == nil }
        } catch {
            scan.inner = nil
            failureInput.send(error)
        }
    }

    private static func settings(forRow row: Int, _ cells: [LEDColor], pins: PinMap) -> [LineSetting] {
        var settings: [LineSetting] = []
        settings.reserveCapacity(7)
        for column in 0..<3 {
            let color = cells[row * 3 + column]
            settings.append(LineSetting(pins.redColumns[column], pins.columnPolarity.level(active: color.isRedLit)))
            settings.append(LineSetting(pins.greenColumns[column], pins.columnPolarity.level(active: color.isGreenLit)))
        }
        settings.append(LineSetting(pins.rows[row], pins.rowPolarity.level(active: true)))
        return settings
    }
}
