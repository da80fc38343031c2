import GPIO
import Lights
import Reactive

/// The two status LEDs, directly driven: red on X's side, green on O's side.
///
/// Shows the status part of the latest ``Frame`` bound into it, writing only when it changes.
/// A write error is sent on ``failures``.
public final class StatusLEDs: BindingTargetProvider, Sendable {
    private let lines: any OutputLines
    private let pins: PinMap
    private let shown = Protected<(x: Bool, o: Bool)?>(nil)
    private let token: Lifetime.Token
    private let lifetime: Lifetime
    public let failures: Signal<GPIOError>
    private let failureInput: Signal<GPIOError>.Input

    public init(lines: any OutputLines, pins: PinMap) {
        self.lines = lines
        self.pins = pins
        (lifetime, token) = Lifetime.make()
        (failures, failureInput) = Signal<GPIOError>.pipe()
    }

    public var bindingTarget: BindingTarget<Frame> {
        BindingTarget(lifetime: lifetime) { [weak self] frame in self?.show(x: frame.xStatus, o: frame.oStatus) }
    }

    /// Switches both LEDs off.
    public func stop() { show(x: false, o: false) }

    private func show(x: Bool, o: Bool) {
        let changed = shown.withValue { shown -> Bool in
            defer { shown = (x, o) }
            return shown.map { $0.x != x || $0.o != o } ?? true
        }
        guard changed else { return }
        do {
            try lines.set([
                LineSetting(pins.xStatus, pins.statusPolarity.level(active: x)),
                LineSetting(pins.oStatus, pins.statusPolarity.level(active: o)),
            ])
        } catch {
            failureInput.send(error)
        }
    }
}
