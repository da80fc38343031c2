/// What a ``Signal`` delivers: values, then at most one completion.
///
/// There is no error event: nothing in this project's streams fails (hardware errors are thrown
/// where lines are requested, not sent down a stream).
public enum Event<Value: Sendable>: Sendable {
    case value(Value)
    case completed
}

extension Event: Equatable where Value: Equatable {}

extension Event {
    var isCompleted: Bool {
        if case .completed = self { true } else { false }
    }
}
