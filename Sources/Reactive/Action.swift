/// A command that can be enabled or disabled: the seed's "start game" button, here the
/// new-game button.
///
/// ## Contract
///
/// - ``isEnabled`` is a property, so what enables the command is observable (and testable).
/// - ``apply(_:)`` runs the work synchronously on the caller's thread when enabled and returns
///   its output; when disabled it does nothing and returns `nil`.
/// - ``values`` sends every output, after the work is done; ``disabledAttempts`` sends every
///   input applied while disabled (ReactiveSwift's `disabledErrors`): a refused press is still
///   a press, and a view model may count it as activity.
/// - Binding a signal into an action (`action <~ taps`) applies it for every value.
public final class Action<Input: Sendable, Output: Sendable>: BindingTargetProvider {
    public let isEnabled: Property<Bool>
    public let values: Signal<Output>
    private let valuesInput: Signal<Output>.Input
    public let disabledAttempts: Signal<Input>
    private let disabledInput: Signal<Input>.Input
    private let work: @Sendable (Input) -> Output
    private let token: Lifetime.Token
    /// Ends when the action is deallocated.
    public let lifetime: Lifetime

    /// An action that is enabled exactly when `enabledIf` holds.
    public init<Enabled: PropertyProtocol>(
        enabledIf: Enabled, execute work: @escaping @Sendable (Input) -> Output
    ) where Enabled.Value == Bool {
        isEnabled = enabledIf as? Property<Bool> ?? enabledIf.map { $0 }
        (values, valuesInput) = Signal<Output>.pipe()
        (disabledAttempts, disabledInput) = Signal<Input>.pipe()
        self.work = work
        (lifetime, token) = Lifetime.make()
    }

    /// An action that is always enabled.
    public convenience init(execute work: @escaping @Sendable (Input) -> Output) {
        self.init(enabledIf: Property(value: true), execute: work)
    }

    /// Runs the work if enabled; returns its output, or `nil` when disabled.
    @discardableResult
    public func apply(_ input: Input) -> Output? {
        guard isEnabled.value else {
            disabledInput.send(input)
            return nil
        }
        let output = work(input)
        valuesInput.send(output)
        return output
    }

    public var bindingTarget: BindingTarget<Input> {
        BindingTarget(lifetime: lifetime) { [weak self] input in self?.apply(input) }
    }
}

extension Action where Input == Void {
    @discardableResult
    public func apply() -> Output? { apply(()) }
}

extension Action: Sendable {}
