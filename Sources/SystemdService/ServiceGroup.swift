/// One part of a running service, brought up by ``start()`` and taken down by ``stop()``.
///
/// The shape is swift-service-lifecycle's (small services in a group that starts them in order
/// and stops them in reverse), with a `start`/`stop` pair instead of one long `run()`: none of
/// the board's parts has a loop of its own to await (the game loop is a thread, the rest are
/// timers and observations), so a task per part would only wait.
///
/// ## Contract
/// - ``ServiceGroup`` calls ``start()`` once, and ``stop()`` once, only after ``start()``
///   returned: a part whose start throws leaves nothing behind and is not stopped.
/// - ``stop()`` does not throw: a part stops as well as it can and reports what it could not do.
/// - A part may use the parts before it in the group from its ``start()`` to its ``stop()``:
///   they are started before it and stopped after it.
public protocol ServicePart: Sendable {
    /// What the part is, in a few words, for logs and tests.
    var name: String { get }
    func start() async throws
    func stop() async
}

/// Parts started in order and stopped in reverse: a part can rely on every part before it.
///
/// ## Contract
/// - ``run(until:)`` starts the parts one at a time, in order, each once the one before has
///   started; then waits for `shutdown`; then stops the started parts one at a time in reverse.
/// - When a part's ``ServicePart/start()`` throws, the parts already started are stopped in
///   reverse, no later part is started, `shutdown` is not awaited, and the error is rethrown.
public struct ServiceGroup: Sendable {
    public let parts: [any ServicePart]

    public init(_ parts: [any ServicePart]) {
        self.parts = parts
    }

    /// Runs the group until `shutdown` returns, then stops it.
    public func run(until shutdown: @Sendable () async -> Void) async throws {
        var started: [any ServicePart] = []
        do {
            for part in parts {
                try await part.start()
                started.append(part)
            }
        } catch {
            await stop(started)
            throw error
        }
        await shutdown()
        await stop(started)
    }

    private func stop(_ started: [any ServicePart]) async {
        for part in started.reversed() {
            await part.stop()
        }
    }
}
