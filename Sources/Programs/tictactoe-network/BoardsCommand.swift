import ArgumentParser
import Basics
import ConfigurationFile
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import NetworkLink
import NetworkRules

/// Every board on the broker, from their retained states and presences: printed once
/// (`--once`), or again at each change until interrupted.
struct BoardsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boards",
        abstract: "List every board on the MQTT broker: its presence, marks, whose turn and score.",
        discussion: """
            Reads only: it subscribes to tictactoe/+/state and tictactoe/+/presence and publishes \
            nothing. Live, it prints the list again at each change (at most four times a second) \
            until interrupted. The broker and how to reach it come from the configuration file's \
            [network] table (docs/NETWORK.md), as the link's do.
            """)

    @OptionGroup var access: BrokerOptions

    @Flag(help: "Print the list once the broker has sent what it keeps, then exit.")
    var once = false

    func run() throws {
        let settings = try access.settings()
        var options = try BrokerOptions.client(settings, role: "boards")
        // Room for the retained burst of the most boards the list keeps (states of a few hundred
        // bytes each, and their presences); a larger burst is counted and said in the heading.
        options.inboxBytes = 2 << 20
        let wake = DispatchSemaphore(value: 0)
        options.notify = { wake.signal() }
        let client: BrokerClient
        do {
            client = try BrokerClient(options: options)
        } catch {
            Say.error(error.description)
            throw ExitCode(70)
        }
        let shutdown = ShutdownSignal([SIGTERM, SIGINT])
        let outcome = Locked<Int32?>(nil)
        let ended = DispatchSemaphore(value: 0)
        let broker = "\(settings.broker)", once = once, clearsScreen = isatty(STDOUT_FILENO) == 1
        client.start()
        LoopThread.start(named: "boards") {
            var listing = Listing(client: client, broker: broker, once: once, clearsScreen: clearsScreen)
            let status = listing.run(wake: wake) { outcome.withLock { $0 != nil } }
            outcome.withLock { $0 = $0 ?? status }
            ended.signal()
            shutdown.interrupt()
        }
        let signal = shutdown.wait()
        // Live, a signal is the way to stop; a list asked for once and cut short is not a success.
        outcome.withLock { $0 = $0 ?? (once ? 128 + (signal ?? SIGTERM) : 0) }
        wake.signal()
        ended.wait()
        _ = stopWithin(seconds: 3) { client.stop() }
        let status = outcome.withLock { $0 } ?? 0
        if status != 0 { throw ExitCode(status) }
    }
}

/// The list kept from the client's events and printed when ``BoardsPacing`` says, on the
/// listing's own thread.
private struct Listing {
    let client: BrokerClient
    let broker: String
    let once: Bool
    let clearsScreen: Bool
    private var boards = BoardsDirectory()
    private var pacing = BoardsPacing(started: .now())
    private var lastWhy: String?
    /// Why the broker refused the login, when it did: a list asked for once is not waited for.
    private var refusedLogin: String?

    init(client: BrokerClient, broker: String, once: Bool, clearsScreen: Bool) {
        (self.client, self.broker, self.once, self.clearsScreen) = (client, broker, once, clearsScreen)
    }

    /// Until `stopping()` or, printing once, the list printed: 0, or 69 for a broker that never
    /// let the client in, 77 for one that refused its login, 74 for an output that cannot be
    /// written (a reader gone).
    mutating func run(wake: DispatchSemaphore, stopping: () -> Bool) -> Int32 {
        while !stopping() {
            for event in client.take() { take(event, at: .now()) }
            if once, let refusedLogin {
                let who = client.options.user.map { "the user \($0.quoted())" } ?? "no user"
                Say.error("\(refusedLogin) (\(who), the broker at \(broker)).")
                return 77
            }
            switch pacing.next(now: .now()) {
            case .print:
                guard show() else {
                    Say.error("standard output cannot be written (\(TextFile.describeErrno(errno))): the list stopped.")
                    return 74
                }
                pacing.printed(at: .now())
                if once { return 0 }
            case .giveUp where once:
                Say.error("no answer from the broker at \(broker) within \(Int(pacing.patience / .seconds(1))) s: is it running, and network.broker right?")
                return 69
            case .giveUp, .wait(until: nil):
                _ = wake.wait(timeout: .now() + .seconds(1))
            case .wait(until: let instant?):
                let milliseconds = max(0, Int(((instant - .now()) / .milliseconds(1)).rounded(.up)))
                _ = wake.wait(timeout: .now() + .milliseconds(milliseconds))
            }
        }
        return 0
    }

    private mutating func take(_ event: BrokerClient.Event, at now: MonotonicInstant) {
        switch event {
        case .connected:
            boards = BoardsDirectory()
            for topic in BoardsDirectory.subscriptions { client.subscribe(topic, retained: true) }
            pacing.connected(at: now)
            lastWhy = nil
        case .message(let topic, let payload, _, let retained):
            pacing.heard(at: now, retained: retained, changed: boards.take(topic: topic, payload: payload))
        case .loginRefused(let why) where once:
            refusedLogin = why
        case .disconnected(let why) where why != lastWhy, .loginRefused(let why) where why != lastWhy:
            lastWhy = why
            Say.error("\(why); trying again")
        case .overflowed(let count):
            boards.lose(count)
        default:
            break
        }
    }

    /// Whether the list was written whole.
    private func show() -> Bool {
        let text = boards.lines(broker: broker).joined(separator: "\n")
        // Live on a terminal, each list replaces the last (cursor home, screen cleared).
        return Say.line((clearsScreen && !once ? "\u{1b}[H\u{1b}[2J" : "") + text)
    }
}
