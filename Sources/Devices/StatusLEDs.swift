import GPIO
import Lights
import Reactive

/// The two status LEDs, directly driven: red on X's side, green on O's side.
///
/// Shows the status part of the latest ``Frame`` bound into it, writing only when it changes.
/// A write error is sent on ``failures``. Confined to the game's scheduler, like the matrix.
public final class StatusLEDs: BindingTargetProvider, Sendable {
    /// What bindings hold (strongly: a weak reference to a device would slow every retain of it).
    private let shown: ShownStatus
    private let token: Lifetime.Token
    private let lifetime: Lifetime
    public let failures: Signal<GPIOError>

    public init(lines: any OutputLines, pins: PinMap) {
        let failures = Signal<GPIOError>.pipe()
        shown = ShownStatus(lines: lines, pins: pins, failures: failures.input)
        self.failures = failures.output
        (lifetime, token) = Lifetime.make()
    }

    public var bindingTarget: BindingTarget<Frame> {
        BindingTarget(lifetime: lifetime) { [shown] frame in shown.show(x: frame.xStatus, o: frame.oStatus) }
    }

    /// Switches both LEDs off.
    public func stop() { shown.show(x: false, o: false) }
}

/// The two LEDs' last written state, confined to the game's scheduler.
private final class ShownStatus: @unchecked Sendable {
    private let lines: any OutputLines
    private let pins: PinMap
    private var shown: (x: Bool, o: Bool)?
    /// The one write this device makes, rewritten in place.
    private var settings: [LineSetting]
    private let failureInput: Signal<GPIOError>.Input

    init(lines: any OutputLines, pins: PinMap, failures: Signal<GPIOError>.Input) {
        self.lines = lines
        self.pins = pins
        settings = [LineSetting(pins.xStatus, .low), LineSetting(pins.oStatus, .low)]
        failureInput = failures
    }

    func show(x: Bool, o: Bool) {
        if let shown, shown == (x, o) { return }
        shown = (x, o)
        settings[0].level = pins.statusPolarity.level(active: x)
        settings[1].level = pins.statusPolarity.level(active: o)
        do {
            try lines.set(settings)
        } catch {
            failureInput.send(error)
        }
    }
}
