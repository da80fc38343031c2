/// A command that can be enabled or disabled and runs one execution at a time: the new-game
/// button's commands (the "start game" command of the RAC tic-tac-toe app this project grew
/// from). ReactiveSwift's `Action`, for synchronous work.
///
/// ## Contract
///
/// - **Serial.** One execution at a time: ``apply(_:)`` while an execution is running (from
///   another thread, or from inside the work itself) is refused like a disabled apply. The
///   check and the start of an execution are one atomic step.
/// - ``isExecuting`` is true while the work runs; ``isEnabled`` holds exactly when the
///   `enabledIf` property holds and nothing is executing. Both are properties, so what enables
///   the command is observable (and testable).
/// - ``apply(_:)`` runs the work synchronously on the caller's thread when enabled and returns
///   its output; when refused it does nothing and returns `nil`.
/// - ``values`` sends every output, after the work is done (and after ``isExecuting`` is false
///   again); ``disabledAttempts`` sends every refused input (ReactiveSwift's
///   `ActionError.disabled`): a refused press is still a press, and a view model may count it
///   as activity.
/// - Binding a signal into an action (`action <~ taps`) applies it for every value.
public final class Action<Input: Sendable, Output: Sendable>: BindingTargetProvider {
    public let isEnabled: Property<Bool>
    public let isExecuting: Property<Bool>
    public let values: Signal<Output>
    private let valuesInput: Signal<Output>.Input
    public let disabledAttempts: Signal<Input>
    private let disabledInput: Signal<Input>.Input
    private let work: @Sendable (Input) -> Output
    /// Whether `enabledIf` holds, and whether an execution runs: what `isEnabled` is made of.
    private let gate: MutableProperty<ActionGate>
    private let followsEnabledIf: any Disposable
    private let token: Lifetime.Token
    /// Ends when the action is deallocated.
    public let lifetime: Lifetime

    /// An action that is enabled exactly when `enabledIf` holds and it is not executing.
    public init<Enabled: PropertyProtocol>(
        enabledIf: Enabled, execute work: @escaping @Sendable (Input) -> Output
    ) where Enabled.Value == Bool {
        let gate = MutableProperty(ActionGate(allowed: false))
        self.gate = gate
        // The producer sends the value now, then each change: none missed in between.
        followsEnabledIf = enabledIf.producer.startWithValues { allowed in gate.modify { $0.allowed = allowed } }
        // Closures, not key paths: a key path is projected by the runtime on every change.
        isEnabled = gate.map { $0.isEnabled }.skipRepeats()
        isExecuting = gate.map { $0.executing }.skipRepeats()
        (values, valuesInput) = Signal<Output>.pipe()
        (disabledAttempts, disabledInput) = Signal<Input>.pipe()
        self.work = work
        (lifetime, token) = Lifetime.make()
    }

    /// An action that is always enabled when not executing.
    public convenience init(execute work: @escaping @Sendable (Input) -> Output) {
        self.init(enabledIf: Property(value: true), execute: work)
    }

    deinit { followsEnabledIf.dispose() }

    /// Runs the work if enabled and idle; returns its output, or `nil` when refused.
    @discardableResult
    public func apply(_ input: Input) -> Output? {
        let starts = gate.modify { gate -> Bool in
            guard gate.isEnabled else { return false }
            gate.executing = true
            return true
        }
        guard starts else {
            disabledInput.send(input)
            return nil
        }
        let output = work(input)
        gate.modify { $0.executing = false }
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

/// What enables an ``Action``. Not nested in the generic class: a nested type would be generic
/// too, and its property's code would run unspecialised, looking up type metadata on each change.
struct ActionGate: Sendable, Equatable {
    var allowed: Bool
    var executing = false
    var isEnabled: Bool { allowed && !executing }
}
