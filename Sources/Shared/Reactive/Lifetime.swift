import Basics

/// How long something lives: a binding target's lifetime ends when its owner is deallocated,
/// and every binding into it is disposed then.
///
/// A lifetime ends exactly once. `observeEnded` on an ended lifetime runs its action at once.
public final class Lifetime: Sendable {
    private struct State {
        var nextKey = 0
        var actions: [Int: @Sendable () -> Void] = [:]
        var hasEnded = false
    }

    private let state = Protected(State())

    /// Ends the lifetime it was made with when it is deallocated. The owner keeps the token in a
    /// stored property and hands out the lifetime.
    public final class Token: Sendable {
        fileprivate let lifetime: Lifetime
        fileprivate init(_ lifetime: Lifetime) { self.lifetime = lifetime }
        deinit { lifetime.end() }
    }

    /// A lifetime and the token that ends it.
    public static func make() -> (lifetime: Lifetime, token: Token) {
        let lifetime = Lifetime()
        return (lifetime, Token(lifetime))
    }

    private init() {}

    public var hasEnded: Bool { state.value.hasEnded }

    /// Runs `action` when the lifetime ends (at once if it has ended). Disposing the returned
    /// disposable withdraws the request without running it.
    @discardableResult
    public func observeEnded(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        let key = state.withValue { state -> Int? in
            guard !state.hasEnded else { return nil }
            defer { state.nextKey += 1 }
            state.actions[state.nextKey] = action
            return state.nextKey
        }
        guard let key else {
            action()
            return ActionDisposable {}
        }
        return ActionDisposable { [weak self] in
            _ = self?.state.withValue { $0.actions.removeValue(forKey: key) }
        }
    }

    private func end() {
        let actions = state.withValue { state -> [@Sendable () -> Void] in
            state.hasEnded = true
            defer { state.actions = [:] }
            return state.actions.sorted { $0.key < $1.key }.map(\.value)
        }
        for action in actions { action() }
    }
}
