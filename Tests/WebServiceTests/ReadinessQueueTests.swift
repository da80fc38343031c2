import FlyingSocks
import Testing
@testable import WebService
#if canImport(Glibc)
import Glibc
#endif

@Suite("The HTTP server's readiness queue")
struct ReadinessQueueTests {
    /// A connected pair of Unix stream sockets.
    private func socketPair() throws -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        return (ends[0], ends[1])
    }

    @Test("a socket closed while registered does not hide the next socket given its number")
    func reusedDescriptor() throws {
        var queue = ReadinessQueue()
        try queue.open()
        defer { try? queue.close() }
        // The kernel gives the lowest free number, but other tests in this process open files
        // too: tried until the number closed is the one given again.
        var reusedPair: (Int32, Int32)?
        for _ in 0..<100 where reusedPair == nil {
            let (closed, closedPeer) = try socketPair()
            try queue.addEvents([.read], for: Socket.FileDescriptor(rawValue: closed))
            // Closed before its waiter is removed, as a WebSocket's reader closes under its writer.
            close(closed)
            // FlyingFox's pool logs a failure here and goes on.
            try? queue.removeEvents([.read], for: Socket.FileDescriptor(rawValue: closed))
            close(closedPeer)
            let (next, nextPeer) = try socketPair()
            if next == closed {
                reusedPair = (next, nextPeer)
            } else {
                close(next)
                close(nextPeer)
            }
        }
        let (reused, reusedPeer) = try #require(reusedPair, "no socket was given a closed one's number in 100 tries")
        defer { [reused, reusedPeer].forEach { close($0) } }
        try queue.addEvents([.read], for: Socket.FileDescriptor(rawValue: reused))
        #expect(write(reusedPeer, "GET", 3) == 3)
        // Something always ready, so that a wait that misses the socket still returns.
        var pipeEnds: [Int32] = [-1, -1]
        try #require(pipe(&pipeEnds) == 0)
        defer { pipeEnds.forEach { close($0) } }
        try queue.addEvents([.write], for: Socket.FileDescriptor(rawValue: pipeEnds[1]))
        let ready = try queue.getNotifications()
        #expect(ready.contains { $0.file.rawValue == reused && $0.events.contains(.read) })
    }

    @Test("stop ends a wait in progress")
    func stopEndsWait() throws {
        var queue = ReadinessQueue()
        try queue.open()
        defer { try? queue.close() }
        let waiting = queue
        try queue.stop()
        #expect(throws: SocketError.self) { try waiting.getNotifications() }
    }
}
