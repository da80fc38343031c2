import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// mosquitto, Debian's, started by the test on loopback: a plain port and a TLS port, a password
/// file with the users below, and the access list docs/NETWORK.md gives
/// (Hardware/mosquitto/tictactoe.acl). Killed and started again on the same ports at will.
final class Broker {
    /// Every user's password is its name reversed.
    static let users = ["kitchen", "attic", "home", "visitor"]
    static func password(_ user: String) -> String { String(user.reversed()) }

    let folder: String
    let port: UInt16
    let tlsPort: UInt16
    private var process: Process?

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// The user a bridged broker connects as, allowed to write the state and presence of the
    /// bridged broker's boards alone, as docs/NETWORK.md says to add for a bridge.
    static let bridgeUser = "bridge"

    /// A board's topics a bridge carries: its state and its presence.
    static func bridged(_ board: String) -> [String] { ["tictactoe/\(board)/state", "tictactoe/\(board)/presence"] }

    /// - Parameters:
    ///   - boards: more boards' users, beside ``users``, each allowed its own topics alone.
    ///   - bridgeWrites: the boards whose state and presence the ``bridgeUser`` may write here.
    ///   - bridge: a broker this one bridges to, carrying its own boards' (`outgoing`) state and
    ///     presence there, and the other's (`incoming`) here.
    init(boards: [String] = [], bridgeWrites: [String] = [], bridge: (to: Broker, outgoing: [String], incoming: [String])? = nil) throws {
        folder = try Tictactoe.temporaryFolder()
        port = try Self.freePort()
        tlsPort = try Self.freePort()
        try Self.run("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
            "-subj", "/CN=tictactoe test CA", "-keyout", "\(folder)/ca.key", "-out", "\(folder)/ca.pem"])
        try Self.run("openssl", ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=localhost",
            "-keyout", "\(folder)/broker.key", "-out", "\(folder)/broker.csr"])
        try Data("subjectAltName=IP:127.0.0.1,DNS:localhost\n".utf8).write(to: URL(fileURLWithPath: "\(folder)/san.ext"))
        try Self.run("openssl", ["x509", "-req", "-in", "\(folder)/broker.csr", "-CA", "\(folder)/ca.pem", "-CAkey", "\(folder)/ca.key",
            "-CAcreateserial", "-days", "2", "-extfile", "\(folder)/san.ext", "-out", "\(folder)/broker.pem"])
        try Data().write(to: URL(fileURLWithPath: "\(folder)/passwords"))
        for user in Self.users + boards + [Self.bridgeUser] { try Self.run("mosquitto_passwd", ["-b", "\(folder)/passwords", user, Self.password(user)]) }
        // The committed access list, with the bridge's user at its end.
        let acl = try String(contentsOf: repositoryRoot.appendingPathComponent("Hardware/mosquitto/tictactoe.acl"), encoding: .utf8)
        let bridgeRights = bridgeWrites.flatMap(Self.bridged).map { "topic write \($0)\n" }.joined()
        try Data((acl + "\nuser \(Self.bridgeUser)\n" + bridgeRights).utf8).write(to: URL(fileURLWithPath: "\(folder)/tictactoe.acl"))
        let connection = bridge.map { bridge in
            let topics = bridge.outgoing.flatMap(Self.bridged).map { "topic \($0) out 0\n" } + bridge.incoming.flatMap(Self.bridged).map { "topic \($0) in 0\n" }
            return """
                connection tictactoe-\(port)
                address 127.0.0.1:\(bridge.to.port)
                remote_username \(Self.bridgeUser)
                remote_password \(Self.password(Self.bridgeUser))
                cleansession true
                try_private true

                """ + topics.joined()
        } ?? ""
        // Started by root (as in CI), mosquitto would become the mosquitto user, who cannot read
        // the test's folder.
        let config = (getuid() == 0 ? "user root\n" : "") + """
            per_listener_settings false
            allow_anonymous false
            password_file \(folder)/passwords
            acl_file \(folder)/tictactoe.acl
            persistence false
            log_dest stderr
            listener \(port) 127.0.0.1
            listener \(tlsPort) 127.0.0.1
            cafile \(folder)/ca.pem
            certfile \(folder)/broker.pem
            keyfile \(folder)/broker.key

            """ + connection
        try Data(config.utf8).write(to: URL(fileURLWithPath: "\(folder)/mosquitto.conf"))
        try start()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Starts mosquitto on the broker's ports, returning once it listens.
    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        process.arguments = ["-c", "\(folder)/mosquitto.conf"]
        let log = Pipe()
        process.standardOutput = log
        process.standardError = log
        try process.run()
        self.process = process
        _ = try ServedSimulation.read(log, until: "running")
    }

    /// SIGKILL: the broker gone without a word, as a power cut takes it.
    func kill() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// `mosquitto_sub` as `user`, printing each message on `topic` as "TOPIC PAYLOAD", from the
    /// retained ones on; it ends on its own after `seconds`, so a test waiting for a message that
    /// never comes fails rather than hangs.
    func subscribe(_ topic: String, as user: String = "visitor", seconds: Int = 30) throws -> Subscription {
        try Subscription(arguments: ["-h", "127.0.0.1", "-p", "\(port)", "-V", "5", "-u", user, "-P", Self.password(user), "-t", topic, "-v", "-W", "\(seconds)"])
    }

    /// `mosquitto_pub` as `user`: whether the broker took it (an access list's refusal is silent
    /// to the publisher; the subscriber's view says what happened).
    @discardableResult
    func publish(_ topic: String, _ payload: String, as user: String = "home", correlation: String? = nil, retain: Bool = false) throws -> Int32 {
        var arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-V", "5", "-u", user, "-P", Self.password(user), "-t", topic, "-m", payload, "-q", "1"]
        if let correlation { arguments += ["-D", "publish", "correlation-data", correlation] }
        if retain { arguments.append("-r") }
        return try Self.run("mosquitto_pub", arguments, check: false)
    }

    @discardableResult
    static func run(_ program: String, _ arguments: [String], check: Bool = true) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        if check && process.terminationStatus != 0 { throw Failed(description: "\(program) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)") }
        return process.terminationStatus
    }

    private static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw Failed(description: "no free port: errno \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }
}

