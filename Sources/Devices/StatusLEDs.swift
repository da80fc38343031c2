import GPIO
import Lights
import Reactive

/// The two status LEDs, directly driven: red on X's side, green on O's side.
///
/// Shows the status part of the latest ``Frame`` bound into it, writing only when it changes.
/// A write error is sent on ``failures``. Confined to the game's scheduler, like the matrix.
public final class StatusLEDs: BindingTargetProvider, @unchecked Sendable {
    private let lines: any OutputLines
    private let pins: PinMap
    private var shown: (x: Bool, o: Bool)?
    /// The one write this device makes, rewritten in place.
    private var settings: [LineSetting]
    private let token: Lifetime.Token
    private let lifetime: Lifetime
    public let failures: Signal<GPIOError>
    private let failureInput: Signal<GPIOError>.Input

    public init(lines: any OutputLines, pins: PinMap) {
        self.lines = lines
        self.pins = pins
        settings = [LineSetting(pins.xStatus, .low), LineSetting(pins.oStatus, .low)]
        (lifetime, token) = Lifetime.make()
        (failures, failureInput) = Signal<GPIOError>.pipe()
    }

    public var bindingTarget: BindingTarget<Frame> {
        BindingTarget(lifetime: lifetime) { [weak self] frame in self?.show(x: frame.xStatus, o: frame.oStatus) }
    }

    /// Switches both LEDs off.
    public func stop() { show(x: false, o: false) }

    private func show(x: Bool, o: Bool) {
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
