import Basics
import Dispatch
import Foundation
import Synchronization
import TestSupport
@testable import WebService

/// The repository's page folder.
let pageFolder = repositoryRoot
    .appendingPathComponent("web").path

/// A clock the test moves.
final class VirtualClock: Sendable {
    private let instant = Locked(MonotonicInstant(nanoseconds: 1_000_000_000_000))
    func now() -> MonotonicInstant { instant.withLock { $0 } }
    func advance(by duration: Duration) { instant.withLock { $0 += duration } }
}

/// The server's events as they come, for a test to wait on.
final class ServerEvents: Sendable {
    private let events = Locked<[WebServer.Event]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func record(_ event: WebServer.Event) {
        events.withLock { $0.append(event) }
        arrived.signal()
    }

    /// Waits (at most 20 s) until `count` events satisfying `matching` have come since the start.
    @discardableResult
    func wait(for count: Int = 1, _ matching: (WebServer.Event) -> Bool) -> Bool {
        while events.withLock({ $0.filter(matching).count }) < count {
            guard arrived.wait(timeout: .now() + 20) == .success else { return false }
        }
        return true
    }

    func count(_ matching: (WebServer.Event) -> Bool) -> Int { events.withLock { $0.filter(matching).count } }

    var all: [WebServer.Event] { events.withLock { $0 } }
}

/// The web view in this process, on a free port of loopback, with a virtual clock; no board
/// unless `board` names a socket where one listens.
final class RunningWeb: Sendable {
    let service: WebService
    let clock = VirtualClock()
    let events = ServerEvents()

    init(board: String = "/nonexistent/board.sock", playing: Bool = true, limits: WebServer.Limits = WebServer.Limits(), boardsFile: String? = nil) throws {
        var options = WebService.Options(boardSocket: board, host: "127.0.0.1", port: 0, playing: playing, hosts: [], page: pageFolder)
        options.limits = limits
        options.boardsFile = boardsFile
        let clock = clock, events = events
        options.now = { clock.now() }
        options.events = { events.record($0) }
        options.retry = .milliseconds(50)
        service = try WebService(options: options)
        service.start()
    }

    var port: UInt16 { service.port }

    /// Moves the clock and makes the server look at it.
    func advance(by duration: Duration) {
        clock.advance(by: duration)
        service.server.wake()
    }

    /// Returns once the server has checked every deadline at the clock's time (after an
    /// ``advance(by:)``): a barrier for a test's "not yet", which would otherwise hold before the
    /// server had looked at all. A connection made now is accepted in a turn of the server that
    /// read the clock and checked the connections it had before it accepted.
    func serverHasLooked() throws {
        let accepted = events.count { $0 == .accepted }
        _ = try WebClient(port: port)
        guard events.wait(for: accepted + 1, { $0 == .accepted }) else { throw ServerAsleep() }
    }

    struct ServerAsleep: Error {}

    func stop() async {
        service.stop()
    }
}

/// Runs `body` with the test's blocking work (sockets it waits on, the server's events) on a thread
/// of its own: on the shared cooperative pool it would hold up other tests' tasks.
func blocking(_ body: () async throws -> Void) async rethrows {
    let executor = ThreadExecutor()
    defer { executor.shutdown() }
    try await withTaskExecutorPreference(executor) { try await body() }
}
