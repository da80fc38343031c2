import Basics
import Dispatch
import Reactive

/// Collects what a signal delivers, for assertions.
final class Recorder<Value: Sendable>: Sendable {
    private let events = Protected<[Event<Value>]>([])

    var values: [Value] {
        events.value.compactMap { if case .value(let v) = $0 { v } else { nil } }
    }
    var completed: Bool { events.value.contains { if case .completed = $0 { true } else { false } } }
    var count: Int { events.value.count }

    var observer: Observer<Value> {
        Observer { [events] event in events.withValue { $0.append(event) } }
    }
}

/// Waits for `semaphore` at most `seconds`: a deadlock shows up as a failed expectation
/// instead of a hung run. Nothing sleeps when the code is right.
func arrives(_ semaphore: DispatchSemaphore, within seconds: Int = 20) -> Bool {
    semaphore.wait(timeout: .now() + .seconds(seconds)) == .success
}
