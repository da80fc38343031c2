import Basics
import Synchronization

/// Something that can be stopped: an observation, a scheduled action, a binding.
///
/// `dispose()` is idempotent and thread-safe; what it stops is stopped when it returns.
public protocol Disposable: AnyObject, Sendable {
    var isDisposed: Bool { get }
    func dispose()
}

/// Runs a closure once, on the first `dispose()`.
public final class ActionDisposable: Disposable {
    private let action: Locked<(@Sendable () -> Void)?>

    public init(_ action: @escaping @Sendable () -> Void) {
        self.action = Locked(action)
    }

    public var isDisposed: Bool { action.withLock { $0 == nil } }

    public func dispose() {
        let pending = action.withLock { action in
            defer { action = nil }
            return action
        }
        pending?()
    }
}

/// Nothing to stop: what observing an already completed signal returns.
public final class NoDisposable: Disposable {
    public static let shared = NoDisposable()
    private init() {}
    public var isDisposed: Bool { true }
    public func dispose() {}
}

/// Disposes many disposables together. Adding to an already disposed composite disposes the
/// addition at once, so nothing outlives the composite by accident.
public final class CompositeDisposable: Disposable {
    private let state = Protected<[any Disposable]?>([])

    public init(_ disposables: [any Disposable] = []) {
        state.withValue { $0 = disposables }
    }

    public var isDisposed: Bool { state.value == nil }

    public func add(_ disposable: (any Disposable)?) {
        guard let disposable else { return }
        let accepted = state.withValue { list -> Bool in
            guard list != nil else { return false }
            list?.append(disposable)
            return true
        }
        if !accepted { disposable.dispose() }
    }

    public static func += (lhs: CompositeDisposable, rhs: (any Disposable)?) { lhs.add(rhs) }

    public func dispose() {
        let list = state.withValue { list in
            defer { list = nil }
            return list ?? []
        }
        for disposable in list { disposable.dispose() }
    }
}

/// Holds one disposable at a time; replacing it disposes the previous one. Used for timers that
/// restart (a flash, an idle countdown).
public final class SerialDisposable: Disposable {
    private let state = Protected<(inner: (any Disposable)?, disposed: Bool)>((nil, false))

    public init() {}

    public var isDisposed: Bool { state.value.disposed }

    /// The current inner disposable. Setting it disposes the old one (and the new one too, if
    /// this serial disposable is already disposed).
    public var inner: (any Disposable)? {
        get { state.value.inner }
        set {
            let (old, disposed) = state.withValue { state -> ((any Disposable)?, Bool) in
                let old = state.inner
                if !state.disposed { state.inner = newValue }
                return (old, state.disposed)
            }
            old?.dispose()
            if disposed { newValue?.dispose() }
        }
    }

    public func dispose() {
        let old = state.withValue { state -> (any Disposable)? in
            defer { state = (nil, true) }
            return state.inner
        }
        old?.dispose()
    }
}