/// A running `mosquitto_sub`: its lines, read as they come.
final class Subscription {
    private let process = Process()
    private let output = Pipe()
    private var pending = ""

    init(arguments: [String]) throws {
        // Line by line: on a pipe its standard output is otherwise held until 4 KiB have come.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
        process.arguments = ["-oL", "/usr/bin/mosquitto_sub"] + arguments
        process.standardOutput = output
        process.standardError = output
        try process.run()
    }

    deinit {
        // SIGKILL: started from a test's thread, the child may inherit a mask that blocks SIGTERM
        // (and the SIGALRM behind its own -W).
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The next line for which `matches` holds, skipping the others; nil when the subscriber ended
    /// first, or nothing came for `patience` (a bound on a test that would otherwise hang, not a
    /// measure of anything).
    func next(patience: Duration = .seconds(30), where matches: (String) -> Bool) -> String? {
        while true {
            while let newline = pending.firstIndex(of: "\n") {
                let line = String(pending[..<newline])
                pending = String(pending[pending.index(after: newline)...])
                if matches(line) { return line }
            }
            var ready = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, Int32(patience.components.seconds * 1000)) == 1 else { return nil }
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { return nil }
            pending += String(decoding: data, as: UTF8.self)
        }
    }

    /// The next message on a topic ending in `leaf` whose payload contains `text`.
    func next(_ leaf: String, containing text: String = "") -> String? {
        next { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            return parts.count == 2 && parts[0].hasSuffix("/" + leaf) && (text.isEmpty || parts[1].contains(text))
        }
    }
}
